"""Dutch played through the table (spec/dutch-deal.md section 8): the deal with no dealer in
GAME bodies, every seat's duties, the queue of moves waiting for a card, the reveal, the
audit, the flags a cheat raises on the table, and what each node may know."""

from __future__ import annotations

from dataclasses import replace

from dutchblitz.protocol.games.dutch.cards import CARDS_IN_DECK
from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.game import handed_on
from dutchblitz.protocol.games.dutch.mind import derived, faces, key_secret
from dutchblitz.protocol.games.dutch.moves import Draw
from dutchblitz.protocol.games.dutch.state import Ending
from dutchblitz.protocol.games.dutch.state import Phase as Phase_
from dutchblitz.protocol.games.dutch.table import DutchTable, Stage
from dutchblitz.protocol.games.dutch.wire import (
    GAME_ID,
    Message,
    Payload,
    SealedShareMessage,
    SharesMessage,
    decode,
    encode,
)
from dutchblitz.protocol.table.masked import elgamal
from dutchblitz.protocol.table.masked.checks import (
    KeyShareMessage,
    ShareMessage,
    ShuffleMessage,
)
from dutchblitz.protocol.table.masked.seal import SealedShare, SealProof
from dutchblitz.protocol.table.rules import TableGame
from dutchblitz.protocol.table.state import FlagKind, Phase
from dutchblitz.protocol.wire.messages import GameBody

from tests.games.dutch.tablerig import Rig


def _message(body: GameBody) -> Message:
    return decode(body.payload).message


def _body(round_number: int, message: Message) -> GameBody:
    return GameBody(GAME_ID, encode(Payload(round_number, message)))


def test_m29_m30_m34_a_game_of_dutch_is_played_to_its_end_through_the_table() -> None:
    """M-29, M-30, M-34."""
    rig = Rig(seed=1)
    assert isinstance(RULES, TableGame) and RULES.owes_bodies and RULES.rounds_option
    game = rig.play()
    assert game.phase == Phase.OVER and game.results and game.flags == []
    table = rig.table()
    assert (
        table.stage is Stage.DONE
        and len(table.deal.shuffles) == 4
        and sorted(table.deal.audits)
        == [
            0,
            1,
            2,
            3,
        ]
    )
    assert table.round is not None and table.round.ending in (Ending.DUTCH, Ending.PILE_OUT)
    assert game.results[0].scores == dict(zip(table.seats, table.scores(), strict=True))
    assert len(table.binding) == 16 and game.refused == 0


def test_m30_keys_come_first_then_the_shuffles_in_seat_order() -> None:
    """M-30."""
    rig = Rig(seed=2)
    rig.play()
    messages = [(seat, _message(body)) for seat, body in rig.bodies]
    kinds = [type(message) for _, message in messages[:8]]
    assert kinds == [KeyShareMessage] * 4 + [ShuffleMessage] * 4
    assert [seat for seat, _ in messages[4:8]] == [0, 1, 2, 3]


def _false_sealed() -> SealedShare:
    point = elgamal.public_key(elgamal.key_secret(bytes(32)))
    return SealedShare(point, point, SealProof(bytes(32), bytes(32), bytes(32)))


def _dealt(seed: int) -> Rig:
    """A rig whose round has just been dealt: keys and shuffles in, nobody has peeked."""
    rig = Rig(seed=seed)
    while not (isinstance(rig.game.table, DutchTable) and rig.game.table.stage is Stage.PLAY):
        rig.step()
    return rig


def test_m30_a_shuffle_out_of_turn_and_a_second_key_are_refused() -> None:
    """M-30."""
    rig = Rig(seed=3)
    while not (isinstance(rig.game.table, DutchTable) and rig.game.table.stage is Stage.SHUFFLE):
        rig.step()
    table, number = rig.table(), rig.game.round
    key = next(_message(b) for s, b in rig.bodies if s == 2)
    assert table.take(2, key, number) is not None
    assert rig.game.apply(rig.nodes[2], _body(number, key)).refusal == "not_key_time"
    assert table.deal.joint is not None
    deck = elgamal.shuffle(elgamal.initial_deck(CARDS_IN_DECK), table.deal.joint, bytes(32)).deck
    assert rig.game.apply(rig.nodes[2], _body(number, ShuffleMessage(2, deck))).refusal == (
        "not_your_shuffle"
    )


