"""Players leave a table of Blitz! until two or fewer are left, at each step of the deal and
during the game: the table never deals a game to fewer than three (F-2, F-57, spec/protocol.md
P-239), a dealt game plays on down to two (F-40), every node ends it alike, and no event of
the order ever raises (spec/faceoff.md F-57)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from dutchblitz.client.games import registry
from dutchblitz.client.state import ClientState
from dutchblitz.client.words import tell
from dutchblitz.node.notices import SessionNotices
from dutchblitz.protocol.games.faceoff import TAG
from dutchblitz.protocol.games.faceoff.state import MIN_FACEOFF_SEATS, Ending
from dutchblitz.protocol.games.registry import game_for
from dutchblitz.protocol.replica.effects import Delivered, LogEntry
from dutchblitz.protocol.table.records import ACCEPTED
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.messages import Body, Bye, Start
from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.formatted_text import to_plain_text

from tests.client.fakes import FakeSession
from tests.games.faceoff.tablerig import Rig

BYE, REMOVED = "bye", "removed"


def _leave(rig: Rig, seat: int, how: str) -> None:
    """``seat`` goes: by its goodbye, or removed by the first seat's SUSPECT and then dealt
    (or played) on without it by a START (spec/rules.md R-57)."""
    if how == BYE:
        rig.bye(seat)
        return
    rig.removed(seat, by=0)
    game = rig.game
    if game.phase in (Phase.DEALING, Phase.PLAYING) and game.away:
        rig.apply(rig.nodes[0], Start(game.target, game.post_stacking))


# (players, deal steps taken before they leave, seats that leave, how)
DEAL_CASES = [
    (3, 0, (2,), BYE),  # before any commitment: the CI failure's path
    (3, 1, (2,), BYE),  # every commitment in, no share yet
    (3, 2, (1,), BYE),  # every share in, no deal yet
    (4, 0, (3, 2), BYE),
    (4, 2, (1, 3), BYE),
    (3, 0, (2,), REMOVED),
    (3, 1, (2,), REMOVED),
    (4, 2, (2, 3), REMOVED),
    (4, 1, (1, 2, 3), BYE),  # one left alone
]


@pytest.mark.parametrize(("players", "steps", "leaving", "how"), DEAL_CASES)
def test_f57_p239_a_deal_left_with_two_ends_the_game_undealt(
    players: int, steps: int, leaving: tuple[int, ...], how: str
) -> None:
    """F-57, P-239: the deal never lays out a game of Blitz! for two; the game is over as
    it stands (no card won: every total 0, the table names the first seat of the tie), and
    another node applying the same log agrees."""
    rig = Rig(players=players, seed=steps)
    for _ in range(steps):
        rig.deal_step()
    for seat in leaving:
        _leave(rig, seat, how)
    game = rig.play()
    assert game.phase == Phase.OVER and game.table is None and game.results == []
    assert set(game.totals.values()) == {0} and game.winner == 0
    assert rig.replayed().public_form() == game.public_form()


def test_f57_a_deal_for_two_is_never_made_even_when_the_rest_come_in_later() -> None:
    """F-57: once ended short, the deal's late events are refused, not dealt: the START of
    a rematch for two is refused (F-2) and nothing raises."""
    rig = Rig(players=3)
    rig.bye(2)
    rig.play()
    for node in rig.nodes[:2]:
        rig.apply(node, Start(rig.game.target, rig.game.post_stacking, 1))
    assert rig.game.phase == Phase.OVER and rig.game.table is None


# (players, steps of play before they leave, seats that leave, how)
PLAY_CASES = [
    (3, 5, (2,), BYE),
    (4, 5, (3, 1), BYE),
    (4, 40, (0, 2), BYE),
    (3, 5, (1,), REMOVED),
    (4, 20, (2, 3), REMOVED),
]


def _into_the_game(players: int, steps: int) -> Rig:
    rig = Rig(players=players, seed=steps)
    while rig.game.phase == Phase.DEALING:
        assert rig.step()
    for _ in range(steps):
        rig.step()
    assert rig.game.phase == Phase.PLAYING
    return rig


@pytest.mark.parametrize(("players", "steps", "leaving", "how"), PLAY_CASES)
def test_f40_a_dealt_game_plays_on_with_two(
    players: int, steps: int, leaving: tuple[int, ...], how: str
) -> None:
    """F-40: a game dealt to three or more plays on when two are left, to its end, and
    every node ends it alike."""
    rig = _into_the_game(players, steps)
    for seat in leaving:
        _leave(rig, seat, how)
    game = rig.play()
    assert game.phase == Phase.OVER
    [result] = game.results
    assert set(result.scores) == set(range(players))
    staying = [seat for seat in range(players) if seat not in leaving]
    assert game.winner in staying
    assert rig.replayed().public_form() == game.public_form()


def test_f40_the_last_but_one_leaving_ends_the_game_deserted() -> None:
    """F-40, P-258: one player left at the table: the game ends `deserted`, and the table,
    with one member left, is a lobby again."""
    rig = _into_the_game(3, 5)
    rig.bye(0)
    rig.bye(2)
    game = rig.play()
    assert game.phase == Phase.LOBBY
    last = rig.game.last_table
    assert last is not None and last.game.ending is Ending.DESERTED
    assert rig.replayed().public_form() == game.public_form()


@pytest.mark.parametrize("tag", ["blitz", "dutch", "faceoff"])
def test_p239_every_game_deals_its_fewest_seats(tag: str) -> None:
    """P-239: a game's ``min_seats`` is a deal its rules lay out without raising, so the
    table, which never deals below it, never hands a game a deal it refuses."""
    rules = game_for(tag)
    seats = list(range(rules.min_seats))
    orders = {seat: list(rules.deck(seat)) for seat in seats}
    players = max(rules.min_seats, 2)  # a START seats two at least
    rules.deal(seats, orders, Start(1, True, 1), players, frozenset(seats))
    if tag == "faceoff":
        assert rules.min_seats == MIN_FACEOFF_SEATS


def test_f57_every_screen_says_the_game_ends_for_too_few() -> None:
    """F-57: the game over screen of a game ended undealt says why, and how to go on."""
    rig = Rig(players=3)
    rig.bye(2)
    rig.play()
    state = ClientState(FakeSession(rig.game), game=TAG, games=registry.words())
    state.refresh()
    shown = to_plain_text(registry.face_for(TAG).scores_screen(state))
    assert "Blitz! needs 3 players: the game ends." in shown
    assert "Waiting" not in shown


def _told(rig: Rig, me: int, feed: list[tuple[bytes, Body]]) -> list[str]:
    """The notices ``me``'s session gives for ``feed``, each applied to the rig in turn."""
    replica = SimpleNamespace(stable=rig.game, streams={}, ended=None)
    seating = SimpleNamespace(reloaded=[])
    seat = SimpleNamespace(replica=replica, node_id=rig.nodes[me], seating=seating)
    notices = SessionNotices("table", seat, game_for(TAG))  # type: ignore[arg-type]

    async def go() -> None:
        for index, (sender, body) in enumerate(feed):
            rig.apply(sender, body)
            if rig.game.phase == Phase.OVER:  # as the replica keeps a game that ended
                replica.ended = (0, b"", rig.game)
            entry = LogEntry(10_000 + index, sender, 10_000 + index, 0, body, ACCEPTED)
            notices.on_effect(Delivered(entry), live=True)

    asyncio.run(go())
    return [tell(n.told) for n in notices.take() if n.told is not None]


