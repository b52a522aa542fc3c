"""The messages nodes exchange, as plain data. ``codec`` turns them into bytes.

Every message travels in an ``Envelope``. Sequenced messages (``Event``) form
each sender's stream, numbered 1, 2, 3, ... and enter the table's total order;
the others (``Hello``, ``Heartbeat``, ``RepairRequest``, ``Repair``) are not
sequenced and never enter the log. See spec/protocol.md for the wire grammar.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Kind(IntEnum):
    """Envelope type codes on the wire."""

    HELLO = 1
    HEARTBEAT = 2
    EVENT = 3
    REPAIR_REQUEST = 4
    REPAIR = 5
    ROUND = 6  # a step of the consensus round on a membership change (section 12)
    WATCH = 15  # a spectator's subscription, and the final events fed to it (section 26)


class WatchOp(IntEnum):
    """What a WATCH says (spec/protocol.md section 26)."""

    SUBSCRIBE = 1  # a spectator asks a member for the stable log from ``index`` on
    END = 2  # a spectator stops watching
    FEED = 3  # a member sends stable events from ``index`` on


class RoundOp(IntEnum):
    """What a ROUND says (spec/protocol.md section 12, Agreeing on the cut)."""

    PREPARE = 1  # a coordinator opens a ballot: the members it would remove
    PROMISE = 2  # an acceptor promises the ballot: what it holds of each, what it accepted
    ACCEPT = 3  # the coordinator asks the acceptors to accept a value
    ACCEPTED = 4  # an acceptor has accepted the value of the ballot
    DECIDED = 5  # the value decided for the view
    LEARN = 6  # a node asks for the value decided for the view


class BodyKind(IntEnum):
    """Event body type codes on the wire."""

    ADMIT = 1
    PROFILE = 2
    READY = 3
    START = 4
    DEAL = 5
    PLAY = 6
    REVEAL = 7
    SUSPECT = 8
    BYE = 9
    CUT = 10
    COMMIT = 11
    SHARE = 12
    BACKDATED = 13
    UNSUSPECT = 14
    GAME = 16
    OPTIONS = 18  # 17 stays unknown: its vector (body-kind-17) says so


class MoveKind(IntEnum):
    CENTRE = 1
    POST = 2
    FLIP = 3
    TURN = 4
    STUCK = 5


# -- unsequenced payloads ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeerAddress:
    node: bytes
    endpoint: str  # "tcp://198.18.0.2:5555"
    key: bytes  # the node's Ed25519 public key (32 bytes); node == node_id_of(key)


@dataclass(frozen=True, slots=True)
class Hello:
    """Sent when a connection opens: who I am, where I listen, whom I know."""

    name: str
    back: str
    endpoint: str
    peers: tuple[PeerAddress, ...]
    epoch: bytes  # the id of the table log this node holds (empty: none yet)
    resume_seq: int  # >0: not a member, asks to be admitted with its stream resuming here


@dataclass(frozen=True, slots=True)
class Ack:
    node: bytes
    held: int  # highest sequence number held contiguously from that node


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Carries the sender's clock, its last sequence number, what it holds, and a digest."""

    last_seq: int
    acks: tuple[Ack, ...]
    digest_index: int  # how many events of the stable log the digest covers
    digest: bytes  # the public digest after ``digest_index`` events (empty: none)
    view: int | None = None  # a node that runs rounds: how many views it has seen decided


@dataclass(frozen=True, slots=True)
class RepairRequest:
    """Ask for ``origin``'s events ``first`` to ``last`` inclusive."""

    origin: bytes
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Repair:
    """Original encoded events of ``origin``, relayed byte for byte."""

    origin: bytes
    events: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """A step of the consensus round of view ``view`` (spec/protocol.md section 12).

    A ballot is ``(ballot, coordinator)``, compared in that order; ``cuts`` is the value
    (each member removed and its cut) or, in a PREPARE, the members to remove, and in a
    PROMISE what the acceptor acknowledges of each; ``accepted`` is the acceptor's
    highest accepted ballot (0: none) and its value.
    """

    op: RoundOp
    view: int
    ballot: int
    coordinator: bytes
    cuts: tuple[Ack, ...]
    accepted_ballot: int = 0
    accepted_by: bytes = bytes(16)
    accepted_cuts: tuple[Ack, ...] = ()


@dataclass(frozen=True, slots=True)
class Watch:
    """A spectator's subscription (or its end), or a member's feed of final events.

    A spectator is not a member: it sends nothing but this, and what it is fed is the
    stable log, event by event, each the original signed EVENT message.
    """

    op: WatchOp
    epoch: bytes  # the table log: SUBSCRIBE, the one followed (empty: any); FEED, the member's
    index: int  # SUBSCRIBE: the first stable event wanted; FEED: the first one carried
    name: str  # the sender's name
    endpoint: str  # where the sender's table socket listens
    watchers: tuple[str, ...] = ()  # FEED: the names of those this member feeds
    events: tuple[bytes, ...] = ()  # FEED: complete EVENT messages, in the stable order


