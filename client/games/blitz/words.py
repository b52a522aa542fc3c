"""Dutch Blitz's words: its refusals and news, a held play that came back, the lobby's
deck backs and Post stacking, and what each bot level does.

The table's words (client/words.py) say the rest; its face hands these to the frame
(``GameFace.words``), which reaches them only so.
"""

from __future__ import annotations

from dutchblitz.node.api import News, Notice, Refused, Told, Why
from dutchblitz.protocol.games.blitz.intents import KeyRefusal

from ... import words
from ...words import GameWords

REFUSALS: dict[str, str] = {
    # the rules' reasons (protocol/games/blitz/rules.py ``Reason``, spec/rules.md section 9)
    "not_your_card": "that card is not yours",
    "empty_source": "there is no card there",
    "not_on_top": "that card is no longer on top",
    "bad_source": "that card cannot go there",
    "bad_slot": "there is no such Post stack",
    "needs_a_one": "only a 1 starts a new centre pile",
    "wrong_colour": "no centre pile of that colour takes it",
    "wrong_value": "that pile needs another value",
    "no_pile": "no centre pile takes that card now",
    "pile_taken": "another player got to that pile first",
    "stacking_off": "Post stacking is off at this table",
    "same_gender": "a Post stack alternates boys and girls",
    "hand_empty": "your hand is empty",
    "hand_not_empty": "turn the Wood pile over only when the hand is empty",
    "wood_empty": "your Wood pile is empty",
    "has_play": "you still have a card for the centre",
    "stuck": "you called stuck: wait for a centre play or the stalemate",
    "shows_mismatch": "the table disagrees about a card",
    # the lobby's deck backs
    Why.BAD_BACKS: "every player needs a different deck back",
    Why.BACK_TAKEN: "another player has that back",
    Why.NO_BACK: "no back {what!r}: choose one of {other}",
    Why.BACK_HELD: "{other} has the {what} back",
    Why.BACKS_CHOICE: "{what}",
    # what the node checks before it sends a play
    Why.SLOW_DOWN: "slow down: {count} plays are already waiting their turn",
    Why.PLAY_BEFORE: "the play before it did not go",
    # why a key found no move (protocol/games/blitz/intents.py)
    KeyRefusal.BLITZ_EMPTY: "your Blitz pile is empty",
    KeyRefusal.NO_POST: "there is no Post stack {count}",
    KeyRefusal.POST_EMPTY: "that stack is empty",
    KeyRefusal.NO_PILE_FOR: "no centre pile takes {what} now",
    KeyRefusal.NOTHING_TO_FLIP: "your hand and Wood pile are empty",
    KeyRefusal.ALREADY_STUCK: "you have already called stuck",
    KeyRefusal.CAN_PLAY: "{what} can go to the centre",
    KeyRefusal.CANNOT_STACK: (
        "{what} cannot go on {other}: one lower, and boy on girl or girl on boy"
    ),
}

# What a lobby-only action of Dutch Blitz's is, for "you can ... only in the lobby".
LOBBY_ACTIONS = {
    "set_back": "change your deck back",
}

# What the next bot's level does, said when ``l`` picks it.
BOT_LEVELS = {
    "easy": "easy bot: slow, overlooks many plays, never plans",
    "normal": "normal bot: steady, overlooks a few plays, takes the plainly best move",
    "fast": "fast bot: quick, sees almost every play, plans its moves",
    "flat-out": "flat-out bot: no pause at all, plans, and empties its Blitz pile on purpose",
}

# A held play that came back: "5R♂ came back: ...", "your flip came back: ...".
HELD = {"flip": "your flip", "stuck": "your stuck call", "turn": "your turn of the Wood pile"}


def _lost_race(told: Told) -> str:
    return f"{told.who or 'another player'} beat you to {told.what or 'it'}"


WORDS = GameWords(
    call="Blitz",
    refusals=REFUSALS,
    news={
        News.LOST_RACE: _lost_race,
        News.STALEMATE: lambda told: "stalemate: everyone's hand moved one card",
    },
    held=HELD,
    lobby_actions=LOBBY_ACTIONS,
    bot_levels=BOT_LEVELS,
)


def say(refused: Refused) -> str:
    """The words for a refusal at a Dutch Blitz table."""
    return words.say(refused, WORDS)


def said(refused: Refused | None) -> str:
    """The words for an action's answer at a Dutch Blitz table: "" when it was taken."""
    return words.said(refused, WORDS)


def tell(told: Told) -> str:
    """The words for a piece of news at a Dutch Blitz table."""
    return words.tell(told, WORDS)


def notice_text(notice: Notice) -> str:
    """What a notice says at a Dutch Blitz table."""
    return words.notice_text(notice, WORDS)
