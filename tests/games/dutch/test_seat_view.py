"""A person's seat at a Dutch table (``DutchPlayer.seat_view`` and ``body``): what the node's
snapshot carries for its screen, and the moves its face makes, through the table's ``Game``
as real nodes run it (tablerig.py), with seat 0 played by keys instead of a bot."""

from __future__ import annotations

from dutchblitz.protocol.games.blitz.game import GAME as BLITZ_PLAYER
from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.moves import Discard, Draw, InitialPeek, Reason, Replace
from dutchblitz.protocol.games.dutch.player import RACE_HOLD_S
from dutchblitz.protocol.games.dutch.table import Stage
from dutchblitz.protocol.games.dutch.views import Did, Phase, SeatView
from dutchblitz.protocol.seat.deal_duties import deal_duties
from dutchblitz.protocol.table.player import ActRefusal
from dutchblitz.protocol.table.state import Phase as TablePhase
from dutchblitz.protocol.wire.messages import GameBody, Ready

from tests.games.dutch.tablerig import Rig

PLAYER = RULES  # the one game object: its seat part

PERSON = 0


class PersonRig(Rig):
    """Seat 0 sends its duties as every seat does, but its moves only when told."""

    def step(self, bots: bool = True) -> bool:
        moved = False
        for seat, node in enumerate(self.nodes):
            game = self.game
            if seat in game.still_looking():
                self.apply(node, Ready(True))
            for body in deal_duties(game, node, [], self.kept[seat], self._fresh(seat)):
                self.apply(node, body)
                moved = True
            if game.phase != TablePhase.PLAYING or seat not in game.players:
                continue
            for body in RULES.seat_duties(game.table, seat, self.secrets(seat)):
                self._send(seat, body)
                moved = True
            if bots and seat != PERSON and game.phase == TablePhase.PLAYING:
                move = RULES.seat_bot(
                    game.table, seat, self.secrets(seat), RULES.levels[self.level]
                )
                if move is not None:
                    self._send(seat, move)
                    moved = True
        return moved

    def settle(self, bots: bool = True) -> None:
        for _ in range(200):
            if not self.step(bots):
                return

    def view(self, seat: int = PERSON) -> SeatView:
        view = PLAYER.seat_view(self.table(), seat, self.secrets(seat))
        assert view is not None
        return view

    def press(self, move: object) -> GameBody | ActRefusal:
        body = PLAYER.body(self.table(), PERSON, move, self.game.round, self.secrets(PERSON))
        if isinstance(body, GameBody):
            self._send(PERSON, body)
        return body  # type: ignore[return-value]


def dealt() -> PersonRig:
    rig = PersonRig(players=3)
    rig.settle()
    assert rig.table().stage is Stage.PLAY
    return rig


def test_before_the_cards_are_dealt_a_move_waits_for_the_deal() -> None:
    rig = PersonRig(players=3)
    for _ in range(10):
        if rig.game.phase == TablePhase.PLAYING:
            break
        rig.step()
    table = rig.table()
    assert table.stage is not Stage.PLAY
    view = PLAYER.seat_view(table, PERSON, None)
    assert view is not None and view.round is None and view.stage == table.stage.value
    refused = PLAYER.body(table, PERSON, InitialPeek(0, 1), rig.game.round, None)
    assert refused == ActRefusal("not_play_time")


def test_a_person_s_peek_is_opened_to_that_seat_alone() -> None:
    rig = dealt()
    view = rig.view()
    assert view.round is not None and view.round.phase is Phase.PEEK
    assert view.seats == rig.table().seats
    assert all(card is None or card.face is None for card in view.round.mine.hand)
    assert isinstance(rig.press(InitialPeek(0, 1)), GameBody)
    rig.settle()
    mine = rig.view().round
    assert mine is not None
    assert [c.face is not None for c in mine.mine.hand if c is not None] == [1, 1, 0, 0]
    assert any(h.did is Did.PEEKED and h.seat == PERSON for h in rig.view().news)
    other = rig.view(rig.table().seats[1]).round
    assert other is not None
    assert all(c is None or c.face is None for c in other.players[PERSON].hand)
    assert mine.my_turn  # the first seat starts (D-7)


def test_a_refused_move_comes_back_with_the_rules_code_and_is_not_sent() -> None:
    rig = dealt()
    sent = len(rig.bodies)
    assert rig.press(Draw()) == ActRefusal(Reason.NOT_YOUR_TURN.value)  # the peeks come first
    assert rig.press("draw") == ActRefusal("bad_move")
    assert len(rig.bodies) == sent
    assert BLITZ_PLAYER.seat_view(rig.table(), PERSON, None) is None


def test_the_drawn_card_shows_to_its_drawer_only_and_the_race_holds_the_next_bot() -> None:
    rig = dealt()
    rig.press(InitialPeek(2, 3))
    rig.settle()
    assert isinstance(rig.press(Draw()), GameBody)
    rig.settle()
    mine = rig.view().round
    assert mine is not None and mine.drawn is not None and mine.drawn.face is not None
    theirs = rig.view(rig.table().seats[1]).round
    assert theirs is not None and theirs.drawn is not None and theirs.drawn.face is None
    assert rig.view().news[-1].did is Did.DREW and rig.view().news[-1].face == mine.drawn.face
    rig.press(Discard())
    rig.settle(bots=False)  # the discarded card is opened to all, with every seat's share
    shown = rig.view().round
    assert shown is not None and shown.window and shown.discard_top is not None
    assert shown.action is None  # this seed's card is no special card: the next seat draws
    assert RULES.race_hold(rig.table(), rig.table().seats[1]) == RACE_HOLD_S  # and waits
    assert RULES.race_hold(rig.table(), rig.table().seats[2]) == 0.0


def test_d41_a_drawn_card_is_decided_on_only_once_its_drawer_sees_it() -> None:
    """The other seats' sealed shares of the drawn card are not in yet: discarding it or
    putting it in place of a card is refused here, sends nothing, and the screen offers
    neither; once the shares are in, both are offered."""
    rig = dealt()
    rig.press(InitialPeek(2, 3))
    rig.settle()
    assert isinstance(rig.press(Draw()), GameBody)
    mine = rig.view().round
    assert mine is not None and mine.phase is Phase.DECIDE and mine.drawn is not None
    assert mine.drawn.face is None and mine.turning_over  # only the draw is in the log
    sent = len(rig.bodies)
    for move in (Discard(), Replace(0)):
        assert rig.press(move) == ActRefusal(Reason.FACE_NOT_OPEN.value)
    assert len(rig.bodies) == sent
    rig.settle(bots=False)
    seen = rig.view().round
    assert seen is not None and seen.drawn is not None and seen.drawn.face is not None
    assert not seen.turning_over
    assert isinstance(rig.press(Replace(0)), GameBody)
