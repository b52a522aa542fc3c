"""A player who leaves a round of Dutch in play (spec/dutch.md D-36, spec/dutch-deal.md M-27,
M-28, M-35, M-37, M-38): with a goodbye, its HANDOVER lets the round go on, its turns passed
over and its cards counted; with none (a crash, a removal), the round ends unscored."""

from __future__ import annotations

from dataclasses import replace
from random import Random
from types import SimpleNamespace

from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.state import Ending
from dutchblitz.protocol.games.dutch.state import Phase as Phase_
from dutchblitz.protocol.games.dutch.table import DutchTable, Stage
from dutchblitz.protocol.games.dutch.wire import (
    GAME_ID,
    HandoverMessage,
    Message,
    Payload,
    decode,
    encode,
)
from dutchblitz.protocol.seat.duties import Steward, Wishes
from dutchblitz.protocol.seat.game_duties import GameDuties
from dutchblitz.protocol.table.state import FlagKind, Phase
from dutchblitz.protocol.wire.messages import Bye, GameBody

from tests.games.dutch.tablerig import Rig


def _message(body: GameBody) -> Message:
    return decode(body.payload).message


def _body(round_number: int, message: Message) -> GameBody:
    return GameBody(GAME_ID, encode(Payload(round_number, message)))


def _until(rig: Rig, phase: Phase_, turns: int = 0) -> DutchTable:
    """Step the rig until round 1 is in play at ``phase`` with nothing waiting."""
    for _ in range(500):
        table = rig.game.table
        if (
            isinstance(table, DutchTable)
            and table.stage is Stage.PLAY
            and table.round is not None
            and table.round.phase is phase
            and table.round.turns >= turns
            and not table.queue
        ):
            return table
        rig.step()
    raise AssertionError("never reached")


def _finish_round(rig: Rig, number: int) -> DutchTable:
    """Play on until round ``number`` is over; its table as it ended."""
    for _ in range(2000):
        if rig.game.round != number or rig.game.phase == Phase.OVER:
            break
        rig.step()
    if rig.game.phase == Phase.OVER and rig.game.round == number:
        return rig.table()
    return rig.tables[-1]


def test_m37_m38_d36_a_player_who_says_goodbye_is_passed_over_and_their_cards_count() -> None:
    """M-37, M-38, D-36."""
    rig = Rig(seed=12)
    table = _until(rig, Phase_.DRAW, turns=2)
    leaver = next(s for s in range(4) if s != table.round.turn)  # type: ignore[union-attr]
    rig.goodbye(leaver)
    table = rig.table()
    assert table.stage is Stage.PLAY and leaver in table.left and leaver in table.deal.handovers
    assert table.round is not None and leaver not in table.round.active
    number = rig.game.round
    ended = _finish_round(rig, number)
    assert ended.round is not None and ended.round.ending is not Ending.STRANDED
    assert ended.score is not None and ended.stage is Stage.DONE
    result = rig.game.results[0]
    assert result.scores == dict(zip(ended.seats, ended.score.scores, strict=True))
    # its cards were revealed and counted like everyone's (D-30)
    assert all(ended.round.faces[t] is not None for t in ended.round.hands[leaver] if t is not None)
    assert [(f.seat, f.kind) for f in rig.game.flags] == [(leaver, FlagKind.UNAUDITED)]
    assert 0 not in [len(ended.deal.audits)] and leaver not in ended.deal.audits  # owes no AUDIT
    # the others play on, the next round without it
    assert rig.game.round == number + 1 or rig.game.phase == Phase.OVER


def test_m37_d36_a_leaver_holding_a_drawn_card_discards_it_face_up() -> None:
    """M-37, D-36: the drawn card waits to be opened to all, the leaver's share from its
    HANDOVER, then goes face up on the discard pile."""
    rig = Rig(seed=13)
    table = _until(rig, Phase_.DECIDE)
    assert table.round is not None and table.round.drawn is not None
    leaver, drawn = table.round.turn, table.round.drawn
    rig.goodbye(leaver)
    table = rig.table()
    assert table.queue and table.wanted() == (drawn,)
    assert leaver in table.deal.shares_of(drawn)  # its share is its handover's
    for _ in range(3):
        rig.step()
    table = rig.table()
    assert table.round is not None and drawn in table.round.discard
    assert table.round.faces[drawn] is not None and table.round.turn != leaver
    ended = _finish_round(rig, 1)
    assert ended.score is not None