def test_m31_m32_shares_go_only_where_the_rules_open_a_card() -> None:
    """M-31, M-32."""
    rig = _dealt(4)
    number, table = rig.game.round, rig.table()
    share = elgamal.decryption_share(
        key_secret(rig.secrets(1)),
        table.deal.deck()[0],
        elgamal.opening_context(table.binding, number, 0),
    )
    refusal = rig.game.apply(rig.nodes[1], _body(number, ShareMessage(1, 0, None, share)))
    assert refusal.refusal == "not_wanted"
    sealed = _body(number, SealedShareMessage(1, 0, 2, _false_sealed()))
    assert rig.game.apply(rig.nodes[1], sealed).refusal == "not_granted"
    other = _body(number, SealedShareMessage(2, 0, 3, _false_sealed()))
    assert rig.game.apply(rig.nodes[1], other).refusal == "bad_message"  # speaks for seat 2


def test_m31_a_move_that_turns_a_card_up_waits_and_those_after_it_wait_behind() -> None:
    """M-31."""
    rig = Rig(seed=5)
    waited = []
    for _ in range(400):
        table = rig.game.table
        if isinstance(table, DutchTable) and table.queue:
            waited.append(len(table.queue))
        if rig.game.phase == Phase.OVER or not rig.step():
            break
    assert waited and rig.game.phase == Phase.OVER


def test_m34_a_false_share_is_flagged_on_the_table_naming_its_sender() -> None:
    """M-34."""
    done: list[int] = []

    def falsify(seat: int, body: GameBody) -> GameBody:
        message = _message(body)
        if seat == 2 and isinstance(message, ShareMessage) and not done:
            done.append(seat)
            proof = replace(message.share.proof, s=message.share.proof.e)
            return _body(decode(body.payload).round, replace(message, share=replace(
                message.share, proof=proof
            )))  # fmt: skip
        return body

    rig = Rig(seed=6, tamper=falsify)
    game = rig.play()
    assert done and game.phase == Phase.OVER  # its true share came next: the round went on
    assert [(f.seat, f.kind) for f in game.flags] == [(2, FlagKind.MISMATCH)]
    assert "bad_share" in game.flags[0].detail


def test_m34_a_dishonest_shuffle_is_found_by_the_audit_and_flagged() -> None:
    """M-34."""
    rig_holder: list[Rig] = []

    def cheat(seat: int, body: GameBody) -> GameBody:
        message = _message(body)
        if seat == 1 and isinstance(message, ShuffleMessage):
            table = rig_holder[0].table()
            assert table.deal.joint is not None
            other = elgamal.shuffle(table.deal.shuffles[-1].deck, table.deal.joint, bytes(32))
            return _body(decode(body.payload).round, ShuffleMessage(1, other.deck))
        return body

    rig = Rig(seed=7, tamper=cheat)
    rig_holder.append(rig)
    game = rig.play()
    assert [(f.seat, f.kind) for f in game.flags] == [(1, FlagKind.MISMATCH)]
    assert "bad_shuffle" in game.flags[0].detail


def test_m33_m36_each_node_can_open_only_the_cards_the_rules_open_to_it() -> None:
    """M-33, M-36."""
    rig = Rig(seed=8)
    while rig.game.round == 1 and rig.game.phase != Phase.OVER:
        table = rig.game.table
        if isinstance(table, DutchTable) and table.stage is Stage.REVEAL:
            break
        rig.step()
    table = rig.table()
    assert table.round is not None
    for seat in range(4):
        secrets = rig.secrets(seat)
        # M-36: the key is the private seed's, and the seed never travels.
        key = next(m for s, b in rig.bodies if s == seat for m in [_message(b)])
        assert isinstance(key, KeyShareMessage)
        assert key.public == elgamal.public_key(
            elgamal.key_secret(derived(secrets.private, b"key"))
        )
        assert all(secrets.private not in body.payload for _, body in rig.bodies)
        allowed = {t for t in range(54) if table.round.knows(seat, t)}
        known = set(faces(table, seat, secrets))
        assert known <= allowed
        complete = {
            g.token
            for g in table.grants
            if g.seat == seat and len(table.deal.sealed.get((g.token, seat), {})) == 3
        }
        assert known == complete
        # A node restarted with its kept secrets works out the same faces (M-33).
        fresh = replace(secrets, memo={})
        assert faces(table, seat, fresh) == faces(table, seat, secrets)


