"""Dutch Blitz's keystroke intents: what one key names, with no target. The game picks
the legal target on the table the player sees (player.py, ``BlitzPlayer.build``), so a
fast key press never sends a move that cannot count.

A face hands an ``Intent`` to the node as the game's move (node/api.py ``Session.play``);
a key it cannot carry out now comes back with one of the ``KeyRefusal`` codes, worded by
Dutch Blitz's face (client/games/blitz/words.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Action(StrEnum):
    """One keystroke's worth of play."""

    BLITZ_TO_CENTRE = "blitz_to_centre"
    POST_TO_CENTRE = "post_to_centre"  # with slot
    WOOD_TO_CENTRE = "wood_to_centre"
    FLIP = "flip"  # flip three, or turn the Wood pile over when the hand is empty
    STUCK = "stuck"
    BLITZ_TO_POST = "blitz_to_post"  # with slot
    WOOD_TO_POST = "wood_to_post"  # with slot


@dataclass(frozen=True, slots=True)
class Intent:
    """A key's play: its action, and the Post stack it names (from 0) where it names one."""

    action: Action
    slot: int = 0


class KeyRefusal(StrEnum):
    """Why a key's action found no move, checked before anything is sent (the rules' own
    reasons are ``rules.Reason``)."""

    BLITZ_EMPTY = "blitz_empty"
    NO_POST = "no_post"  # count: the Post stack asked for, from 1
    POST_EMPTY = "post_empty"
    NO_PILE_FOR = "no_pile_for"  # what: the card
    NOTHING_TO_FLIP = "nothing_to_flip"
    ALREADY_STUCK = "already_stuck"
    CAN_PLAY = "can_play"  # what: the card that can go to the centre
    CANNOT_STACK = "cannot_stack"  # what: the card; other: the Post stack's top