def test_m28_m35_a_player_removed_without_a_goodbye_strands_the_round() -> None:
    """M-28, M-35: a crash or a removal hands nothing over; the round ends unscored, and a
    HANDOVER that comes after it is refused."""
    rig = Rig(seed=14)
    table = _until(rig, Phase_.DRAW, turns=1)
    number = rig.game.round
    late = RULES.seat_farewell(table, 2, rig.secrets(2))
    rig.goodbye(2, farewell=False)
    assert rig.game.round == number + 1 and rig.game.results[-1].scores == {s: 0 for s in range(4)}
    assert rig.tables[-1].round is not None
    assert rig.tables[-1].round.ending is Ending.STRANDED and rig.tables[-1].score is None
    assert rig.game.apply(rig.nodes[2], late[0]).refusal == "not_present"
    refused = rig.tables[-1].take(2, _message(late[0]), number)  # a return cannot undo it
    assert refused is not None and refused.reason == "not_play_time"


def test_m37_a_handover_out_of_play_or_twice_is_refused() -> None:
    """M-37: only while the cards are in play, and once."""
    rig = Rig(seed=15)
    table = _until(rig, Phase_.DRAW, turns=1)
    number = rig.game.round
    handover = _message(RULES.seat_farewell(table, 1, rig.secrets(1))[0])
    keyed = DutchTable(table.seats, table.binding)
    refused = keyed.take(1, handover, number)
    assert refused is not None and refused.reason == "not_play_time"
    assert table.take(1, handover, number) is None
    assert table.take(1, handover, number).reason == "already_left"  # type: ignore[union-attr]
    assert RULES.seat_farewell(table, 1, rig.secrets(1)) == []


def test_m27_a_false_handover_is_flagged_and_a_goodbye_after_it_strands_the_round() -> None:
    """M-27, M-28."""

    def falsify(seat: int, body: GameBody) -> GameBody:
        message = _message(body)
        if isinstance(message, HandoverMessage):
            shares = list(message.shares)
            shares[7] = shares[8]
            return _body(decode(body.payload).round, replace(message, shares=tuple(shares)))
        return body

    rig = Rig(seed=16, tamper=falsify)
    _until(rig, Phase_.DRAW, turns=1)
    number = rig.game.round
    rig.goodbye(3)
    assert [(f.seat, f.kind) for f in rig.game.flags if f.kind is FlagKind.MISMATCH] == [
        (3, FlagKind.MISMATCH)
    ]
    assert "bad_share" in rig.game.flags[0].detail
    assert rig.game.round == number + 1
    assert rig.tables[-1].round is not None and rig.tables[-1].round.ending is Ending.STRANDED


def test_m35_m21_one_who_leaves_in_the_audit_owes_none_and_the_shuffles_after_it_replay() -> None:
    """M-35, M-21."""
    rig = Rig(seed=17)
    for _ in range(2000):
        table = rig.game.table
        if isinstance(table, DutchTable) and table.stage is Stage.AUDIT:
            break
        rig.step()
    table = rig.table()
    assert RULES.seat_farewell(table, 0, rig.secrets(0)) == []  # nothing to hand over
    rig.goodbye(0)
    while table.stage is not Stage.DONE:
        assert rig.step()
    assert table.cheats == [] and sorted(table.deal.audits) == [1, 2, 3]
    assert [(f.seat, f.kind) for f in rig.game.flags] == [(0, FlagKind.UNAUDITED)]


def test_m37_a_leaving_steward_sends_the_handover_before_its_bye() -> None:
    """M-37: the node's leaving path (``Steward.deal_duties(reveals_only=True)``, then BYE)
    sends the game's farewell; the table takes it, and the round goes on after the BYE."""
    rig = Rig(seed=18)
    _until(rig, Phase_.DRAW, turns=1)
    seat, sent = 1, []
    node = rig.nodes[seat]
    steward = Steward(node, Wishes("bot1"), None, lambda _: Random(0), lambda *_: None, sent.append)
    steward.secrets = dict(rig.kept[seat])
    steward.game = GameDuties(node, steward.secrets)
    replica = SimpleNamespace(stable=rig.game, pending_own=list, signer=rig.signers[seat])
    steward.deal_duties(replica, reveals_only=True)  # type: ignore[arg-type]
    assert [type(_message(b)) for b in sent if isinstance(b, GameBody)] == [HandoverMessage]
    for body in [*sent, Bye()]:
        assert rig.game.apply(node, body).accepted
    table = rig.table()
    assert table.stage is Stage.PLAY and seat in table.deal.handovers
    assert _finish_round(rig, 1).score is not None
