"""The words a Blitz! player reads: the screen's lines, its prompts and its help.

Kept here, not in client/words.py, so that the game's words travel with the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dutchblitz.protocol.games.faceoff import TITLE
from dutchblitz.protocol.games.faceoff.state import MIN_FACEOFF_SEATS, Ending, Mode, Phase
from dutchblitz.protocol.games.faceoff.views import CardFace, FaceoffView, TableView

from ...keymap import REMATCH
from . import keys

NO_CARD: Final = "no card yet"
LEFT: Final = "left"
HEADER: Final = ("player", "won", "top card", "category")
MODES: Final = {Mode.TYPED: "typed answers", Mode.SPOKEN: "spoken answers"}
ENDINGS: Final = {
    Ending.PILES_OUT: "Both draw piles are empty: the game is over.",
    Ending.DESERTED: "Too few players are left: the game is over.",
}
# F-57: the game ended before its deal, too few being left; a newcomer may sit down.
TOO_FEW: Final = f"Blitz! needs {MIN_FACEOFF_SEATS} players: the game ends."
SEAT_UP: Final = (
    f"Once {MIN_FACEOFF_SEATS} are seated (a newcomer may sit down now),"
    f" {REMATCH} asks for a new game."
)

HELP: Final = (
    f"{TITLE}: take turns to turn a card. When two top cards show the same",
    "symbol, those two face off: each names something of the category on the OTHER's",
    "card. The first right answer wins the other's top card; the loser's next card may",
    "start a new face-off (a cascade). After a Duel, the die's two symbols match too.",
    f"{keys.PILE_KEYS[0]}/{keys.PILE_KEYS[1]} turn a card from draw pile 1 or 2. "
    f"In a face-off type your answer: {keys.SEND} sends it,",
    f'{keys.GIVE_UP} gives up; spoken answers: {keys.CLAIM} says "I answered first". '
    f"{keys.CONTEST} contests an answer,",
    f"{keys.ACCEPT}/{keys.REFUSE} vote on it. A listed answer wins at once; another wins "
    "unless a vote refuses it.",
    "An answer said before in the game never wins. Most cards won wins the game.",
)


def who(view: TableView, names: Sequence[str], seat: int) -> str:
    return "you" if seat == view.seat else names[seat]


def whose(view: TableView, names: Sequence[str], seat: int) -> str:
    return "your" if seat == view.seat else f"{names[seat]}'s"


def symbol(face: CardFace | None) -> str:
    """A card's symbol, letter and shape, told apart without colour (F-4)."""
    return "--" if face is None else face.symbol


def title_line(view: TableView) -> str:
    return f" {TITLE}   {view.pack}   {MODES[view.mode]}"


def piles_line(view: TableView) -> str:
    left = "   ".join(f"pile {i + 1}: {n} left" for i, n in enumerate(view.draw_left))
    pair = "no Duel yet"
    if view.duel_pair is not None:
        pair = f"Duel: {view.duel_pair[0]} matches {view.duel_pair[1]}"
    return f" Draw {left}    {pair}"


def faceoff_head(view: TableView, names: Sequence[str], duel: FaceoffView, chain: int) -> str:
    """The face-off's banner: who against whom, and a cascade's length."""
    a, b = who(view, names, duel.a), who(view, names, duel.b)
    cascade = f"  CASCADE x{chain}" if chain > 1 else ("  CASCADE" if chain == 1 else "")
    return f"*** FACE-OFF: {a} against {b}{cascade} ***"


def must_answer(
    view: TableView, names: Sequence[str], seat: int, card: CardFace, owner: int | None
) -> str:
    """Which category ``seat`` must answer, and whose card it is on (F-18, F-36)."""
    on = "" if owner is None else f" ({whose(view, names, owner)} {card.symbol} card)"
    if seat == view.seat:
        return f"you answer: {card.category}{on}"
    return f"{names[seat]} answers: {card.category}{on}"


def tie_line(duel: FaceoffView) -> str:
    assert duel.tie_card is not None
    return f"Tie-break card {duel.tie_card.symbol}: both answer {duel.tie_card.category}"


def waiting_line(view: TableView, names: Sequence[str], duel: FaceoffView) -> str:
    """What waits for a contest, a window or a vote (F-27 to F-29)."""
    assert duel.claimant is not None
    author = who(view, names, duel.claimant)
    said = f'{author} said "{duel.text}"' if view.mode is Mode.TYPED else f"{author} answered first"
    if duel.voting:
        if keys.may_vote(view):
            return f"VOTE on it: {said}. {keys.ACCEPT} accept, {keys.REFUSE} refuse"
        return f"Vote on it: {said}. {duel.yes} accept, {duel.no} refuse so far"
    if view.mode is Mode.TYPED:
        said += " (not on the list)"
    if keys.may_contest(view):
        return f"{said}: {keys.CONTEST} to contest, or it wins in a moment"
    return f"{said}: it wins in a moment unless contested"


