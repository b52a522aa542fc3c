"""A seat's table finding, lobby merge and end wait, time given (protocol/seat/finding.py)."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.seat.finding import (
    END_WAIT_S,
    AskAgain,
    Finish,
    JoinSmaller,
    Seating,
    StartAfresh,
    TableFinder,
)

MINE, SMALLER, LARGER = b"\x05" * 16, b"\x01" * 16, b"\x09" * 16
A, B = b"a" * 16, b"b" * 16


def finder() -> TableFinder:
    return TableFinder(suspect_after=1.0, heartbeat_every=0.1)


def seating(*, lobby: bool = True, member: bool = True, rejoining: bool = False) -> Seating:
    return Seating(MINE, lobby, member, rejoining)


@pytest.mark.parametrize(
    ("lobby", "live", "steps"),
    [
        (True, [MINE, SMALLER], [JoinSmaller(SMALLER)]),
        (True, [MINE, LARGER], []),  # the larger epoch comes to us instead
        (True, [LARGER, SMALLER, b"\x03" * 16], [JoinSmaller(SMALLER)]),
        (False, [MINE, SMALLER], []),  # a game is on: never merged
    ],
)
def test_the_lobby_merge_joins_the_smallest_live_epoch(
    lobby: bool, live: list[bytes], steps: list[object]
) -> None:
    assert finder().consider(10.0, seating(lobby=lobby), live) == steps


def test_a_join_nobody_answers_founds_a_table_after_its_patience() -> None:
    table = finder()
    table.began(0.0, found=False)
    waiting = seating(lobby=False, member=False, rejoining=True)
    assert table.patience == 4.0
    assert table.consider(3.9, waiting, []) == []
    assert table.consider(4.1, waiting, [MINE]) == []  # the table is heard: wait on
    assert table.consider(4.1, waiting, []) == [StartAfresh(restored=False)]


def test_a_member_stops_waiting_to_join() -> None:
    table = finder()
    table.began(0.0, found=False)
    assert table.consider(1.0, seating(lobby=False), []) == []
    assert table.joining_since is None
    assert table.consider(9.0, seating(lobby=False), []) == []


def test_a_founded_table_waits_for_nobody() -> None:
    table = finder()
    table.began(0.0, found=True)
    assert table.consider(100.0, seating(lobby=False, member=True), []) == []


def test_a_restored_log_nobody_answers_is_given_up() -> None:
    table = finder()
    table.restored(0.0)
    assert table.consider(0.5, seating(lobby=False), []) == []
    assert table.consider(4.5, seating(lobby=False), []) == [StartAfresh(restored=True)]
    assert table.restored_at is None


def test_a_restored_log_whose_table_answers_is_kept() -> None:
    table = finder()
    table.restored(0.0)
    assert table.consider(0.5, seating(lobby=False), [MINE]) == []
    assert table.consider(9.0, seating(lobby=False), []) == []


def test_a_restored_seat_no_longer_seated_asks_again_once() -> None:
    table = finder()
    table.restored(0.0)
    gone = seating(lobby=False, member=False)
    assert table.consider(0.5, gone, [MINE]) == []
    assert table.consider(1.0, gone, [MINE]) == [AskAgain()]
    assert table.joining_since == 1.0
    assert table.consider(1.5, gone, [MINE]) == []


def test_a_restored_seat_whose_goodbye_becomes_final_late_asks_again() -> None:
    """P-273: still a member when the wait ends, it waits on; once its own BYE (or its
    removal) is final in the restored log, it asks to sit down again."""
    table = finder()
    table.restored(0.0)
    assert table.consider(1.0, seating(lobby=False), [MINE]) == []
    assert table.consider(5.0, seating(lobby=False), [MINE]) == []
    gone = seating(lobby=False, member=False)
    assert table.consider(6.0, gone, [MINE]) == [AskAgain()]
    assert table.consider(6.5, gone, [MINE]) == []


def test_a_seat_already_asking_is_not_asked_again() -> None:
    table = finder()
    table.restored(0.0)
    assert table.consider(1.0, seating(lobby=False, member=False, rejoining=True), [MINE]) == []


def test_a_seat_asking_that_its_log_seats_and_its_goodbye_unseats_asks_again() -> None:
    """P-273 (the people's seed 37): asking when the wait ends, the restored log then seats
    it (the ask is over), and its own BYE, final later, unseats it: it asks again."""
    table = finder()
    table.restored(0.0)
    asking = seating(lobby=False, member=False, rejoining=True)
    assert table.consider(1.0, asking, [MINE]) == []
    assert table.consider(3.0, seating(lobby=False), [MINE]) == []
    gone = seating(lobby=False, member=False)
    assert table.consider(6.0, gone, [MINE]) == [AskAgain()]
    assert table.consider(6.5, gone, [MINE]) == []


def test_the_end_waits_for_every_other_player_to_report_it() -> None:
    table = finder()
    table.game_ended(10.0)
    assert table.finish(10.1, 50, [A, B]) is None
    table.heard_progress(A, 50)
    table.heard_progress(B, 49)
    assert table.finish(10.3, 50, [A, B]) is None
    table.heard_progress(B, 51)
    table.heard_progress(B, 12)  # a late heartbeat never takes progress back
    assert table.finish(10.15, 50, [A, B]) is None  # one more heartbeat period first
    assert table.finish(10.3, 50, [A, B]) == Finish(confirmed=True)


def test_the_end_wait_gives_up_on_silent_players() -> None:
    table = finder()
    assert table.finish(0.0, 50, [A]) is None  # the end is first seen here
    assert table.finish(END_WAIT_S, 50, [A]) is None
    assert table.finish(END_WAIT_S + 0.01, 50, [A]) == Finish(confirmed=False)


def test_a_rematch_and_a_fresh_log_forget_the_end() -> None:
    table = finder()
    table.game_ended(1.0)
    table.game_again()
    assert table.ended_at is None
    table.heard_progress(A, 9)
    table.began(2.0, found=True)
    assert table.progress == {}
