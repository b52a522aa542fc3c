"""Dutch's keys: which key does what, as data, and one pure function from a key to a move.

One key per action (spec/dutch.md section 3): ``d`` draws, ``x`` discards, a card's number
puts the drawn card in its place, ``t`` and a number throws that card in the race, ``c``
calls Dutch. A special card's target is typed as a player's letter and a card's number
("b3": Bea's card 3), twice for a Jack; ``s`` skips the action, Esc forgets half a command.
The keys that build a move build it whenever it might be meant, and the rules say why it
is refused; a key that means nothing now answers with a hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from dutchblitz.protocol.games.dutch.cards import ACE, JACK, QUEEN
from dutchblitz.protocol.games.dutch.moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Look,
    Move,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from dutchblitz.protocol.games.dutch.views import Phase, RoundView

from ...keymap import KeyHelp

DRAW = "d"
DISCARD = "x"
THROW = "t"
CALL = "c"
SKIP = "s"
CANCEL = "escape"
NEXT = ("space", "enter")  # after the scores: the next round
CARD_KEYS = "1234567890"  # a card of a hand, left to right (0: the tenth)
PLAYER_KEYS = "abcdefgh"  # a player, by seat (8 at most, D-4): the letter before the name

# The hints a key that does nothing answers with: their words are in words.py.
HINT_PLAYER_FIRST = "player_first"
HINT_NO_PLAYER = "no_player"
HINT_CARD_NEXT = "card_next"
HINT_PEEK_ANOTHER = "peek_another"
HINT_THROW_FIRST = "throw_first"
HINT_THROW_CARD = "throw_card"
HINT_NOT_NOW = "not_now"
HINT_NO_CARD = "no_card"
HINT_TURNING = "turning"
HINTS = (
    HINT_TURNING,
    HINT_NO_CARD,
    HINT_PLAYER_FIRST,
    HINT_NO_PLAYER,
    HINT_CARD_NEXT,
    HINT_PEEK_ANOTHER,
    HINT_THROW_FIRST,
    HINT_THROW_CARD,
    HINT_NOT_NOW,
)


@dataclass(frozen=True, slots=True)
class Pressed:
    """What a key did: a move to make, the keys of a half-typed command kept for the next
    key, or a hint code when it did nothing."""

    move: Move | None = None
    typed: str = ""
    hint: str = ""


def card_slot(key: str) -> int | None:
    return CARD_KEYS.index(key) if len(key) == 1 and key in CARD_KEYS else None


def player_seat(key: str) -> int | None:
    return PLAYER_KEYS.index(key) if len(key) == 1 and key in PLAYER_KEYS else None


def press(view: RoundView, typed: str, key: str) -> Pressed:
    """The move (or the half-typed command) ``key`` makes, after the keys ``typed``."""
    mine = view.mine
    if key == CANCEL or mine is None:  # nobody at the table has no move (D-42)
        return Pressed()
    if view.phase is Phase.PEEK:
        return _peek(typed, key, len(mine.hand))
    if typed.startswith(THROW):
        return _throw(key)
    if view.my_turn and view.phase is Phase.ACTION:
        return _target(view, typed, key)
    return _plain(view, key)


def _plain(view: RoundView, key: str) -> Pressed:
    """A key with nothing half-typed before it, outside the peek and a special card's
    target: draw, discard, call, a card's number (put the drawn card there) or throw."""
    if key == THROW:
        return Pressed(typed=THROW)
    if view.turning_over and (key == DISCARD or card_slot(key) is not None):
        return Pressed(hint=HINT_TURNING)  # D-41: decide once you have seen the card
    simple: dict[str, Move] = {DRAW: Draw(), DISCARD: Discard(), CALL: CallDutch()}
    if key in simple:
        return Pressed(simple[key])
    slot = card_slot(key)
    if slot is not None and view.my_turn and view.phase is Phase.DECIDE:
        return Pressed(Replace(slot))
    if slot is not None and view.can_throw:
        return Pressed(hint=HINT_THROW_FIRST)
    return Pressed(hint=HINT_NOT_NOW)


def _peek(typed: str, key: str, cards: int) -> Pressed:
    slot = card_slot(key)
    if slot is None:
        return Pressed(typed=typed, hint=HINT_NOT_NOW)
    if slot >= cards:
        return Pressed(typed=typed, hint=HINT_NO_CARD)
    if not typed:
        return Pressed(typed=key)
    first = card_slot(typed)
    if first is None or first == slot:
        return Pressed(typed=typed, hint=HINT_PEEK_ANOTHER)
    return Pressed(InitialPeek(first, slot))


