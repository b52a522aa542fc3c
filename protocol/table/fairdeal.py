"""The fair deal: commitments, the joint randomness, each deck's order, and the audit.

Per round, every seated player draws a secret and a share (32 random bytes each)
and sends COMMIT with a hash of each. Once every present player's COMMIT is in
the log, each sends SHARE, the share itself. The joint randomness is a hash of
all shares in seat order, and each deck's order is a Fisher-Yates shuffle driven
by a BLAKE2b stream seeded with the owner's secret and the joint randomness:
nobody could choose it (the shares came after the commitments), and nobody but
the owner knows it (the secret stays with the owner). When the round is over the
owner sends REVEAL with the secret and its order, and every node recomputes the
deck and replays the round against it (the game's ``replay``), checking every card a move
of that player named. Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..limits import HASH_SIZE
from ..limits import SECRET_SIZE as SECRET_SIZE

if TYPE_CHECKING:
    from .rules import AnyGame

SHARE_SIZE = 32
T = TypeVar("T")


def _hash(person: bytes, *parts: bytes) -> bytes:
    return hashlib.blake2b(b"".join(parts), digest_size=HASH_SIZE, person=person).digest()


def _round(number: int) -> bytes:
    return number.to_bytes(4, "big")


def secret_hash(node: bytes, round_number: int, secret: bytes) -> bytes:
    """The commitment to a player's secret for one round."""
    return _hash(b"blitz-secret", node, _round(round_number), secret)


def share_hash(node: bytes, round_number: int, share: bytes) -> bytes:
    """The commitment to a player's share of the joint randomness for one round."""
    return _hash(b"blitz-share", node, _round(round_number), share)


def joint_randomness(round_number: int, shares: Iterable[bytes]) -> bytes:
    """The joint randomness of a round: a hash of every share, in seat order."""
    return _hash(b"blitz-joint", _round(round_number), *shares)


def deck_seed(secret: bytes, joint: bytes) -> bytes:
    return _hash(b"blitz-deck", secret, joint)


class Stream:
    """Uniform draws from BLAKE2b-512(seed ‖ block counter), 4 bytes at a time."""

    __slots__ = ("_block", "_buffer", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._block = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 4:
            block = self._block.to_bytes(8, "big")
            self._buffer += hashlib.blake2b(self._seed + block, digest_size=64).digest()
            self._block += 1
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound): rejection sampling, so no value is favoured."""
        if not 0 < bound <= 1 << 32:
            raise ValueError(f"bound {bound} out of range")
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            word = self._word()
            if word < limit:
                return word % bound


def shuffle(items: Sequence[T], seed: bytes) -> list[T]:
    """Fisher-Yates: for i from the end down to 1, swap item i with a uniform j <= i."""
    out = list(items)
    stream = Stream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deck_order(deck: Sequence[T], secret: bytes, joint: bytes) -> list[T]:
    """A seat's deck for a round, top first: its canonical ``deck``, shuffled."""
    return shuffle(deck, deck_seed(secret, joint))


@dataclass(frozen=True, slots=True)
class RoundSecret:
    """What a player keeps to itself for one round: its secret until the reveal, its share
    until the deal, and for a game whose seats hold secrets (table/player.py ``owes_bodies``,
    ``bots_use_secrets``) a private seed that never leaves the node (empty for any other)."""

    secret: bytes
    share: bytes
    private: bytes = b""


# -- the audit --------------------------------------------------------------------------

Step = tuple[int, Any]
"""One thing that happened to the table in a round: (seat, the game's accepted move, or
a bool: the seat became active or not)."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What the log showed of one round, enough to replay it against a revealed deck."""

    round: int
    players: int
    post_stacking: bool
    seats: tuple[int, ...]  # the seats dealt in, in seat order
    nodes: Mapping[int, bytes]  # seat -> node id
    visible: Mapping[int, tuple[int, ...]]  # seat -> the DEAL's face-up card codes
    commits: Mapping[int, tuple[bytes, bytes]]  # seat -> (secret hash, share hash)
    joint: bytes
    active: frozenset[int]  # seats active when play began
    steps: tuple[Step, ...]


AuditKey = tuple[int, int, bytes, tuple[int, ...]]  # round, seat, secret, revealed order
AUDITS_KEPT = 256  # a few rounds' reveals: older ones are never applied again


def audit_kept(
    kept: dict[AuditKey, tuple[RoundRecord, str | None]],
    record: RoundRecord,
    seat: int,
    secret: bytes,
    order: Sequence[int],
    rules: AnyGame,
) -> str | None:
    """``audit_reveal``, replayed once per reveal however many copies of the game apply it.

    A node applies each REVEAL to its stable game and, when one is built, to its optimistic
    game and each rebuild of it. Each copy holds its own record of the round, equal to the
    others' when the round was ordered the same, so the answer is kept with the record it
    was found for (``kept`` is shared by every copy of a game), and given again only for an
    equal record: comparing two records is far cheaper than replaying the round.
    """
    key = (record.round, seat, secret, tuple(order))
    found = kept.get(key)
    if found is not None and (found[0] is record or found[0] == record):
        return found[1]
    problem = audit_reveal(record, seat, secret, order, rules)
    kept[key] = (record, problem)
    while len(kept) > AUDITS_KEPT:
        del kept[next(iter(kept))]
    return problem


def audit_reveal(
    record: RoundRecord, seat: int, secret: bytes, order: Sequence[int], rules: AnyGame
) -> str | None:
    """Why a seat's REVEAL does not fit the round (a mismatch), or None if it does."""
    node = record.nodes[seat]
    if secret_hash(node, record.round, secret) != record.commits[seat][0]:
        return "the revealed secret does not match its commitment"
    deck = deck_order(rules.deck(seat), secret, record.joint)
    if [card.code for card in deck] != list(order):
        place = next(i for i, (c, o) in enumerate(zip(deck, order, strict=True)) if c.code != o)
        return f"card {place + 1} of the revealed order is not the dealt one"
    if not rules.fits(deck, record.visible[seat], record.players):
        return "the face-up cards dealt are not the deck's"
    return rules.replay(record, seat, deck)
