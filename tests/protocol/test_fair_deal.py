"""The fair deal and its audit (spec/rules.md R-39 to R-48, spec/protocol.md section 15)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from dutchblitz.protocol.games.blitz.audit import replay
from dutchblitz.protocol.games.blitz.cards import card_from_code, new_deck
from dutchblitz.protocol.games.blitz.game import MIN_ROUND_SCORE, deck_order
from dutchblitz.protocol.games.blitz.moves import WoodFlip
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.games.blitz.state import visible_codes
from dutchblitz.protocol.table.fairdeal import (
    Stream,
    deck_seed,
    joint_randomness,
    secret_hash,
    share_hash,
    shuffle,
)
from dutchblitz.protocol.table.state import FlagKind, Game, Phase
from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import (
    Admit,
    Bye,
    Commit,
    Deal,
    Envelope,
    Heartbeat,
    Ready,
    Reveal,
    Share,
    Start,
)

from tests.protocol.replicas import NODE_IDS, TABLE, Flight, Net

# -- the shuffle -------------------------------------------------------------------------


class _Fed(Stream):
    __slots__ = ("feed",)

    def __init__(self, words: list[int]) -> None:
        super().__init__(b"")
        self.feed = iter(words)

    def _word(self) -> int:
        return next(self.feed)


@pytest.mark.parametrize(
    ("bound", "words", "expected"),
    [
        (1, [0], 0),
        (2, [7], 1),
        (3, [2**32 - 1, 5], 2),  # 2**32 - 1 is past the last whole multiple of 3: redrawn
        (40, [81], 1),
        (2**32, [123456], 123456),
    ],
)
def test_draws_reject_the_uneven_tail(bound: int, words: list[int], expected: int) -> None:
    """P-107, R-42: a draw below ``bound`` is uniform: words past the last multiple are redrawn."""
    stream = _Fed(words)
    assert stream.below(bound) == expected


def test_the_stream_is_blake2b_of_seed_and_block_counter() -> None:
    import hashlib

    stream = Stream(b"seed")
    first = hashlib.blake2b(b"seed" + bytes(8), digest_size=64).digest()
    second = hashlib.blake2b(b"seed" + (1).to_bytes(8, "big"), digest_size=64).digest()
    words = [stream._word() for _ in range(32)]
    expected = [int.from_bytes((first + second)[i : i + 4], "big") for i in range(0, 128, 4)]
    assert words == expected


def test_fisher_yates_is_a_permutation_fixed_by_its_seed_R42() -> None:
    """P-107, R-42: the same seed gives the same order; every card once; other seeds differ."""
    deck = new_deck(3)
    orders = [deck_order(3, bytes([n]) * 32, b"joint") for n in range(20)]
    for order in orders:
        assert sorted(order, key=lambda c: c.code) == deck
    assert deck_order(3, bytes(32), b"joint") == orders[0]
    assert len({tuple(c.code for c in o) for o in orders}) == 20
    assert shuffle([], b"x") == [] and shuffle([9], b"x") == [9]
    codes = [c.code for c in deck_order(0, bytes(32), bytes(32))]
    assert codes[:8] == FIRST_CARDS


FIRST_CARDS = [10, 24, 39, 13, 29, 16, 7, 17]  # computed once; any change breaks every peer


def test_known_answers_P107() -> None:
    """P-107: fixed inputs give these outputs on every implementation."""
    joint = joint_randomness(1, [bytes(32), bytes([1]) * 32])
    codes = [c.code for c in deck_order(5, bytes(range(32)), joint)]
    assert codes[:8] == [215, 229, 213, 225, 233, 231, 204, 236]
    assert secret_hash(bytes(16), 1, bytes(32)).hex()[:16] == "299232260829dabc"
    assert deck_seed(bytes(32), joint) != deck_seed(bytes(32), bytes(32))


def test_every_place_is_equally_likely_R42() -> None:
    """R-42: over many seeds each card lands in the top place about equally often."""
    tops = Counter(shuffle(list(range(8)), bytes([n % 256, n // 256]))[0] for n in range(4000))
    assert set(tops) == set(range(8))
    assert all(400 < count < 600 for count in tops.values()), tops


@pytest.mark.parametrize(
    ("change", "same"),
    [
        ({}, True),
        ({"node": NODE_IDS[1]}, False),
        ({"round": 2}, False),
        ({"value": b"\x01" * 32}, False),
    ],
)
def test_commitments_bind_node_round_and_value_R40(change: dict[str, object], same: bool) -> None:
    """P-107, R-40: a commitment names its node and round, so none can be copied or replayed."""
    base: dict[str, object] = {"node": NODE_IDS[0], "round": 1, "value": bytes(32)}
    args = {**base, **change}
    for function in (secret_hash, share_hash):
        one = function(base["node"], base["round"], base["value"])  # type: ignore[arg-type]
        two = function(args["node"], args["round"], args["value"])  # type: ignore[arg-type]
        assert (one == two) is same
    assert secret_hash(NODE_IDS[0], 1, bytes(32)) != share_hash(NODE_IDS[0], 1, bytes(32))


# -- the game machine --------------------------------------------------------------------


def _started(players: int = 3) -> Game:
    game = Game()
    for seat in range(players):
        assert game.apply(NODE_IDS[0], Admit(NODE_IDS[seat], 1)).accepted
        assert game.apply(NODE_IDS[seat], Ready(True)).accepted
    assert game.apply(NODE_IDS[0], Start(75, True)).accepted
    return game


def _secret(seat: int) -> bytes:
    return bytes([seat + 1]) * 32


def _share(seat: int) -> bytes:
    return bytes([seat + 101]) * 32


def _commit(seat: int, round_number: int = 1) -> Commit:
    node = NODE_IDS[seat]
    return Commit(
        round_number,
        secret_hash(node, round_number, _secret(seat)),
        share_hash(node, round_number, _share(seat)),
    )


def test_commitments_close_when_every_present_player_has_committed_R40() -> None:
    """R-40: COMMIT once per player and round; closed once all present have committed."""
    game = _started()
    assert game.apply(NODE_IDS[0], _commit(0)).accepted
    assert game.apply(NODE_IDS[0], _commit(0)).refusal == "already_committed"
    assert game.apply(NODE_IDS[1], _commit(1, 2)).refusal == "wrong_round"
    assert game.apply(NODE_IDS[1], Share(1, _share(1))).refusal == "not_committed"
    assert game.apply(NODE_IDS[0], Share(1, _share(0))).refusal == "commits_open"
    assert game.apply(NODE_IDS[1], _commit(1)).accepted
    assert not game.commits_closed
    game.leave(NODE_IDS[2])  # the last one leaves: the rest have all committed
    assert game.commits_closed
    game.apply(NODE_IDS[0], Admit(NODE_IDS[2], 9))
    assert game.apply(NODE_IDS[2], _commit(2)).refusal == "commits_closed"


def test_the_joint_randomness_is_fixed_by_every_share_in_seat_order_R41() -> None:
    """R-41: a share must match its commitment; the joint hash takes shares in seat order."""
    game = _started()
    for seat in range(3):
        game.apply(NODE_IDS[seat], _commit(seat))
    assert game.commits_closed
    refused = game.apply(NODE_IDS[1], Share(1, b"\x00" * 32))
    assert refused.refusal == "bad_share"
    assert [(f.seat, f.kind) for f in game.flags] == [(1, FlagKind.MISMATCH)]
    for seat in (2, 0):
        assert game.apply(NODE_IDS[seat], Share(1, _share(seat))).accepted
    assert game.joint is None, "seat 1 is present and has not shared"
    assert game.apply(NODE_IDS[0], Deal(1, (0, 1, 2, 3, 9), b"")).refusal == "not_shared"
    assert game.apply(NODE_IDS[1], Share(1, _share(1))).accepted
    assert game.joint == joint_randomness(1, [_share(0), _share(1), _share(2)])
    assert game.dealers == (0, 1, 2)


def test_a_player_that_leaves_before_sharing_holds_nobody_up_R41() -> None:
    """R-41: the joint randomness waits only for present players; the leaver sits out."""
    game = _started()
    for seat in range(3):
        game.apply(NODE_IDS[seat], _commit(seat))
    for seat in (0, 1):
        game.apply(NODE_IDS[seat], Share(1, _share(seat)))
    assert game.joint is None
    game.leave(NODE_IDS[2])
    assert game.joint == joint_randomness(1, [_share(0), _share(1)])
    assert game.dealers == (0, 1)


def test_each_node_knows_its_own_deck_and_no_other_R39_R42_R43() -> None:
    """R-39, R-42, R-43: the deal shows face-up cards; only the owner knows the rest."""
    game = _started(2)
    game.own_secrets[1] = _secret(0)  # this is seat 0's node
    for seat in range(2):
        game.apply(NODE_IDS[seat], _commit(seat))
    for seat in range(2):
        game.apply(NODE_IDS[seat], Share(1, _share(seat)))
    assert game.joint is not None
    decks = {seat: deck_order(seat, _secret(seat), game.joint) for seat in range(2)}
    wrong = Deal(1, visible_codes(decks[1], 2), b"")
    assert game.apply(NODE_IDS[0], wrong).refusal == "bad_deal", "another deck's cards"
    for seat in range(2):
        assert game.apply(NODE_IDS[seat], Deal(1, visible_codes(decks[seat], 2), b"")).accepted
    assert game.phase == Phase.PLAYING and game.table is not None
    assert game.table.areas[0].hand[::-1] == decks[0][15:]
    assert all(card is None for card in game.table.areas[1].hand)


# -- whole tables: the audit ------------------------------------------------------------


def _dealt(players: int = 2) -> Net:
    net = Net(players)
    net.open_table()
    net.lobby()
    net.deal()
    assert all(net.replica(i).stable.phase == Phase.PLAYING for i in range(players))
    return net


def _play_round(net: Net, seed: int = 7, limit: int = 3000) -> None:
    """Everyone plays random legal moves, one in flight each, until the round is over."""
    rng = random.Random(seed)
    number = net.replica(0).stable.round
    for _ in range(limit):
        if net.replica(0).stable.round != number or net.replica(0).stable.phase == Phase.OVER:
            return
        for index in net.player_indexes():
            replica = net.replica(index)
            game = replica.optimistic()
            seat = game.seat_of(NODE_IDS[index])
            if replica.pending_own() or game.table is None or game.round != number:
                continue
            moves = legal_moves(game.table, seat) if seat in game.table.areas else []
            if moves:
                net.play(index, rng.choice(moves))
        net.settle()
    raise AssertionError("the round did not end")


def _flags(net: Net, index: int) -> list[tuple[int, int, str]]:
    return [(f.round, f.seat, f.kind.value) for f in net.replica(index).stable.flags]


def test_honest_rounds_pass_the_audit_everywhere_R44_R48() -> None:
    """P-108 to P-111 (P-108, P-109, P-110, P-111), R-44, R-48: reveals check out everywhere."""
    net = _dealt(3)
    _play_round(net)
    net.deal()  # the reveals of round 1 go out before the commitments of round 2
    for index in range(3):
        stable = net.replica(index).stable
        assert stable.round == 2 and stable.phase == Phase.PLAYING
        assert stable.revealed == {(1, 0), (1, 1), (1, 2)}
        assert stable.flags == [] and stable.audit_complete()
    assert len({net.replica(i).digest() for i in range(3)}) == 1


def _lie_about_a_card(net: Net, liar: int) -> None:
    """``liar`` flips its hand and names a false card in ``shows``, as a doctored client.

    Its node swaps two of its own hidden cards before the flip, so that it believes
    the lie itself and plays on consistently; the others cannot tell in play.
    """
    replica = net.replica(liar)
    seat = net.seat(liar)
    table = replica.stable.table
    assert table is not None
    hand = table.areas[seat].hand
    hand[-3], hand[0] = hand[0], hand[-3]
    replica.order.optimistic_game = None
    game = replica.optimistic()
    assert game.table is not None
    flip = next(m for m in legal_moves(game.table, seat) if isinstance(m, WoodFlip))
    assert flip.shows == hand[-3]
    net.play(liar, flip)
    net.settle()
    assert net.replica(0).stable.refused == 0, "the lie is accepted in play"


def test_a_client_that_lies_about_a_card_is_caught_at_the_audit_R44_R46() -> None:
    """P-111, R-44, R-46: a false `shows` is accepted in play, then flagged everywhere: -20."""
    net = _dealt(2)
    _lie_about_a_card(net, 1)
    _play_round(net)
    before = dict(net.replica(0).stable.results[0].scores)
    net.deal()
    for index in range(2):
        stable = net.replica(index).stable
        assert _flags(net, index) == [(1, 1, "mismatch")]
        assert "named a card it did not hold" in stable.flags[0].detail
        assert stable.results[0].scores == {0: before[0], 1: MIN_ROUND_SCORE}
        assert stable.totals[1] == MIN_ROUND_SCORE
    assert len({net.replica(i).digest() for i in range(2)}) == 1


def test_a_reveal_that_lies_about_a_card_is_a_mismatch_R44() -> None:
    """R-44: a revealed order that is not the committed deck is flagged everywhere."""
    net = _dealt(2)
    _play_round(net)
    true = net.deal_duties(1)
    reveal = next(b for b in true if isinstance(b, Reveal))
    order = list(reveal.order)
    order[20], order[30] = order[30], order[20]
    net.submit(1, Reveal(1, reveal.secret, tuple(order)))
    net.settle()
    for index in range(2):
        assert _flags(net, index) == [(1, 1, "mismatch")]
        assert "card 21 of the revealed order" in net.replica(index).stable.flags[0].detail
    wrong_secret = Reveal(1, b"\x00" * 32, reveal.order)
    other = _dealt(2)
    _play_round(other)
    other.submit(1, wrong_secret)
    other.settle()
    assert _flags(other, 0) == [(1, 1, "mismatch")]
    assert "secret does not match" in other.replica(0).stable.flags[0].detail


def test_a_player_that_moves_on_without_revealing_is_flagged_withheld_R45() -> None:
    """R-45: a commitment to round 2 with round 1 unrevealed flags round 1 withheld."""
    net = _dealt(2)
    _play_round(net)
    duties = [b for b in net.deal_duties(1) if not isinstance(b, Reveal)]
    for body in duties:
        net.submit(1, body)
    net.deal()
    for index in range(2):
        assert _flags(net, index) == [(1, 1, "withheld")]
        assert net.replica(index).stable.results[0].scores[1] == MIN_ROUND_SCORE
    assert (1, 1) in net.replica(0).stable.revealed, "revealed late, after its commitment"
    assert _flags(net, 0) == [(1, 1, "withheld")], "a late reveal does not undo it"


def test_a_goodbye_without_a_reveal_is_withheld_and_a_removal_is_unaudited_R45() -> None:
    """R-45: leaving by choice owes the reveal; a removal is marked, not penalised."""
    net = _dealt(4)
    _play_round(net)
    scores = dict(net.replica(0).stable.results[0].scores)
    net.submit(1, Bye())
    net.settle()
    assert _flags(net, 0) == [(1, 1, "withheld")]
    net.down.add(3)
    for _ in range(100):
        net.tick_all()
        net.run()
        if not net.replica(0).stable.members[NODE_IDS[3]].present:
            break
    for index in (0, 2):
        assert _flags(net, index) == [(1, 1, "withheld"), (1, 3, "unaudited")]
        assert net.replica(index).stable.results[0].scores[3] == scores[3]
        assert net.replica(index).stable.results[0].scores[1] == MIN_ROUND_SCORE


def test_the_game_ends_only_once_its_last_round_is_audited_R48() -> None:
    """R-48: the end the summary reports waits for every last reveal."""
    net = Net(2)
    net.open_table()
    net.lobby(target=1)
    net.deal()
    _play_round(net)
    for index in range(2):
        assert net.replica(index).stable.phase == Phase.OVER
        assert net.replica(index).ended is None
    net.deal()  # only reveals are owed now
    for index in range(2):
        ended = net.replica(index).ended
        assert ended is not None and ended[2].audit_complete()
    assert net.replica(0).ended[1] == net.replica(1).ended[1]  # type: ignore[index]


def test_a_backdated_event_is_reported_and_flagged_everywhere_R47() -> None:
    """P-112, R-47: an event stamped below a clock its sender announced is flagged by all."""
    net = _dealt(3)
    cheat = net.replica(1)
    clock, seq = cheat.clock.time, cheat.my_seq
    # The cheat announces a clock, then sends an event stamped below it.
    beat = Envelope(TABLE, NODE_IDS[1], clock + 50, 0, Heartbeat(seq, (), 0, b""))
    for target in (0, 2):
        net.deliver(Flight(1, target, encode(beat)))
    game = cheat.optimistic()
    assert game.table is not None
    flip = next(m for m in legal_moves(game.table, net.seat(1)) if isinstance(m, WoodFlip))
    net.play(1, flip)
    net.settle()
    for index in range(3):
        flags = net.replica(index).stable.flags
        assert [(f.seat, f.kind) for f in flags] == [(1, FlagKind.BACKDATED)], index
        assert f"stamped {clock + 1} after announcing {clock + 50}" in flags[0].detail
        plays = [e for e in net.replica(index).log if e.sender == NODE_IDS[1] and e.seq == seq + 1]
        assert plays and plays[0].outcome.accepted, "the move stands"
    assert net.replica(0).counters.backdated + net.replica(2).counters.backdated == 2


def test_the_audit_reads_a_round_up_to_the_seats_last_move_R44() -> None:
    """R-44: the replay stops after the seat's last move, and still checks that move."""
    net = _dealt(2)
    _play_round(net)
    reveal = next(b for b in net.deal_duties(1) if isinstance(b, Reveal))
    record = net.replica(0).stable.records[1]
    seat = net.seat(1)
    deck = [card_from_code(code) for code in reveal.order]
    assert replay(record, seat, deck) is None
    own = [
        i
        for i, (who, step) in enumerate(record.steps)
        if who == seat and not isinstance(step, bool)
    ]
    # Whatever comes after the seat's last move is never read: not even a move that
    # the replayed table would refuse.
    other = next(step for who, step in record.steps if who != seat and not isinstance(step, bool))
    tail = dataclasses.replace(record, steps=(*record.steps, (1 - seat, other), (1 - seat, False)))
    assert replay(tail, seat, deck) is None
    # A false card in the seat's very last move is still found.
    last, (who, step) = own[-1], record.steps[own[-1]]
    assert not isinstance(step, bool)
    shown = getattr(step, "shows", None)
    named = getattr(step, "card", None)
    wrong = next(c for c in deck if c not in (shown, named))
    lie = dataclasses.replace(step, shows=wrong) if shown is not None else None
    if lie is None:
        assert named is not None, "a last move that names no card cannot lie about one"
        lie = dataclasses.replace(step, card=wrong)
    lying = dataclasses.replace(
        record, steps=(*record.steps[:last], (who, lie), *record.steps[last + 1 :])
    )
    assert replay(lying, seat, deck) == (
        f"its move {len(own)} ({type(step).__name__}) named a card it did not hold"
    )
