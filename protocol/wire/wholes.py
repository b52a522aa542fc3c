"""The rules a record keeps as a whole, beyond each field's own: the codec's tables name
them (codec.py), and both its paths run them, the reference path and msgspec's quick one.

They live apart from the codec so that the quick path calls forward into them, never back
into the codec that called it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..limits import DECK_CODES
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
FROM_POST = 2  # a PLAY's source: a Post stack, the one source that names a slot (P-51)


def _distinct_nodes(items: Sequence[PeerAddress] | Sequence[Ack], where: str) -> None:
    nodes = [item.node for item in items]
    if len(set(nodes)) != len(nodes):
        refuse(ErrorReason.BAD_FIELD, where, "a node appears twice")


def check_hello(hello: object) -> None:
    assert isinstance(hello, Hello)
    _distinct_nodes(hello.peers, "payload.peers")


class RoundKind:
    """Whether the table runs rounds: ROUND (kind 6) and a HEARTBEAT's view are on the wire.
    Off, both are refused as before (P-18, P-26)."""

    enabled: ClassVar[bool] = False


def check_heartbeat(beat: object) -> None:
    assert isinstance(beat, Heartbeat)
    _distinct_nodes(beat.acks, "payload.acks")
    if not beat.digest and beat.digest_index != 0:
        refuse(ErrorReason.BAD_FIELD, "payload.digest_index", "must be 0 without a digest")
    if beat.view is not None and not RoundKind.enabled:  # only where rounds run (P-287)
        refuse(ErrorReason.BAD_LENGTH, "payload", "5 items, not 4")


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
    if len({code // DECK_CODES for code in codes}) > 1:
        refuse(ErrorReason.BAD_FIELD, where, "cards of more than one deck")
    if len(set(codes)) != len(codes):
        refuse(ErrorReason.BAD_FIELD, where, "a card appears twice")


def check_deal(deal: object) -> None:
    assert isinstance(deal, Deal)
    _one_deck(deal.visible, "payload.visible")


def check_reveal(reveal: object) -> None:
    assert isinstance(reveal, Reveal)
    _one_deck(reveal.order, "payload.order")


def play_misfit(play: Play) -> str | None:
    """Why a PLAY whose fields lie within their ranges (P-50) does not fit the row of its
    move (P-51, spec/protocol.md 7.6), or has a card and shows of two decks (P-186); None
    when it fits. The PLAY body's grammar is the wire's; what its move is and whether it
    stands is the game's (``TableGame.move_from_play``)."""
    move, card, shows = play.move, play.card, play.shows
    if shows != NONE and card != NONE and shows // DECK_CODES != card // DECK_CODES:
        return "the card and shows are of two decks"
    if move in (MoveKind.CENTRE, MoveKind.POST):
        return _places_misfit(play)
    if play.source or play.slot:
        return "source and slot must be 0 for this move"
    if card != NONE or play.pile != NONE:
        return "card and pile must be -1 for this move"
    if (shows != NONE) != (move == MoveKind.FLIP):
        return "shows a card only in a FLIP"
    return None


def _places_misfit(play: Play) -> str | None:
    """A CENTRE or POST play: a card, from a source that may be played from, to a place."""
    if play.card == NONE:
        return "names no card"
    if play.move == MoveKind.CENTRE:
        fits = play.slot == 0 or play.source == FROM_POST
        return None if fits else "a slot only for a card from a Post stack"
    if play.source == FROM_POST:
        return "source 2 is not allowed here"
    return None if play.pile == NONE else "pile must be -1 for this move"


def check_play(play: object) -> None:
    """The fields must fit the move kind (P-51, P-186)."""
    assert isinstance(play, Play)
    misfit = play_misfit(play)
    if misfit is not None:
        move = MoveKind(play.move).name  # a plain int code too, on the way out
        refuse(ErrorReason.BAD_FIELD, "payload", f"not a {move} move: {misfit}")


def check_play_fits(play: object) -> None:
    """``play_misfit`` as the quick path's record check: ValueError if it does not fit."""
    if play_misfit(play) is not None:  # type: ignore[arg-type]
        raise ValueError("not a move")
