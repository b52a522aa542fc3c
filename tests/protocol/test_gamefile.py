"""A finished game's file (spec/replay.md): what it holds, and every way it is refused.

A sound file checks (G-6 to G-12) and replays; a truncated, changed, re-ordered, cut
short, re-sealed or newer file is refused with one line, and nothing else is raised.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import msgpack
import pytest
from dutchblitz.protocol.limits import MAX_GAME_FILE
from dutchblitz.protocol.replays.gamefile import (
    FORMAT,
    VERSION,
    GameFileError,
    check_game_file,
    make_game_file,
    read_game_file,
)
from dutchblitz.protocol.replays.steps import Replay
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.messages import Start
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.protocol.finished_games import checked_file, finished, replay_of
from tests.rigs.sim import TABLE

OUTSIDER = Signer(hashlib.blake2b(b"not at the table", digest_size=32).digest())


def _reseal(events: list[bytes] | tuple[bytes, ...], *, signer: Signer | None = None,
            digest: bytes | None = None) -> bytes:  # fmt: skip
    game = finished()
    return make_game_file(
        TABLE,
        game.epoch,
        game.game,
        game.digest if digest is None else digest,
        list(events),
        signer or game.signers[1],
    )


def _refused(data: bytes) -> str:
    with pytest.raises(GameFileError) as caught:
        check_game_file(data)
    said = str(caught.value)
    assert said and "\n" not in said and "Traceback" not in said
    return said


def test_a_sound_file_checks_and_holds_the_whole_game() -> None:
    """A file as written (G-1, G-3, G-4, G-5) holds the log (G-7, G-10) and checks whole."""
    game = finished()
    checked = check_game_file(game.data)
    assert checked.file.table == TABLE
    assert checked.file.game == 1
    assert checked.file.events == game.events
    assert len(checked.entries) == len(game.events)
    assert checked.final.phase == Phase.OVER and checked.final.winner is not None
    assert isinstance(checked.entries[checked.start].body, Start)
    assert {node for node, _ in checked.file.keys} == set(checked.final.members)


def test_a_rematch_file_starts_at_its_own_start() -> None:
    """G-10: a rematch's file holds the table's log from its first event; the game is the
    one begun by the last START."""
    checked = check_game_file(finished(rematches=1).data)
    assert checked.file.game == 2
    assert checked.final.game_number == 2
    first = check_game_file(finished().data)
    assert checked.start > first.start
    assert isinstance(checked.entries[checked.start].body, Start)


def test_a_file_resealed_by_another_still_checks_and_says_who_kept_it() -> None:
    """G-5: whoever kept the file (another player, or a node that only watched), it is the
    same game, and the seal's key names the keeper."""
    game = finished()
    for keeper in (game.signers[2], OUTSIDER):
        checked = check_game_file(_reseal(game.events, signer=keeper))
        assert checked.file.kept_by == keeper.node_id
        assert checked.final.public_form() == check_game_file(game.data).final.public_form()


def _outer(data: bytes) -> list[object]:
    outer = msgpack.unpackb(data)
    assert isinstance(outer, list)
    return outer


def _with_version(version: int) -> bytes:
    outer = _outer(finished().data)
    return msgpack.packb([FORMAT, version, outer[2], outer[3]])


def _swap(events: tuple[bytes, ...]) -> list[bytes]:
    swapped = list(events)
    at = len(swapped) // 2
    swapped[at], swapped[at + 1] = swapped[at + 1], swapped[at]
    return swapped


def _event_changed(events: tuple[bytes, ...]) -> list[bytes]:
    changed = list(events)
    at = len(changed) // 2
    raw = bytearray(changed[at])
    raw[20] ^= 0x01  # inside the signed part of the envelope
    changed[at] = bytes(raw)
    return changed


