"""Cheats every node finds alike, from the ordered log alone (spec/dutch-deal.md M-34, M-39):
each test plays a table with one seat cheating, then replays the same log on a fresh node
and finds the same flag there."""

from __future__ import annotations

from dataclasses import replace

from dutchblitz.protocol.games.dutch.state import Phase as Phase_
from dutchblitz.protocol.games.dutch.table import DutchTable, Stage
from dutchblitz.protocol.games.dutch.wire import GAME_ID, SealedShareMessage, decode, encode
from dutchblitz.protocol.table.state import FlagKind, Phase
from dutchblitz.protocol.wire.messages import GameBody

from tests.games.dutch.tablerig import Rig


def _in_play(rig: Rig) -> DutchTable:
    for _ in range(500):
        table = rig.game.table
        playing = isinstance(table, DutchTable) and table.stage is Stage.PLAY
        if playing and table.round is not None and table.round.phase is Phase_.DRAW:
            return table
        rig.step()
    raise AssertionError("never in play")


def _mismatches(flags: list) -> list[tuple[int, FlagKind]]:  # type: ignore[type-arg]
    return [(f.seat, f.kind) for f in flags if f.kind is FlagKind.MISMATCH]


def test_m39_a_body_of_dutch_that_does_not_read_is_flagged_on_every_node() -> None:
    """M-39, M-23."""
    rig = Rig(seed=21)
    _in_play(rig)
    number = rig.game.round
    garbage = GameBody(GAME_ID, b"\x93\x0b\x01\xc1")  # msgpack's never-used byte
    rig.apply(rig.nodes[1], garbage)
    assert rig.game.refused == 1
    assert _mismatches(rig.game.flags) == [(1, FlagKind.MISMATCH)]
    assert "bad_message" in rig.game.flags[0].detail and "malformed" in rig.game.flags[0].detail
    assert rig.game.round == number  # the round goes on
    game = rig.play()
    assert game.phase == Phase.OVER
    other = rig.replayed()
    assert other.flags == game.flags and other.public_form() == game.public_form()


def test_m39_a_body_from_a_seat_not_dealt_or_for_another_game_is_only_refused() -> None:
    """M-39: another game's id is `wrong_game`, and a lobby has no round to flag."""
    rig = Rig(seed=22)
    _in_play(rig)
    outcome = rig.game.apply(rig.nodes[2], GameBody(GAME_ID + 1, b"\x00"))
    assert outcome.refusal == "wrong_game" and rig.game.flags == []


def test_m26_m34_a_false_sealed_share_is_flagged_on_every_node() -> None:
    """M-26, M-34: every node checks a sealed share's proof on arrival; a false one names
    its sender, and its true share, sent again, lets the round go on."""
    done: list[int] = []

    def falsify(seat: int, body: GameBody) -> GameBody:
        payload = decode(body.payload)
        message = payload.message
        if seat == 1 and isinstance(message, SealedShareMessage) and not done:
            done.append(seat)
            lie = replace(message.sealed, b=message.sealed.a)
            return GameBody(GAME_ID, encode(replace(payload, message=replace(message, sealed=lie))))
        return body

    rig = Rig(seed=23, tamper=falsify)
    game = rig.play()
    assert done and game.phase == Phase.OVER
    assert _mismatches(game.flags) == [(1, FlagKind.MISMATCH)]
    assert "bad_share" in game.flags[0].detail and "sealed" in game.flags[0].detail
    assert rig.replayed().flags == game.flags
