"""Dutch Blitz's words: its refusals and news, a held play that came back, the lobby's
deck backs and Post stacking, and what each bot level does.

The table's words (client/words.py) say the rest; its face hands these to the frame
(``GameFace.words``), which reaches them only so.
"""

from __future__ import annotations

from dutchblitz.node.api import News, Notice, Refused, Told, Why

from ... import words
from ...words import GameWords

REFUSALS: dict[Why, str] = {
    # moves (spec/rules.md, section 9)
    Why.NOT_YOUR_CARD: "that card is not yours",
    Why.EMPTY_SOURCE: "there is no card there",
    Why.NOT_ON_TOP: "that card is no longer on top",
    Why.BAD_SOURCE: "that card cannot go there",
    Why.BAD_SLOT: "there is no such Post stack",
    Why.NEEDS_A_ONE: "only a 1 starts a new centre pile",
    Why.WRONG_COLOUR: "no centre pile of that colour takes it",
    Why.WRONG_VALUE: "that pile needs another value",
    Why.NO_PILE: "no centre pile takes that card now",
    Why.PILE_TAKEN: "another player got to that pile first",
    Why.STACKING_OFF: "Post stacking is off at this table",
    Why.SAME_GENDER: "a Post stack alternates boys and girls",
    Why.HAND_EMPTY: "your hand is empty",
    Why.HAND_NOT_EMPTY: "turn the Wood pile over only when the hand is empty",
    Why.WOOD_EMPTY: "your Wood pile is empty",
    Why.HAS_PLAY: "you still have a card for the centre",
    Why.STUCK: "you called stuck: wait for a centre play or the stalemate",
    Why.SHOWS_MISMATCH: "the table disagrees about a card",
    # the lobby's deck backs
    Why.BAD_BACKS: "every player needs a different deck back",
    Why.BACK_TAKEN: "another player has that back",
    Why.NO_BACK: "no back {what!r}: choose one of {other}",
    Why.BACK_HELD: "{other} has the {what} back",
    Why.BACKS_CHOICE: "{what}",
    # what the node checks before it sends a play
    Why.SLOW_DOWN: "slow down: {count} plays are already waiting their turn",
    Why.BLITZ_EMPTY: "your Blitz pile is empty",
    Why.NO_POST: "there is no Post stack {count}",
    Why.POST_EMPTY: "that stack is empty",
    Why.NO_PILE_FOR: "no centre pile takes {what} now",
    Why.NOTHING_TO_FLIP: "your hand and Wood pile are empty",
    Why.ALREADY_STUCK: "you have already called stuck",
    Why.CAN_PLAY: "{what} can go to the centre",
    Why.CANNOT_STACK: "{what} cannot go on {other}: one lower, and boy on girl or girl on boy",
    Why.PLAY_BEFORE: "the play before it did not go",
}

# What a lobby-only action of Dutch Blitz's is, for "you can ... only in the lobby".
LOBBY_ACTIONS = {
    "set_back": "change your deck back",
    "set_post_stacking": "change the table's options",
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
