"""The bots a node hosts, written down in its state directory (issue #15, 9)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dutchblitz.node.seat.bots import BOTS_FILE, KeptBot, load, save
from dutchblitz.protocol.games.blitz.bots import LEVELS


def test_none_written_is_none_kept(tmp_path: Path) -> None:
    assert load(tmp_path, LEVELS) == []


def test_what_is_saved_is_loaded_in_number_order(tmp_path: Path) -> None:
    save(tmp_path, [KeptBot(2, "fast"), KeptBot(1, "easy")])
    assert load(tmp_path, LEVELS) == [KeptBot(1, "easy"), KeptBot(2, "fast")]
    save(tmp_path, [])
    assert load(tmp_path, LEVELS) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("not json", []),
        ('{"bots": [{"number": 1}]}', []),
        ('{"bots": [{"number": 1, "level": "warp"}]}', []),  # no such level
        ('{"bots": [{"number": 0, "level": "easy"}]}', []),
        ('{"bots": [{"number": 1, "level": "easy"}, {"number": 1, "level": "fast"}]}', []),
        ('{"bots": [{"number": 3, "level": "normal"}]}', [KeptBot(3, "normal")]),
    ],
)
def test_a_damaged_list_seats_no_bot_it_cannot_trust(
    tmp_path: Path, text: str, kept: list[KeptBot]
) -> None:
    (tmp_path / BOTS_FILE).write_text(text, encoding="utf-8")
    assert load(tmp_path, LEVELS) == kept
