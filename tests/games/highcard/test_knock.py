"""A game's own GAME bodies reach its rules (spec/protocol.md P-230 to P-232): high card
with a knock, through the table, the seeded simulator and real nodes over ZeroMQ."""

from __future__ import annotations

from pathlib import Path

import pytest
from dutchblitz.node.store.archive import Archive, ArchiveError
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.replays.gamefile import check_game_file
from dutchblitz.protocol.replays.steps import Replay
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, GameBody, Play

from tests.games.highcard.rules import KNOCKING, RULES, Knock, KnockRefused, Round, knock
from tests.games.highcard.test_highcard import first_result
from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all
from tests.rigs.sim import Simulation

A, B, C = (bytes([n]) * 16 for n in (1, 2, 3))
registry.register(KNOCKING)  # a founding ADMIT names it: the table takes its rules from there


def _playing() -> Game:
    """A knocking high card game in its first round, seats 0 and 1 dealt."""
    game = Game(rules=KNOCKING)
    game.apply(A, Admit(A, 1, KNOCKING.tag))
    game.apply(A, Admit(B, 1))
    game.phase, game.round, game.players = Phase.PLAYING, 1, (0, 1)
    tops = {seat: KNOCKING.deck(seat)[seat] for seat in (0, 1)}
    game.table = Round((0, 1), tops)
    # What the fair deal would have left (the round's record takes it at the end).
    game.joint = bytes(32)
    game.commits = {seat: (bytes(32), bytes(32)) for seat in (0, 1)}
    game.visible = {seat: (tops[seat].code,) for seat in (0, 1)}
    return game


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (GameBody(RULES.game_id + 1, knock(1)), "wrong_game"),
        (GameBody(KNOCKING.game_id, b"knack\x00\x00\x00\x01"), "bad_body"),
        (GameBody(KNOCKING.game_id, knock(1)[:-1]), "bad_body"),
        (GameBody(KNOCKING.game_id, knock(2)), "wrong_round"),
        (GameBody(KNOCKING.game_id, knock(0)), "wrong_round"),
    ],
)
def test_the_table_checks_a_game_body_before_the_game_reads_it(body: GameBody, reason: str) -> None:
    """P-230 in its order; P-232: a knock tagged with another game's id is never read."""
    game = _playing()
    before = game.public_form()
    outcome = game.apply(B, body)
    assert outcome.refusal == reason
    assert game.refused == 1 and game.public_form()[1:12] == before[1:12]


def test_a_knock_ends_the_round_and_a_late_one_is_for_a_round_gone() -> None:
    """P-231: an accepted GAME body is the sender's move, kept in the record; it ends the round."""
    game = _playing()
    assert game.apply(B, GameBody(KNOCKING.game_id, knock(1))).refusal is None
    assert game.round == 2 and game.results[0].blitz_by == 1
    assert game.records[1].steps[-1] == (1, Knock(1))  # the knock is in the round's record
    assert game.apply(A, GameBody(KNOCKING.game_id, knock(1))).refusal == "not_in_dealing"


def test_the_game_refuses_a_second_knock_naming_the_first() -> None:
    """P-231: the game's own refusal code, and the seat that won the race."""
    state = Round((0, 1), {}, [1])
    refusal = KNOCKING.apply(state, Knock(0))
    assert refusal is not None and (refusal.reason, refusal.by) == ("knocked", 1)
    assert KNOCKING.apply(Round((0, 1), {}), Knock(2)) == KnockRefused("not_dealt")


@pytest.mark.parametrize("rules", [RULES, registry.game_for(registry.DEFAULT_GAME)])
def test_a_game_with_no_bodies_of_its_own_refuses_every_payload(rules: object) -> None:
    game = _playing()
    game.rules = rules  # type: ignore[assignment]
    outcome = game.apply(B, GameBody(game.rules.game_id, knock(1)))
    assert outcome.refusal == "bad_body"


def test_a_game_body_outside_play_is_refused_by_phase() -> None:
    game = Game(rules=KNOCKING)
    game.apply(A, Admit(A, 1, KNOCKING.tag))
    assert game.apply(A, GameBody(KNOCKING.game_id, knock(0))).refusal == "not_in_lobby"
    assert game.apply(A, Play(0, 3, 0, 0, -1, -1, 0)).refusal == "not_in_lobby"  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_knocks_survive_the_simulator_faults(seed: int) -> None:
    registry.register(KNOCKING)
    summary = Simulation(seed, game=KNOCKING.tag).run()  # raises on any broken invariant
    assert int(summary["rounds"]) >= 1  # type: ignore[call-overload]


@pytest.mark.lan
@pytest.mark.timeout(180)
def test_three_nodes_knock_their_way_to_the_end(tmp_path: Path) -> None:
    players, target = 3, 2
    ports = free_ports(players)
    extra = ("--game", KNOCKING.tag, "--target", str(target))
    nodes = [
        BlitzNode(
            f"kn{i}",
            tmp_path / f"node{i}",
            loopback_args(i, ports, players, *extra),
            entry="tests.games.highcard.node",
        )
        for i in range(players)
    ]
    try:
        for node in nodes:
            node.wait_for_text("game over")
        firsts = [first_result(node) for node in nodes]
        nodes[0].wait_for_line(lambda _: _kept(nodes[0].state_dir) is not None, "a kept game")
        kept = _kept(nodes[0].state_dir)
        kept_rules = _kept_rules(nodes[0].state_dir)
    finally:
        stop_all(nodes)
    first = firsts[0]
    for node, result in zip(nodes, firsts, strict=True):
        for key in AGREED:
            assert result[key] == first[key], f"{node.label} differs in {key}"
        assert "Traceback" not in node.output()
    assert first["rules"] == KNOCKING.tag and first["over"]
    # Every round was ended by a knock: the knocker is the round's ender.
    assert all(r["blitz_by"] is not None for r in first["rounds"]), first["rounds"]
    # The archive's game file names its game in its log (P-233): checked and replayed
    # with that game's rules, not Dutch Blitz's.
    assert kept is not None
    checked = check_game_file(kept)
    assert checked.final.rules is KNOCKING and checked.final.winner is not None
    assert Replay(checked).stops
    assert KNOCKING.tag in kept_rules  # what blitz-node games lists (P-233)


def _kept_rules(state_dir: Path) -> list[str]:
    archive = Archive(state_dir)
    try:
        return [game.rules for game in archive.games()]
    finally:
        archive.close()


def _kept(state_dir: Path) -> bytes | None:
    """The file of the first game the node's archive kept, once kept."""
    archive = Archive(state_dir)
    try:
        found = archive.file_of(1)
    except ArchiveError:
        return None  # the node is writing it
    finally:
        archive.close()
    return None if found is None else found[1]
