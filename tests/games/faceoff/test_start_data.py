"""Blitz!'s data in the table's START (spec/faceoff.md F-33, F-47; spec/protocol.md P-292 to
P-294): a node whose pack differs from the START's is told so in one line naming both short
digests and what to do, its seat is left out on every node, and the others play on."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from dutchblitz.client.games import registry
from dutchblitz.client.notices import NOTICE_INDENT, NoticeBoard
from dutchblitz.node.api import News, Notice, NoticeKind
from dutchblitz.node.notices import SessionNotices
from dutchblitz.protocol.games.faceoff import TAG, TITLE
from dutchblitz.protocol.games.faceoff.host import GAME
from dutchblitz.protocol.games.faceoff.pack import table_digest as digest
from dutchblitz.protocol.games.faceoff.table import FaceoffTable
from dutchblitz.protocol.games.faceoff.wire import GAME_ID, Chain, Payload, decode, encode
from dutchblitz.protocol.replica.effects import Delivered, LogEntry
from dutchblitz.protocol.table.records import ACCEPTED
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Body, GameBody, Ready, Start

from tests.games.faceoff.tablerig import Rig

OTHER = bytes.fromhex("ee" * 32)  # another pack's digest: no node of this version holds it
NODES = (bytes(range(16)), bytes(range(16, 32)), bytes(range(32, 48)))


def _lobby() -> Game:
    game = Game(rules=GAME)
    game.apply(NODES[0], Admit(NODES[0], 1, TAG))
    for node in NODES[1:]:
        game.apply(NODES[0], Admit(node, 1))
    for node in NODES:
        game.apply(node, Ready(True))
    return game


def _session(game: Game, me: int) -> SessionNotices:
    """``me``'s session's notices at ``game``."""
    replica = SimpleNamespace(stable=game, streams={}, ended=None)
    seat = SimpleNamespace(replica=replica, node_id=NODES[me], seating=SimpleNamespace(reloaded=[]))
    return SessionNotices("kitchen", seat, GAME)  # type: ignore[arg-type]


def _told(notices: SessionNotices, feed: list[tuple[bytes, Body]]) -> list[Notice]:
    """The notices the session gives for ``feed``, each applied to its game in turn."""
    game = notices.seat.replica.stable  # type: ignore[union-attr]

    async def go() -> None:
        for index, (sender, body) in enumerate(feed):
            outcome = game.apply(sender, body)
            assert outcome.accepted, outcome
            entry = LogEntry(10_000 + index, sender, 10_000 + index, 0, body, ACCEPTED)
            notices.on_effect(Delivered(entry), live=True)

    asyncio.run(go())
    return notices.take()


def _notices(game: Game, me: int, feed: list[tuple[bytes, Body]]) -> list[Notice]:
    return _told(_session(game, me), feed)


def test_p294_f33_a_node_of_other_data_is_told_once_in_one_line() -> None:
    """P-294, F-33: the START names other Blitz! data: one alarm, naming the table's digest
    and ours, short; a later START of the same game (R-57) tells nothing more."""
    game = _lobby()
    session = _session(game, 1)
    said = _told(session, [(NODES[0], Start(1, True, 1, None, OTHER))])
    assert [n.kind for n in said] == [NoticeKind.ALARM]
    told = said[0].told
    assert told is not None and told.news == News.OTHER_DATA
    assert (told.what, told.names) == (TITLE, ("ee" * 4, digest().hex()[:8]))
    game.away = {2}  # a player away: the deal waits for it until a START goes on without
    assert _told(session, [(NODES[0], Start(1, True, 1, None, OTHER))]) == []
    assert game.away == set()  # that START was taken: it dealt on without seat 2


@pytest.mark.parametrize("columns", [80, 100, 200])
def test_p294_the_line_names_both_digests_and_what_to_do_and_fits(columns: int) -> None:
    """P-294: the one line says the table plays other Blitz! word data, both short digests
    and to run the same version; at 80 columns too, in the notice's room."""
    said = _notices(_lobby(), 1, [(NODES[0], Start(1, True, 1, None, OTHER))])
    board = NoticeBoard(lambda: 0.0)
    text = board.worded(said[0], registry.words()[TAG], columns).text
    assert "Blitz! word data" in text and "ee" * 4 in text and digest().hex()[:8] in text
    assert "version" in text and "\n" not in text
    assert len(text) <= columns - NOTICE_INDENT


@pytest.mark.parametrize("data", [None, "ours"])
def test_p294_a_start_of_our_data_tells_nothing(data: str | None) -> None:
    """P-294: the same data is no news; a START with none (for a game that has data) is."""
    body = Start(1, True, 1, None, digest() if data else None)
    said = _notices(_lobby(), 2, [(NODES[0], body)])
    assert [n.told.news for n in said if n.told is not None] == ([] if data else [News.OTHER_DATA])


@dataclass
class ForeignSeat(Rig):
    """A table where seat ``foreign``'s node holds another pack: its chain names it (F-47)."""

    foreign: int = 1

    def apply(self, node: bytes, body: Body) -> None:
        if node == self.nodes[self.foreign] and isinstance(body, GameBody):
            sent = decode(body.payload)
            if isinstance(sent.message, Chain):
                chain = Chain(OTHER, sent.message.end)
                body = GameBody(GAME_ID, encode(Payload(sent.round, chain)))
        super().apply(node, body)


def test_f47_p294_the_seat_of_other_data_is_left_out_and_the_others_play_to_the_end() -> None:
    """F-47, P-293: the START carries the starter's data and decides nothing; the seat whose
    chain names another pack is left out alike on every node, and the others play on to the
    game's end."""
    rig = ForeignSeat(players=4, seed=3)
    game = rig.play()
    assert game.phase == Phase.OVER
    last = game.last_table if game.table is None else game.table
    assert isinstance(last, FaceoffTable) and last.strangers == {1}
    [result] = game.results
    assert game.winner in (0, 2, 3) and result.scores[1] == 0
    assert rig.replayed().public_form() == game.public_form()