# -- event bodies: what enters the total order ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Admit:
    """A member admits ``node`` to the table; its events count from here on.

    ``first_seq`` is where the admitted node's stream resumes: a node that was
    removed and comes back skips every number it may already have used.
    """

    node: bytes
    first_seq: int
    game: str | None = None  # the founding ADMIT's game, when not Dutch Blitz (P-233)


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    back: str


@dataclass(frozen=True, slots=True)
class Ready:
    ready: bool


@dataclass(frozen=True, slots=True)
class Options:
    """The lobby's options, one for the whole table (P-261): the game's length, a target
    and maybe a number of rounds (0: none, P-237), Post stacking, and the game a START is
    to name (None: the table's own, P-241). Every screen shows these; a START carries them."""

    target: int
    post_stacking: bool
    rounds: int = 0
    game: str | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """Start the game once every seated player is ready; ``rounds``, when given, is the
    game's length in rounds instead of its target (a game that offers it: P-237);
    ``game``, when given, the game the table plays from this START on, in place of the
    one it hosts (P-240, P-241); ``data``, when given, the digest of the data that game
    plays with on the starter's node, which every node compares with its own (P-291 to
    P-294)."""

    target: int
    post_stacking: bool
    rounds: int | None = None
    game: str | None = None
    data: bytes | None = None


@dataclass(frozen=True, slots=True)
class Commit:
    """A player's commitment, before a round is dealt, to its secret and its share.

    Each is a hash (``protocol.fairdeal``): the secret fixes the player's own deck
    order together with everyone's shares, and stays hidden until the reveal.
    """

    round: int
    secret_hash: bytes
    share_hash: bytes


@dataclass(frozen=True, slots=True)
class Share:
    """A player's share of a round's joint randomness, sent once every commitment is in."""

    round: int
    share: bytes


@dataclass(frozen=True, slots=True)
class Backdated:
    """The sender saw ``node``'s event ``seq`` stamped ``lamport``, although ``node`` had
    already announced a clock of ``announced`` before sending it."""

    node: bytes
    seq: int
    lamport: int
    announced: int


@dataclass(frozen=True, slots=True)
class Deal:
    """A player's face-up cards for a round, taken from its committed deck order.

    ``visible`` lists card codes: the Post row in order, then the Blitz top.
    ``commitment`` is unused (empty): the commitment is the round's COMMIT.
    """

    round: int
    visible: tuple[int, ...]
    commitment: bytes


@dataclass(frozen=True, slots=True)
class Play:
    """One move of the sender's seat. Card codes as in ``Card.code``; -1 means none."""

    round: int
    move: MoveKind
    source: int
    slot: int
    card: int
    pile: int
    shows: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """The end-of-round reveal of a player's secret and deck order, for the audit."""

    round: int
    secret: bytes
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Suspect:
    """The sender takes ``node`` to have left; it holds its events up to ``held``."""

    node: bytes
    held: int


@dataclass(frozen=True, slots=True)
class Unsuspect:
    """The sender withdraws its latest SUSPECT of ``node``: it acknowledges it again."""

    node: bytes


@dataclass(frozen=True, slots=True)
class Bye:
    """The sender leaves the table."""


@dataclass(frozen=True, slots=True)
class Cut:
    """The sender has agreed where ``node``'s stream ends: nothing after ``seq`` counts."""

    node: bytes
    seq: int


@dataclass(frozen=True, slots=True)
class GameBody:
    """A message of the game being played, tagged with that game's id.

    The table orders and signs it like any event and never looks inside: ``payload`` is
    the game's own encoding, decoded and checked by that game's codec when the event is
    applied (spec/protocol.md section 7.11).
    """

    game: int
    payload: bytes


Body = (
    Admit
    | Profile
    | Ready
    | Start
    | Deal
    | Play
    | Reveal
    | Suspect
    | Bye
    | Cut
    | Commit
    | Share
    | Backdated
    | GameBody
    | Unsuspect
    | Options
)


@dataclass(frozen=True, slots=True)
class Event:
    body: Body


Payload = Hello | Heartbeat | Event | RepairRequest | Repair | Round | Watch


@dataclass(frozen=True, slots=True)
class Envelope:
    """What travels: the header every message has, and its payload.

    ``lamport`` is the sender's Lamport time; ``seq`` its stream number for an
    ``Event`` and 0 otherwise. ``auth`` is reserved for a signature (empty now).
    """

    table: str
    sender: bytes
    lamport: int
    seq: int
    payload: Payload
    auth: bytes = b""