def test_f57_p239_every_node_is_told_the_game_ends_for_too_few() -> None:
    """F-57, P-239: the goodbye that leaves two in the deal ends the game, and each player
    still at the table is told why, never that someone won with 0 cards."""
    rig = Rig(players=3)
    rig.deal_step()
    rig.deal_step()
    rig.deal_step(seats=(0, 1))  # seat 2 leaves before its DEAL: two dealt
    said = _told(rig, 0, [(rig.nodes[2], Bye())])
    assert rig.game.phase == Phase.OVER
    assert "Blitz! (word face-offs) needs 3 players: the game ends" in said
    assert not any(" with 0 points" in line for line in said)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(3, 5),
    leaves=st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 30), st.sampled_from([BYE, REMOVED])),
        max_size=4,
    ),
)
def test_f40_f57_any_leaving_never_raises_and_every_node_agrees(
    players: int, leaves: list[tuple[int, int, str]]
) -> None:
    """F-40, F-57, P-239: players leave at any step, by goodbye or removal; no event of the
    order raises, the game ends (or plays on) alike on every node, and it is never laid
    out for fewer than three."""
    rig = Rig(players=players, seed=len(leaves))
    for seat, steps, how in leaves:
        for _ in range(steps):
            if rig.game.phase not in (Phase.DEALING, Phase.PLAYING) or not rig.step():
                break
        if seat < players and rig.present(seat) and seat != 0:
            _leave(rig, seat, how)
        table = rig.game.table
        assert table is None or len(table.seats) >= MIN_FACEOFF_SEATS
    rig.play()
    assert rig.game.phase in (Phase.OVER, Phase.LOBBY)
    assert rig.replayed().public_form() == rig.game.public_form()
