"""A finished game of Dutch, played again (``blitz-node replay``): a stop after each
player's move (``TableGame.moves``), never at the deal's keys, shuffles and shares; each stop
shows the public table (D-42), with no face but those open to all, until the reveal
shows every hand; and a seat's view holds no Dutch Blitz hidden cards to show."""

from __future__ import annotations

import functools

import pytest
from dutchblitz.node.replaying import ReplaySession
from dutchblitz.protocol.games.dutch.views import SeatView
from dutchblitz.protocol.replays.gamefile import sealed_game
from dutchblitz.protocol.table.state import Phase

from tests.rigs.dutchsim import DutchSimulation
from tests.rigs.toygroup import toy_group

pytestmark = pytest.mark.timeout(120)
SEED = 5


@functools.cache
def _session() -> tuple[ReplaySession, int]:
    """A sealed game of four bots (the stand-in group, as the simulator's sweep), replayed;
    and how many moves its last round took."""
    with toy_group():
        sim = DutchSimulation(SEED, "none")
        sim.run()
        node = sim.nodes[0]
        data = sealed_game(node.replica, sim.signers[node.node_id])
        assert data is not None
        session = ReplaySession.of(data, "dutch")
        last = node.replica.stable.last_table  # the last round's table: its moves
        assert last is not None
    return session, int(last.moves)


def _views(session: ReplaySession) -> list[SeatView]:
    views = []
    with toy_group():
        for stop in range(session.stops):
            session.go(stop)
            view = session.snapshot().seat_view
            if isinstance(view, SeatView):
                views.append(view)
    return views


def test_a_replay_of_dutch_stops_after_each_move() -> None:
    session, moves = _session()
    assert moves > 10
    assert session.stops >= moves  # a stop for each move, and the round's start and end
    assert session.stops < 2 * moves + 10  # but none for the deal's own bodies


def test_each_stop_shows_the_public_table_and_the_end_shows_every_hand() -> None:
    session, _ = _session()
    views = _views(session)
    assert views and all(view.round is None or view.round.me is None for view in views)
    played = [view.round for view in views if view.round is not None]
    for shown in played:
        if shown.phase.value != "over":
            for player in shown.players:
                for card in player.hand:
                    assert card is None or card.face is None or card.face_up  # D-42
    assert played[-1].phase.value == "over"
    assert all(c is None or c.face is not None for p in played[-1].players for c in p.hand)


def test_a_seat_s_view_has_no_dutch_blitz_hidden_cards_to_show() -> None:
    session, _ = _session()
    with toy_group():
        session.go(session.stops // 2)
        session.next_view()  # the first player's own view
        assert session.view is not None
        assert session.hidden() is None
        assert session.snapshot().game.phase in (Phase.PLAYING, Phase.DEALING, Phase.OVER)
