"""What teaches and what warns: the help's opening, the first game's hint line, the
stalemate line. Pure functions of the client state, like screens.py.
"""

from __future__ import annotations

from dutchblitz.protocol.games.blitz.views import Source, TableView

from ...state import ClientState
from . import keymap

# The help's opening: the goal, how a round ends, the scoring (spec/rules.md ).
TEACHING = (
    " Goal: first to the target score. Race the others to build the centre piles,",
    " 1 up to 10 in one colour, from your Blitz pile, your Posts and your Wood pile.",
    " A round ends when a player empties their Blitz pile: Blitz! Each card of yours",
    " in the centre scores +1, each card left in your Blitz pile -2.",
)


def everyone_else_stuck(table: TableView, me: int) -> bool:
    """Whether I alone can end the wait: every other active player has called stuck."""
    mine = table.areas.get(me)
    others = [a for seat, a in table.areas.items() if seat != me and a.active]
    return bool(mine and mine.active and not mine.stuck and others) and all(a.stuck for a in others)


def stalemate_line(table: TableView, me: int) -> str:
    if not everyone_else_stuck(table, me):
        return ""
    # A stalemate turns only face-down hands, and the others may call stuck again at once:
    # without the count, a stalemate that happened looks like a key that did nothing.
    so_far = f" ({table.stalemates} so far)" if table.stalemates else ""
    return f" Everyone else is stuck: play, or press {keymap.STUCK} for a stalemate{so_far}."


def first_game_hint(state: ClientState, table: TableView, me: int) -> str:
    """The hint at the foot of the table, until this player's first card is played."""
    if state.played_a_card:
        return ""
    area = table.areas.get(me)
    if area is None or not area.active or area.stuck:
        return ""
    if area.centre_plays:
        play = area.centre_plays[0]
        source, slot, card = play.source, play.slot, play.card
        key = {Source.BLITZ: keymap.BLITZ_TO_CENTRE, Source.WOOD: keymap.WOOD_TO_CENTRE}.get(
            source, keymap.POST_KEYS[slot] if slot < len(keymap.POST_KEYS) else "?"
        )
        return f" Hint: your {card.label()} can go to the centre: press {key}."
    flip = "Space flips 3 cards from your hand"
    return f" Hint: nothing for the centre? {flip}; {keymap.STUCK}: stuck."
