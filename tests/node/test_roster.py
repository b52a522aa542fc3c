"""The roster: which keys a seat lets in, on open and private tables, before and after START."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from dutchblitz.node.net.roster import Roster, RosterStats, Source
from dutchblitz.node.net.transport import TableAuthenticator, _RosterCallback
from dutchblitz.node.store.tablesocket import TABLE_SOCKET_FILE, remember, remembered
from dutchblitz.protocol.wire.auth import Signer
from zmq.utils import z85

pytestmark = pytest.mark.timeout(10)

ANN, BOB, CAT, DAN, EVE = (Signer(bytes([n]) * 32) for n in range(1, 6))


def test_a_key_offered_with_another_nodes_id_is_refused_and_counted() -> None:
    """P-135."""
    roster = Roster()
    assert not roster.learn(BOB.node_id, ANN.public_key, Source.HELLO)
    assert not roster.learn(BOB.node_id, b"short", Source.HELLO)
    assert roster.keys == {}
    assert roster.stats == RosterStats(mismatched=2)
    assert not roster.allows(BOB.node_id)


def test_a_stranger_is_refused_by_zap_and_counted() -> None:
    roster = Roster()
    roster.learn(ANN.node_id, ANN.public_key, Source.ADVERT)
    assert roster.allows_curve(ANN.curve_public)
    assert not roster.allows_curve(BOB.curve_public)
    assert roster.node_of_curve(ANN.curve_public) == ANN.node_id
    assert roster.stats.refused == 1


@pytest.mark.parametrize(
    ("source", "open_table", "private_table"),
    [
        (Source.LOCAL, True, True),
        (Source.PAKE, True, True),
        (Source.HELLO, True, True),  # on a private table: vouched for by a member let in
        (Source.DOOR, True, False),
        (Source.ADVERT, True, False),
    ],
)
def test_who_gets_in_depends_on_where_the_key_came_from(
    source: Source, open_table: bool, private_table: bool
) -> None:
    for private, expected in ((False, open_table), (True, private_table)):
        roster = Roster(private=private)
        roster.learn(BOB.node_id, BOB.public_key, source)
        assert roster.allows(BOB.node_id) is expected
        assert roster.allows_curve(BOB.curve_public) is expected


def test_a_private_table_lets_in_an_advertised_key_once_the_passphrase_proves_it() -> None:
    roster = Roster(private=True)
    roster.learn(BOB.node_id, BOB.public_key, Source.ADVERT)
    assert not roster.allows(BOB.node_id)
    roster.learn(BOB.node_id, BOB.public_key, Source.PAKE)
    assert roster.allows(BOB.node_id)


def test_once_the_game_starts_only_the_seated_players_get_in() -> None:
    roster = Roster()
    roster.learn(ANN.node_id, ANN.public_key, Source.LOCAL)
    for signer in (BOB, CAT):
        roster.learn(signer.node_id, signer.public_key, Source.HELLO)
    roster.seat_only([ANN.node_id, BOB.node_id, DAN.node_id])
    assert roster.started
    assert roster.allowed == {ANN.node_id, BOB.node_id}
    # A lobby guest, not seated, still connects, but only to watch (P-216).
    assert roster.allows_curve(CAT.curve_public)
    assert roster.may_watch(CAT.node_id) and not roster.allows(CAT.node_id)
    assert not roster.allows_curve(EVE.curve_public)  # never learnt: not even to watch
    # A seated player learnt only now (or coming back with the same key) gets in.
    roster.learn(DAN.node_id, DAN.public_key, Source.ADVERT)
    assert roster.allows(DAN.node_id)
    roster.reopen()
    assert roster.allowed == {ANN.node_id, BOB.node_id, CAT.node_id, DAN.node_id}


def test_listeners_hear_each_new_key_once() -> None:
    roster = Roster()
    heard: list[bytes] = []
    roster.listeners.append(lambda node, key: heard.append(node))
    roster.learn(BOB.node_id, BOB.public_key, Source.ADVERT)
    roster.learn(BOB.node_id, BOB.public_key, Source.HELLO)
    assert heard == [BOB.node_id]
    assert roster.stats.learnt == 1


def test_the_zap_handler_names_a_connection_by_the_keys_node_id() -> None:
    roster = Roster()
    roster.learn(BOB.node_id, BOB.public_key, Source.DOOR)
    authenticator = TableAuthenticator.__new__(TableAuthenticator)
    authenticator.roster = roster
    assert authenticator.curve_user_id(BOB.curve_public) == BOB.node_id.hex()
    assert authenticator.curve_user_id(CAT.curve_public) == ""
    callback = _RosterCallback(roster)
    assert callback.callback("blitz-table", z85.encode(BOB.curve_public))
    assert not callback.callback("blitz-table", z85.encode(CAT.curve_public))
    assert not callback.callback("blitz-table", b"not z85!")


def test_a_restarted_node_remembers_its_table_port_and_the_keys_it_let_in(tmp_path: Path) -> None:
    roster = Roster(private=True)
    roster.learn(ANN.node_id, ANN.public_key, Source.LOCAL)
    roster.learn(BOB.node_id, BOB.public_key, Source.PAKE)
    roster.learn(CAT.node_id, CAT.public_key, Source.ADVERT)  # learnt, never let in
    transport = SimpleNamespace(roster=roster, endpoint="tcp://127.0.0.1:4567")
    remember(tmp_path, transport)  # type: ignore[arg-type]
    port, keys = remembered(tmp_path)
    assert port == 4567
    assert keys == {ANN.node_id: ANN.public_key, BOB.node_id: BOB.public_key}


@pytest.mark.parametrize(
    "text", ["", "{", "[]", '{"port": "x", "keys": {}}', '{"port": 1, "keys": {"zz": "00"}}']
)
def test_a_damaged_memory_of_the_table_socket_is_no_memory(tmp_path: Path, text: str) -> None:
    (tmp_path / TABLE_SOCKET_FILE).write_text(text)
    port, keys = remembered(tmp_path)
    assert keys == {} or port == 0
    assert remembered(tmp_path / "nowhere") == (0, {})