def _throw(key: str) -> Pressed:
    slot = card_slot(key)
    return Pressed(hint=HINT_THROW_CARD) if slot is None else Pressed(Throw(slot))


def _target(view: RoundView, typed: str, key: str) -> Pressed:
    """A special card's target: a player's letter, then (Jack, Queen) a card's number;
    a Jack takes two such spots."""
    if key == SKIP:
        return Pressed(Skip())
    seat, slot = player_seat(key), card_slot(key)
    if seat is not None:
        if seat >= len(view.players):
            return Pressed(typed=typed, hint=HINT_NO_PLAYER)
        if view.action == ACE:
            return Pressed(Give(seat))
        kept = typed[:2] if len(typed) >= 2 else ""  # a letter after a letter: that one
        return Pressed(typed=kept + key)
    if slot is None or len(typed) % 2 == 0:
        return Pressed(typed=typed, hint=HINT_PLAYER_FIRST if slot is not None else HINT_NOT_NOW)
    spots = _spots(typed + key)
    if view.action == QUEEN:
        return Pressed(Look(spots[0]))
    if view.action == JACK and len(spots) == 2:
        return Pressed(Swap(spots[0], spots[1]))
    return Pressed(typed=typed + key, hint=HINT_CARD_NEXT if view.action == JACK else "")


def _spots(typed: str) -> list[Spot]:
    pairs = [typed[i : i + 2] for i in range(0, len(typed) - 1, 2)]
    return [Spot(PLAYER_KEYS.index(p[0]), CARD_KEYS.index(p[1])) for p in pairs]


def _cards(count: int) -> str:
    """The card keys of a hand of ``count``: "1-4", or "1-9 0" for ten cards or more."""
    return f"1-{count}" if count <= len(CARD_KEYS) - 1 else "1-9 0"


def help_lines(cards: int = 4) -> tuple[KeyHelp, ...]:
    """The keys, for the help screen and the README."""
    return (
        KeyHelp(f"{_cards(cards)} {_cards(cards)}", "at the start: look at two of your cards"),
        KeyHelp(DRAW, "draw a card"),
        KeyHelp(DISCARD, "discard the card you drew"),
        KeyHelp(_cards(cards), "put the drawn card in place of that card of yours"),
        KeyHelp(f"{THROW}, {_cards(cards)}", "throw that card of yours on a match (the race)"),
        KeyHelp(CALL, "call Dutch, just after your turn"),
        KeyHelp("a-h, 1-9", "a special card's target: a player's letter, a card's number"),
        KeyHelp(SKIP, "skip the special card's action"),
        KeyHelp("Esc", "forget a half-typed command"),
        KeyHelp("Space", "after the scores: the next round"),
    )


def bar(view: RoundView, game_over: bool = False) -> list[tuple[str, str]]:
    """The keys that do something now, for the foot of the screen (nobody at the table
    has no move to make: only the help and the way out)."""
    mine = view.mine
    if mine is None:
        return [("?", "help"), ("q", "leave")]
    cards = _cards(len(mine.hand))
    if view.phase is Phase.OVER:
        return [("q", "leave")] if game_over else [("Space", "next round"), ("q", "leave")]
    if view.phase is Phase.PEEK:
        found = [] if mine.peeked else [(f"{cards} {cards}", "look at two cards")]
        return [*found, ("?", "help"), ("q", "leave")]
    found = _turn_keys(view, cards) if view.my_turn else []
    if view.can_throw:
        found.append((f"{THROW} {cards}", "throw"))
    if view.can_call:
        found.append((CALL, "call Dutch"))
    return [*found, ("Esc", "forget"), ("?", "help"), ("q", "leave")]


def _turn_keys(view: RoundView, cards: str) -> list[tuple[str, str]]:
    """The keys of your turn: draw; then discard or put the card in place; then a special
    card's target or skip."""
    if view.phase is Phase.DRAW:
        return [(DRAW, "draw")]
    if view.phase is Phase.DECIDE and not view.turning_over:
        return [(DISCARD, "discard it"), (cards, "put it in place of that card")]
    if view.phase is Phase.ACTION:
        target = "a-h" if view.action == ACE else "a-h 1-9"
        return [(target, "pick" if view.action == ACE else "pick a card"), (SKIP, "skip")]
    return []
