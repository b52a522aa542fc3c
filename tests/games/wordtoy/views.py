"""What everyone may see of a round of word toy (nothing in it is hidden): ``WordView``
for the terminal's face, and the TV page's board (``TableGame.tv_board``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from dutchblitz.protocol.table.rules import Json

from tests.games.wordtoy.rules import Decided, Round, Said

TITLE: Final = "Word toy"


@dataclass(frozen=True, slots=True)
class Live:
    """The cards each table seat has won this round, as the table's frame reads them
    (``RoundRules.table_view``: the TV's "round +N")."""

    live: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class WordView:
    """A round as every player sees it; ``me`` is the viewer's game seat index (None: a
    spectator, the TV). ``seats`` maps a game seat index to its table seat."""

    seats: tuple[int, ...]
    me: int | None
    card: int  # from 0; ``cards`` once the round is over
    cards: int
    category: str  # "" once the round is over
    waiting: Said | None  # the answer that waits for objections or silence
    queued: tuple[Said, ...]  # the answers behind it
    won: tuple[int, ...]
    decided: tuple[Decided, ...]
    dropped: tuple[int, str, int] | None  # the last answer objected to: seat, text, by
    moves: int

    @property
    def over(self) -> bool:
        return self.card >= self.cards

    @property
    def mine_waits(self) -> bool:
        return any(said.seat == self.me for said in (self.waiting, *self.queued) if said)

    @property
    def may_object(self) -> bool:
        return self.me is not None and self.waiting is not None and self.waiting.seat != self.me


def view(state: Round, seats: Sequence[int], me: int | None) -> WordView:
    category = state.category
    return WordView(
        seats=tuple(seats),
        me=me,
        card=state.card,
        cards=len(state.cards),
        category="" if category is None else category.title,
        waiting=state.waiting(),
        queued=tuple(state.queue[1:]),
        won=tuple(state.won),
        decided=tuple(state.decided),
        dropped=state.dropped,
        moves=state.moves,
    )


# -- the TV page ------------------------------------------------------------------------

LEGEND: Final = (
    "Each card is a category: the first answer the others accept wins it. "
    "A listed answer wins at once; anyone may object to another."
)


def _card(label: str, value: str, mark: str, colour: str = "") -> Json:
    """A card in the page's vocabulary: ``value`` big, ``mark`` small under it."""
    return {"label": label, "value": value, "mark": mark, "colour": colour}


def _headline(shown: WordView, names: Sequence[str]) -> str:
    if shown.over:
        return "Round over"
    line = f"Card {shown.card + 1} of {shown.cards}: {shown.category.upper()}"
    if shown.waiting is not None:
        line += f'  ·  {names[shown.waiting.seat]}: "{shown.waiting.text}"?'
    return line


def board(shown: WordView, names: Mapping[int, str]) -> Mapping[str, Json]:
    """The category in the centre, each player's cards won and waiting answer, the card
    and the waiting answer as the headline."""
    by_index = [names.get(seat, f"seat {seat + 1}") for seat in shown.seats]
    current: list[Json] = []
    if not shown.over:
        number = str(shown.card + 1)
        current = [{"top": _card(shown.category, number, shown.category, "yellow"), "count": 1}]
    decided: list[Json] = [
        {"top": _card(f"{d.category}: {d.text or 'nobody'}", str(number), d.text or "nobody",
                      "green" if d.seat is not None else ""), "count": 1}
        for number, d in enumerate(shown.decided, 1)
    ]  # fmt: skip
    said = {s.seat: s.text for s in (shown.waiting, *shown.queued) if s is not None}
    areas: dict[str, Json] = {}
    for index, seat in enumerate(shown.seats):
        places: list[Json] = [
            {"key": "won", "caption": f"won {shown.won[index]}", "top": None,
             "count": shown.won[index]},
        ]  # fmt: skip
        if index in said:
            top = _card(said[index], "?", said[index])
            places.append({"key": "said", "caption": "says", "top": top, "count": 1})
        areas[str(seat)] = {"status": "answers" if index in said else "", "places": places}
    return {
        "centre": [
            {"key": "category", "caption": "Category", "piles": current, "done": 0},
            {
                "key": "decided",
                "caption": "Cards decided",
                "piles": decided,
                "done": len(shown.decided),
            },
        ],
        "areas": areas,
        "headline": _headline(shown, by_index),
        "legend": LEGEND,
        "unit": "cards",  # a score is the cards won
    }
