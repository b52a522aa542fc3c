"""Conformance cases for the rules, from spec/vectors/rules.json.

The file holds ``cases``, each a deal and the moves made on it:

* ``id``: the rule of spec/rules.md the case shows (``R-14``), and a ``name``;
* ``players``, and ``orders``: per seat, the 40 card codes of its deck order, top
  first, ``null`` for a card this table does not know (a replica's deal);
* optionally ``post_stacking`` (true unless false) and ``inactive``: seats marked
  inactive before the first move;
* ``moves``: each an object with its class name in ``type`` (``CentrePlay``,
  ``PostPlay``, ``WoodFlip``, ``WoodTurn``, ``StuckCall``) and its fields, ``seat``
  included; cards are codes, ``null`` is none, a source is ``BLITZ``, ``WOOD``,
  ``POST`` or a number;
* ``expect``: per move, ``"ok"``, a refusal reason, or ``{"reason": .., "by": seat}``
  for a refusal that names a seat;
* ``public_digest`` after every move, in hex, and optionally ``full_digest`` and the
  round ``scores`` per seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...conformance.case import Case
from .cards import DECK_SIZE, MAX_PLAYERS, Card, card_from_code
from .digest import full_digest, public_digest
from .moves import CentrePlay, Move, PostPlay, Source, StuckCall, WoodFlip, WoodTurn
from .rules import Refusal, apply
from .scoring import round_scores
from .state import DealError, Slot, Table, deal

OK = "ok"
Outcome = tuple[str, int | None]  # ("ok", None) or (reason, by)


class VectorError(ValueError):
    """A vector that does not say what it means: the file's fault, not the engine's."""


def cases(data: Mapping[str, Any]) -> list[Case]:
    return [_case(raw) for raw in data["cases"]]


def _case(raw: Mapping[str, Any]) -> Case:
    return Case(str(raw.get("id", "R-?")), str(raw.get("name", "")), lambda: run(raw))


def run(raw: Mapping[str, Any]) -> str | None:
    """Deal, play every move, and compare: None if all is as expected, else what is not."""
    try:
        table = table_of(raw)
        moves = [move_of(item) for item in raw["moves"]]
        wanted = [outcome_of(item) for item in raw["expect"]]
    except (KeyError, TypeError, ValueError) as error:  # VectorError and DealError too
        return f"malformed vector: {type(error).__name__}: {error}"
    if len(moves) != len(wanted):
        return f"{len(moves)} moves but {len(wanted)} expectations"
    for index, (move, want) in enumerate(zip(moves, wanted, strict=True)):
        got = _outcome(apply(table, move))
        if got != want:
            return f"move {index} ({raw['moves'][index]}): expected {want}, got {got}"
    return _compare_end(raw, table)


def _compare_end(raw: Mapping[str, Any], table: Table) -> str | None:
    found: dict[str, object] = {"public_digest": public_digest(table).hex()}
    if "full_digest" in raw:
        found["full_digest"] = full_digest(table).hex()
    if "scores" in raw:
        scores = round_scores(table)
        found["scores"] = [scores[seat] for seat in table.seats]
    for key, got in found.items():
        if got != raw[key]:
            return f"{key}: expected {raw[key]}, got {got}"
    return None


# -- JSON -> deal, moves and outcomes ------------------------------------------------------


def table_of(raw: Mapping[str, Any]) -> Table:
    players = _int(raw["players"])
    orders = raw["orders"]
    if not isinstance(orders, list) or len(orders) != players:
        raise VectorError(f"orders must list one deck order per seat, {players} in all")
    dealt = {seat: [_slot(code) for code in order] for seat, order in enumerate(orders)}
    try:
        table = deal(range(players), dealt, post_stacking=bool(raw.get("post_stacking", True)))
    except DealError as error:
        raise VectorError(f"the deal breaks the rules: {error}") from error
    for seat in raw.get("inactive", []):
        table.areas[_int(seat)].active = False
    return table


def move_of(item: Mapping[str, Any]) -> Move:
    kind = item["type"]
    seat = _int(item["seat"])
    if kind == "CentrePlay":
        source, slot, played = _source(item["source"]), _int(item["slot"]), _card(item["card"])
        return CentrePlay(seat, source, slot, played, _maybe_int(item["pile"]), _shows(item))
    if kind == "PostPlay":
        source, played, slot = _source(item["source"]), _card(item["card"]), _int(item["slot"])
        return PostPlay(seat, source, played, slot, _shows(item))
    if kind == "WoodFlip":
        return WoodFlip(seat, _shows(item))  # type: ignore[arg-type]  # null: a bad flip
    if kind == "WoodTurn":
        return WoodTurn(seat)
    if kind == "StuckCall":
        return StuckCall(seat)
    raise VectorError(f"unknown move type {kind!r}")


def outcome_of(item: Any) -> Outcome:
    if isinstance(item, str):
        return (item, None)
    if isinstance(item, Mapping) and isinstance(item.get("reason"), str):
        by = item.get("by")
        return (item["reason"], None if by is None else _int(by))
    raise VectorError(f"an expectation is 'ok', a reason, or {{reason, by}}: {item!r}")


def _outcome(refusal: Refusal | None) -> Outcome:
    return (OK, None) if refusal is None else (refusal.reason.value, refusal.by)


def _shows(item: Mapping[str, Any]) -> Card | None:
    return None if item["shows"] is None else _card(item["shows"])


def _source(value: Any) -> Source:
    if isinstance(value, str):
        return Source[value]
    # A number passes as it is, so a vector can show a source that does not exist.
    return _int(value)  # type: ignore[return-value]


def _slot(code: Any) -> Slot:
    return None if code is None else _card(code)


def _card(code: Any) -> Card:
    number = _int(code)
    if not 0 <= number < MAX_PLAYERS * DECK_SIZE:
        raise VectorError(f"card code {number} is out of range")
    return card_from_code(number)


def _maybe_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise VectorError(f"expected a whole number, not {value!r}")
    return value
