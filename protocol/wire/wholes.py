"""The rules a record keeps as a whole, beyond each field's own: the codec's tables name
them (codec.py), and both its paths run them, the reference path and msgspec's quick one.

They live apart from the codec so that the quick path calls forward into them, never back
into the codec that called it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..games.blitz.cards import DECK_SIZE
from ..games.blitz.wire_moves import move_from_play
from .fields import ErrorReason, refuse
from .messages import (
    Ack,
    Deal,
    Heartbeat,
    Hello,
    MoveKind,
    PeerAddress,
    Play,
    RepairRequest,
    Reveal,
    Watch,
    WatchOp,
)

MAX_REPAIR_EVENTS = 256  # events in one REPAIR (and one FEED)
NONE = -1  # a Play field that names no card or pile


def _distinct_nodes(items: Sequence[PeerAddress] | Sequence[Ack], where: str) -> None:
    nodes = [item.node for item in items]
    if len(set(nodes)) != len(nodes):
        refuse(ErrorReason.BAD_FIELD, where, "a node appears twice")


def check_hello(hello: object) -> None:
    assert isinstance(hello, Hello)
    _distinct_nodes(hello.peers, "payload.peers")


def check_heartbeat(beat: object) -> None:
    assert isinstance(beat, Heartbeat)
    _distinct_nodes(beat.acks, "payload.acks")
    if not beat.digest and beat.digest_index != 0:
        refuse(ErrorReason.BAD_FIELD, "payload.digest_index", "must be 0 without a digest")


def check_repair_request(request: object) -> None:
    assert isinstance(request, RepairRequest)
    if not request.first <= request.last < request.first + MAX_REPAIR_EVENTS:
        refuse(ErrorReason.BAD_FIELD, "payload.last", f"more than {MAX_REPAIR_EVENTS} or none")


def check_watch(watch: object) -> None:
    """Only a FEED carries watchers and events (the events are checked with the envelope)."""
    assert isinstance(watch, Watch)
    if watch.op != WatchOp.FEED and (watch.watchers or watch.events):
        refuse(ErrorReason.BAD_FIELD, "payload", "only a FEED carries watchers and events")


def _one_deck(codes: Sequence[int], where: str) -> None:
    if len({code // DECK_SIZE for code in codes}) > 1:
        refuse(ErrorReason.BAD_FIELD, where, "cards of more than one deck")
    if len(set(codes)) != len(codes):
        refuse(ErrorReason.BAD_FIELD, where, "a card appears twice")


def check_deal(deal: object) -> None:
    assert isinstance(deal, Deal)
    _one_deck(deal.visible, "payload.visible")


def check_reveal(reveal: object) -> None:
    assert isinstance(reveal, Reveal)
    _one_deck(reveal.order, "payload.order")


def check_play(play: object) -> None:
    """The fields must fit the move kind; the seat stands in as the deck the cards name."""
    assert isinstance(play, Play)
    seat = next((code // DECK_SIZE for code in (play.card, play.shows) if code != NONE), 0)
    try:
        move_from_play(play, seat)
    except ValueError as exc:
        move = MoveKind(play.move).name  # a plain int code too, on the way out
        refuse(ErrorReason.BAD_FIELD, "payload", f"not a {move} move: {exc}")