def answer_prompt(view: TableView, typed: str) -> str:
    """The line the player types on, or what to do instead."""
    if keys.typing(view):
        return f"> your answer: {typed}_"
    if keys.may_answer(view):
        claim, give_up = keys.CLAIM, keys.GIVE_UP
        return f"> say your answer aloud, then {claim}: I answered first ({give_up} gives up)"
    return ""


def turn_line(view: TableView, names: Sequence[str]) -> str:
    """Whose move it is when no face-off is on."""
    piles = f"{keys.PILE_KEYS[0]} or {keys.PILE_KEYS[1]}"
    if view.phase is Phase.TURN:
        if view.turn == view.seat:
            return f"Your turn: {piles} turns a card."
        return f"{names[view.turn]} turns a card."
    if view.phase is Phase.ROLL:
        return "A Duel! The die is rolling."
    if view.phase is Phase.TIE_DRAW and view.tie_drawer is not None:
        if view.tie_drawer == view.seat:
            return (
                f"A tie! You turn the tie-break card: {keys.PILE_KEYS[0]} or {keys.PILE_KEYS[1]}."
            )
        return f"A tie! {names[view.tie_drawer]} turns the tie-break card."
    return ""


def last_line(view: TableView, names: Sequence[str]) -> str:
    """Who won the last face-off, from whom, and with what."""
    if view.last is None:
        return ""
    winner, loser, answer = view.last
    with_what = f' with "{answer}"' if answer else ""
    if winner == view.seat:
        return f"You won {whose(view, names, loser)} card{with_what}."
    line = f"{who(view, names, winner)} won {whose(view, names, loser)} card{with_what}."
    return line[:1].upper() + line[1:]


def strangers_line(view: TableView, names: Sequence[str]) -> str:
    """Who was left out for playing another pack: answers are checked against one list."""
    if not view.strangers:
        return ""
    if view.seat is not None and view.active == frozenset({view.seat}):
        return "This table plays another pack of Blitz! than yours: you cannot play here."
    who_ = ", ".join(names[s] for s in sorted(view.strangers))
    return f"Left out, for playing another pack of Blitz! than this table's: {who_}."


def dropped_line(view: TableView, names: Sequence[str]) -> str:
    """What the vote refused in this face-off: the face-off goes on."""
    if view.dropped is None:
        return ""
    author, text = view.dropped
    said = f'"{text}"' if text else "the claim"
    return f"The vote refused {whose(view, names, author)} {said}: the face-off goes on."


def said_line(said: Sequence[str], width: int) -> str:
    """What was said in the game, as much as fits in ``width``, and how many more."""
    if not said:
        return "Said: nothing yet"
    head = f"Said ({len(said)}): "
    shown: list[str] = []
    for index, word in enumerate(said):
        rest = len(said) - index - 1
        tail = f", +{rest} more" if rest else ""
        if len(head) + len(", ".join([*shown, word])) + len(tail) > width:
            return head + ", ".join(shown) + f", +{len(said) - index} more"
        shown.append(word)
    return head + ", ".join(shown)


def ending_line(view: TableView, names: Sequence[str]) -> str:
    best = " and ".join(who(view, names, s) for s in view.winners) or "nobody"
    won = view.won[view.winners[0]] if view.winners else 0
    end = ENDINGS[view.ending] if view.ending is not None else ""
    return f"{end} Won by {best}, with {won} card{'s' if won != 1 else ''}."


# Why a move was refused (spec/faceoff.md F-44), as the player reads it.
REFUSALS: Final = {
    "game_over": "the game is over",
    "not_active": "you have left this game",
    "not_your_turn": "it is not your turn",
    "wrong_phase": "not now",
    "pile_empty": "that draw pile is empty: take the other",
    "not_on_top": "that card was turned already",
    "no_category_card": "that pile has only Duels left: take the other",
    "not_in_faceoff": "only the two players in the face-off answer",
    "wrong_mode": "this game's answers are spoken, not typed",
    "empty_answer": "type an answer first",
    "repeat": "that was said before in this game: try another",
    "pending": "an answer already waits: contest it, or wait",
    "nothing_pending": "nothing waits to be contested",
    "own_claim": "you cannot contest your own answer",
    "voting": "a vote is on: y accept, n refuse",
    "no_vote": "no vote is on",
    "already_voted": "you have voted already",
    "asked": "that card is being turned",
    "stale": "too late: the face-off moved on",
    "stale_window": "too late: that window has closed",
    "chains_open": "the table is still getting ready",
    "not_play_time": "the game has not started yet",
    "not_playing": "you are not playing in this game",
    "long_text": "that answer is too long",
}
# What each bot level does, said when l picks it in the lobby.
BOT_LEVELS: Final = {
    "easy": "easy bot: slow to answer, often stuck, sometimes answers off the category",
    "sharp": "sharp bot: quick to answer, rarely stuck, contests every doubtful answer",
}
HINTS: Final = {
    "empty": "type an answer first, then Enter",
    "not_now": "that key does nothing now (? for help)",
}


def refusal(code: str) -> str:
    """The words for a refusal code of the rules, or the code itself for another."""
    return REFUSALS.get(code, code.replace("_", " "))