def test_m35_a_player_removed_in_play_strands_the_round() -> None:
    """M-35."""
    rig = _dealt(9)
    number = rig.game.round
    rig.game.leave(rig.nodes[2])
    assert rig.game.round == number + 1 and rig.game.results[-1].scores == {s: 0 for s in range(4)}
    assert (
        rig.tables == []
        or rig.tables[-1].round is None
        or (rig.tables[-1].round.ending is Ending.STRANDED)
    )


def test_m31_a_draw_out_of_turn_is_refused_at_once() -> None:
    """M-31."""
    rig = _dealt(10)
    number = rig.game.round
    table = rig.table()
    while table.queue or table.round is None or table.round.phase is not Phase_.DRAW:
        rig.step()
        table = rig.table()
    assert table.round is not None
    other = (table.round.turn + 1) % 4
    assert rig.game.apply(rig.nodes[other], _body(number, Draw())).refusal == "not_your_turn"


def test_the_next_round_starts_where_the_last_one_says() -> None:
    """D-33, D-34 through the table: the next round's starter and fifth cards."""
    rig = Rig(seed=11, target=60)
    for _ in range(2000):
        table = rig.game.table
        if rig.game.round == 2 and isinstance(table, DutchTable) and table.stage is Stage.PLAY:
            break
        rig.step()
    first = rig.tables[:1]  # round 1's, as it ended
    assert first and first[0].score is not None
    table = rig.table()
    starter, penalised = handed_on(first[0])
    assert starter == first[0].seats[first[0].score.next_starter]
    assert table.starter == table.seats.index(starter)
    assert table.penalised == frozenset(table.seats.index(s) for s in penalised)
    assert table.round is not None and table.round.starter == table.starter
    assert all(len(table.round.hands[s]) == 5 for s in table.penalised)


def test_p239_a_table_left_with_too_few_for_dutch_ends_the_game() -> None:
    """P-239: three players, one leaves mid-round; two cannot be dealt a round of Dutch
    (D-4), so the game is over as its totals stand instead of a deal that never comes."""
    rig = Rig(seed=11, players=3)
    while not (isinstance(rig.game.table, DutchTable) and rig.game.table.stage is Stage.PLAY):
        rig.step()
    number = rig.game.round
    rig.game.leave(rig.nodes[2])
    for _ in range(200):
        if rig.game.phase == Phase.OVER or not rig.step():
            break
    assert rig.game.round == number + 1 and rig.game.phase == Phase.OVER
    assert rig.game.table is None and len(rig.game.results) == 1
    assert all(not member.ready for member in rig.game.members.values())


def test_m40_the_reveal_travels_as_one_shares_per_seat_all_or_none() -> None:
    """M-40."""
    rig = Rig(seed=12)
    game = rig.play()
    batches = [(seat, _message(b)) for seat, b in rig.bodies]
    batches = [(seat, m) for seat, m in batches if isinstance(m, SharesMessage)]
    rounds = len(game.results)
    assert sorted(seat for seat, _ in batches) == sorted([0, 1, 2, 3] * rounds)
    assert game.refused == 0
    # All or none: one share not wanted refuses the whole batch.
    played = _dealt(13)
    number, table = played.game.round, played.table()
    _, batch = batches[0]
    assert isinstance(batch, SharesMessage)
    assert table.take(batch.seat, batch, number) is not None
    assert table.take(batch.seat, batch, number).reason == "not_wanted"  # type: ignore[union-attr]