CASES = {
    "truncated": lambda g: g.data[: len(g.data) // 2],
    "truncated by one byte": lambda g: g.data[:-1],
    "empty": lambda g: b"",
    "a byte changed": lambda g: g.data[:500] + bytes([g.data[500] ^ 0x40]) + g.data[501:],
    "not a game file": lambda g: msgpack.packb(["something else", 1]),
    "a newer format": lambda g: _with_version(VERSION + 1),
    "an event changed, resealed": lambda g: _reseal(_event_changed(g.events)),
    "two events swapped, resealed": lambda g: _reseal(_swap(g.events)),
    "the last events dropped, resealed": lambda g: _reseal(g.events[:-5]),
    "the first event dropped, resealed": lambda g: _reseal(g.events[1:]),
    "an event twice, resealed": lambda g: _reseal((*g.events, g.events[-1])),
    "another digest, resealed": lambda g: _reseal(g.events, digest=bytes(16)),
}
# The requirement of spec/replay.md each case breaks.
BREAKS = {
    "truncated": "G-1",
    "truncated by one byte": "G-1",
    "empty": "G-1",
    "a byte changed": "G-4",
    "not a game file": "G-1",
    "a newer format": "G-2",
    "an event changed, resealed": "G-8",
    "two events swapped, resealed": "G-12",
    "the last events dropped, resealed": "G-11",
    "the first event dropped, resealed": "G-10",
    "an event twice, resealed": "G-13",
    "another digest, resealed": "G-12",
}
SAID = {
    "a newer format": "newer format",
    "a byte changed": "seal",
    "another digest, resealed": "digest",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_file_is_refused_with_one_line(case: str) -> None:
    """Each check refuses what breaks it (``BREAKS``), in one line (spec/replay.md)."""
    assert BREAKS[case]
    said = _refused(CASES[case](finished()))
    assert SAID.get(case, "") in said


def test_a_file_too_large_is_refused_before_it_is_read() -> None:
    """G-6: a size above MAX_GAME_FILE is refused at once."""
    assert "larger" in _refused(b"\x00" * (MAX_GAME_FILE + 1))


def test_a_key_that_is_not_its_player_is_refused() -> None:
    """G-9: each key of the file must be the key of the node it names (G-8 checks events)."""
    game = finished()
    outer = _outer(game.data)
    body = msgpack.unpackb(outer[2])
    body["keys"][0][1] = OUTSIDER.public_key
    packed = msgpack.packb(body, use_bin_type=True)
    signer = game.signers[1]
    from dutchblitz.protocol.replays.gamefile import SEAL_CONTEXT

    data = msgpack.packb([FORMAT, VERSION, packed, signer.auth(SEAL_CONTEXT + packed)])
    assert "key" in _refused(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_change_or_cut_is_refused_never_raised_otherwise(data: st.DataObject) -> None:
    """Whatever happens to the bytes, reading ends in the game or in one line."""
    whole = finished().data
    at = data.draw(st.integers(0, len(whole) - 1))
    if data.draw(st.booleans()):
        broken = whole[:at]
    else:
        broken = whole[:at] + bytes([whole[at] ^ data.draw(st.integers(1, 255))]) + whole[at + 1 :]
    _refused(broken)


def test_reading_alone_checks_the_seal_but_not_the_game() -> None:
    """G-4: the seal covers every byte of the body."""
    found = read_game_file(finished().data)
    assert found.kept_by == finished().signers[0].node_id
    assert found.digest == finished().digest


# -- the replay -----------------------------------------------------------------------------


def test_each_round_has_a_stop_at_its_deal() -> None:
    replay = replay_of(finished(rematches=1).data)
    final = replay.checked.final
    assert sorted(replay.round_starts) == [r.round - final.rounds_before for r in final.results]
    for number, stop in replay.round_starts.items():
        view = replay.at(stop)
        assert view.phase == Phase.PLAYING and view.round == number
    assert replay.at(len(replay.stops) - 1).phase == Phase.OVER


def test_stepping_back_shows_what_stepping_forward_showed() -> None:
    replay = replay_of(finished().data)
    forward = [replay.at(stop, 1) for stop in range(len(replay.stops))]
    backward = [replay.at(stop, 1) for stop in reversed(range(len(replay.stops)))]
    assert forward == backward[::-1]


def test_a_seat_view_knows_its_own_hidden_cards_and_nobody_elses() -> None:
    """The public view hides every face-down card; a seat's view knows its own, from its
    reveal, and still not the others' (spec/rules.md R-44)."""
    replay = replay_of(finished().data)
    stop = min(replay.round_starts.values())
    public = replay.at(stop)
    assert public.table is not None
    for area in public.table.areas.values():
        assert all(card is None for card in area.blitz[:-1])
    for seat in replay.players:
        own = replay.at(stop, seat)
        assert own.table is not None
        for other, area in own.table.areas.items():
            known = [card is not None for card in area.blitz[:-1]]
            assert all(known) if other == seat else not any(known)
        cards = replay.seat_cards(stop, seat)
        assert cards is not None and cards.hand and None not in cards.hand
    assert public == replay.at(stop)


def test_every_requirement_of_the_game_file_is_named_by_a_test() -> None:
    """spec/replay.md: ids numbered once without gaps, one per requirement, each tested."""
    root = Path(__file__).resolve().parents[2]
    spec = (root / "spec" / "replay.md").read_text(encoding="utf-8")
    ids = re.findall(r"\[(G-\d+)\]", spec)
    assert ids == [f"G-{n}" for n in range(1, len(ids) + 1)]
    for line in spec.splitlines():
        if re.search(r"(?<!\")\b(MUST|SHALL)\b(?!\")", line):
            assert len(re.findall(r"\[G-\d+\]", line)) == 1, line
    named: set[str] = set()
    for path in (root / "tests").rglob("*.py"):
        named |= set(re.findall(r"\bG-\d+\b", path.read_text(encoding="utf-8")))
    assert set(ids) <= named, sorted(set(ids) - named)


def test_the_public_replay_never_shows_a_face_down_card() -> None:
    """No leaks: at every stop of the public view, each Blitz pile under its top is hidden,
    and only a seat's own view knows its hand (issue 16, "No leaks")."""
    replay = replay_of(finished(rematches=1).data)
    for stop in range(len(replay.stops)):
        table = replay.at(stop).table
        if table is None:
            continue
        for area in table.areas.values():
            assert all(card is None for card in area.blitz[:-1]), stop


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from([None, 0, 1, 2])), max_size=8))
def test_any_path_of_jumps_and_views_shows_what_a_fresh_replay_shows(
    path: list[tuple[int, int | None]],
) -> None:
    """Jumping about and switching views (the replay keeps one game and steps it on) shows
    at each stop exactly what a replay opened there fresh would. Every replay here is a new
    ``Replay`` of the one checked file (checking a file is tested above; done for every
    replay it took most of this test's time)."""
    checked = checked_file(rematches=1)
    travelled = Replay(checked)
    for stop, seat in path:
        stop %= len(travelled.stops)
        assert travelled.at(stop, seat) == Replay(checked).at(stop, seat)
