"""Conformance cases for the game file, from spec/vectors/gamefile.json (spec/replay.md).

* ``valid``: a sealed ``file`` (hex) that a reader must accept whole, with what it holds:
  ``table``, ``epoch``, ``game``, ``digest``, the ``kept_by`` node of its seal and the number
  of ``events``.
* ``refused``: a ``file`` a reader must refuse, and the ``reason`` it must give
  (``gamefile.Refusal``); each is damaged in one way only.
* ``oversized``: a file of ``size`` bytes (zeros will do) refused before it is read (G-6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from ..replays.gamefile import GameFileError, check_game_file, read_game_file
from .case import Case


def _reads(vector: Mapping[str, Any]) -> str | None:
    found = read_game_file(bytes.fromhex(vector["file"]))
    held = {
        "table": found.table,
        "epoch": found.epoch.hex(),
        "game": found.game,
        "digest": found.digest.hex(),
        "events": len(found.events),
    }
    wrong = [key for key, value in held.items() if vector[key] != value]
    return f"reads another {', '.join(wrong)}" if wrong else None


def _kept_by(vector: Mapping[str, Any]) -> str | None:
    found = read_game_file(bytes.fromhex(vector["file"]))
    return None if found.kept_by.hex() == vector["kept_by"] else "names another keeper"


def _checks(vector: Mapping[str, Any]) -> str | None:
    try:
        checked = check_game_file(bytes.fromhex(vector["file"]))
    except GameFileError as error:
        return f"refused ({error.reason}): {error}"
    return None if checked.file.digest.hex() == vector["digest"] else "another digest"


def _refused(data: bytes, reason: str) -> str | None:
    try:
        check_game_file(data)
    except GameFileError as error:
        return None if error.reason == reason else f"refused {error.reason}, not {reason}"
    return "accepted"


def _oversized(vector: Mapping[str, Any]) -> str | None:
    return _refused(bytes(vector["size"]), vector["reason"])


def _valid_cases(vector: Mapping[str, Any]) -> list[Case]:
    name = f"valid: {vector.get('name', '?')}"
    checks: tuple[tuple[str, Callable[[Mapping[str, Any]], str | None]], ...] = (
        ("G-3", _reads),
        ("G-5", _kept_by),
        ("G-12", _checks),
    )
    return [Case(spec_id, name, partial(check, vector)) for spec_id, check in checks]


def cases(data: Mapping[str, Any]) -> list[Case]:
    found = [case for vector in data.get("valid", []) for case in _valid_cases(vector)]
    found += [
        Case(
            str(v.get("spec", "?")),
            f"refused: {v.get('name', '?')}",
            partial(_refused, bytes.fromhex(v["file"]), v["reason"]),
        )
        for v in data.get("refused", [])
    ]
    found += [
        Case(
            str(v.get("spec", "?")),
            f"oversized: {v.get('name', '?')}",
            partial(_oversized, v),
        )
        for v in data.get("oversized", [])
    ]
    return found
