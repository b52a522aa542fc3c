"""Moves on the wire: a ``Play`` body carries card codes and no seat.

The seat is always the sender's, so no one can play in another's name.
"""

from __future__ import annotations

from ...limits import MAX_PLAYERS
from ...wire.codec import PLAY
from ...wire.fields import ErrorReason, ProtocolError, refuse
from ...wire.messages import MoveKind, Play
from .cards import DECK_SIZE, Card, card_from_code
from .moves import CentrePlay, Move, PostPlay, Source, StuckCall, WoodFlip, WoodTurn

NO_CARD = -1
MAX_CODE = 8 * 40 - 1


_CENTRE, _POST, _FLIP = int(MoveKind.CENTRE), int(MoveKind.POST), int(MoveKind.FLIP)
_FROM_POST = int(Source.POST)


def play_fits(play: Play) -> bool:
    """Whether a Play body whose fields are within their wire ranges describes a move,
    without making the move (the codec's quick path).

    CENTRE and POST name a card (and decide the seat), and a card shown must be of the
    same deck. A CENTRE play has a slot only from the Post; a POST play goes from the
    Blitz or the Wood to the Post stack ``slot``, onto no centre pile. The other kinds
    name nothing but, for FLIP, the card shown.
    """
    move, card, shows = play.move, play.card, play.shows
    if move in (_CENTRE, _POST):
        if card == NO_CARD or (shows != NO_CARD and shows // DECK_SIZE != card // DECK_SIZE):
            return False
        if move == _CENTRE:
            return play.slot == 0 or play.source == _FROM_POST
        return play.source != _FROM_POST and play.pile == NO_CARD
    if play.source or play.slot or card != NO_CARD or play.pile != NO_CARD:
        return False
    return (shows != NO_CARD) == (move == _FLIP)


def check_play_fits(play: object) -> None:
    """``play_fits`` as a record check: ValueError if it describes no move."""
    if not play_fits(play):  # type: ignore[arg-type]
        raise ValueError("not a move")


class WireMoveError(ValueError):
    """A Play body that does not describe a move of its sender."""


def play_from_move(move: Move, round_number: int) -> Play:
    if isinstance(move, CentrePlay):
        pile = NO_CARD if move.pile is None else move.pile
        return Play(
            round_number, MoveKind.CENTRE, move.source, move.slot,
            move.card.code, pile, _code(move.shows),
        )  # fmt: skip
    if isinstance(move, PostPlay):
        return Play(
            round_number, MoveKind.POST, move.source, move.slot,
            move.card.code, NO_CARD, _code(move.shows),
        )  # fmt: skip
    if isinstance(move, WoodFlip):
        return Play(round_number, MoveKind.FLIP, 0, 0, NO_CARD, NO_CARD, move.shows.code)
    kind = MoveKind.TURN if isinstance(move, WoodTurn) else MoveKind.STUCK
    return Play(round_number, kind, 0, 0, NO_CARD, NO_CARD, NO_CARD)


def move_from_play(play: Play, seat: int) -> Move:
    """The move a Play body describes for ``seat``; WireMoveError if it is malformed."""
    kind = play.move
    if kind == MoveKind.CENTRE:
        source = _source(play.source, (Source.BLITZ, Source.WOOD, Source.POST))
        pile = None if play.pile == NO_CARD else _index(play.pile)
        slot = _index(play.slot) if source == Source.POST else _zero(play.slot)
        return CentrePlay(
            seat, source, slot, _card(play.card, seat), pile, _maybe_card(play.shows, seat)
        )
    if kind == MoveKind.POST:
        source = _source(play.source, (Source.BLITZ, Source.WOOD))
        _none(play.pile)
        return PostPlay(
            seat, source, _card(play.card, seat), _index(play.slot), _maybe_card(play.shows, seat)
        )
    _zero(play.source)
    _zero(play.slot)
    _none(play.card)
    _none(play.pile)
    if kind == MoveKind.FLIP:
        return WoodFlip(seat, _card(play.shows, seat))
    _none(play.shows)
    if kind == MoveKind.TURN:
        return WoodTurn(seat)
    if kind == MoveKind.STUCK:
        return StuckCall(seat)
    raise WireMoveError(f"unknown move kind {kind}")


def _code(shown: Card | None) -> int:
    return NO_CARD if shown is None else shown.code


def _source(value: int, allowed: tuple[Source, ...]) -> Source:
    if value not in allowed:
        raise WireMoveError(f"source {value} is not allowed here")
    return Source(value)


def _card(code: int, seat: int) -> Card:
    if not 0 <= code <= MAX_CODE:
        raise WireMoveError(f"card code {code} is out of range")
    found = card_from_code(code)
    if found.deck != seat:
        raise WireMoveError("the card is not from the sender's deck")
    return found


def _maybe_card(code: int, seat: int) -> Card | None:
    return None if code == NO_CARD else _card(code, seat)


def _index(value: int) -> int:
    if not 0 <= value < 1024:
        raise WireMoveError(f"index {value} is out of range")
    return value


def _zero(value: int) -> int:
    if value != 0:
        raise WireMoveError("field must be 0 for this move")
    return value


def _none(value: int) -> None:
    if value != NO_CARD:
        raise WireMoveError("field must be -1 for this move")


def write_move(move: Move, round: int) -> Play:
    """The Play body of ``move`` in round ``round``; ProtocolError(bad_field) if malformed."""
    try:
        play: Play = play_from_move(move, round)
    except (AttributeError, TypeError, ValueError) as exc:
        raise ProtocolError(ErrorReason.BAD_FIELD, f"move: {exc}") from None
    if read_move(play, getattr(move, "seat", NO_CARD)) != move:
        refuse(ErrorReason.BAD_FIELD, "move", "does not survive the wire unchanged")
    return play


def read_move(play: Play, seat: int) -> Move:
    """The move ``play`` describes for the sender's ``seat``; ProtocolError(bad_field) if none."""
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        refuse(ErrorReason.BAD_FIELD, "seat", f"{seat!r} is not a seat")
    try:
        PLAY.dump(play, "play")
        return move_from_play(play, seat)
    except ProtocolError as exc:
        raise ProtocolError(ErrorReason.BAD_FIELD, exc.detail) from None
    except ValueError as exc:
        raise ProtocolError(ErrorReason.BAD_FIELD, f"play: {exc}") from None
