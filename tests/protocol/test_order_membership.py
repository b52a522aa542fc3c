"""Membership: founding, admission, suspicion, cuts, removal and goodbye.

spec/protocol.md section 12, P-80 to P-94.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.replica.flush import Flushes
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import (
    Admit,
    Body,
    Bye,
    Cut,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    Ready,
    Repair,
    Suspect,
    Unsuspect,
)

from tests.protocol.replicas import EPOCH, NODE_IDS, TABLE, Flight, Net

A, B, C, D, E = range(5)


def _kind(flight: Flight) -> type:
    return type(flight.envelope().payload)


def _own_bodies(net: Net, index: int, kind: type | None = None) -> list[Body]:
    bodies = []
    for seq in sorted(net[index].own):
        payload = decode(net[index].own[seq]).payload
        assert isinstance(payload, Event)
        if kind is None or isinstance(payload.body, kind):
            bodies.append(payload.body)
    return bodies


def _ticks_until(net: Net, done: Callable[[], bool], limit: int = 200) -> None:
    """Tick and deliver, stopping right after the tick (before delivery) that does it."""
    for _ in range(limit):
        net.tick_all()
        if done():
            return
        net.run()
        if done():
            return
    raise AssertionError(f"never happened: {net.describe()}")


def _present(net: Net, index: int) -> list[bool]:
    seats = net.replica(index).stable.by_seat()
    return [seats[s].present for s in sorted(seats)]


# -- founding and joining -------------------------------------------------------------------


def test_the_first_event_is_the_founders_admit_of_itself_P80() -> None:
    """P-80: the first event is the founders admit of itself."""
    net = Net(3)
    net.open_table()
    raw = net[A].own[1]
    envelope = decode(raw)
    assert (envelope.sender, envelope.seq, envelope.lamport) == (NODE_IDS[A], 1, 1)
    assert envelope.payload == Event(Admit(NODE_IDS[A], 1))
    for node in net.nodes:
        first = node.replica.log[0]
        assert (first.sender, first.seq, first.lamport) == (NODE_IDS[A], 1, 1)
        assert first.body == Admit(NODE_IDS[A], 1) and first.outcome.accepted
        assert node.replica.order.stable_raws[(NODE_IDS[A], 1)] == raw


def _hello(resume: int, epoch: bytes = b"", sender: bytes = NODE_IDS[C]) -> bytes:
    hello = Hello("carol", "pump", "tcp://c:1", (), epoch, resume)
    return encode(Envelope(TABLE, sender, 0, 0, hello))


def _admits(effects: object) -> list[Admit]:
    assert isinstance(effects, list)
    found = []
    for effect in effects:
        if isinstance(effect, Send):
            payload = decode(effect.data).payload
            if isinstance(payload, Event) and isinstance(payload.body, Admit):
                found.append(payload.body)
    return found


@pytest.mark.parametrize("epoch", [b"", EPOCH])
def test_a_member_admits_a_hello_asking_to_join_with_its_first_seq_P81(epoch: bytes) -> None:
    """P-81: a member admits a hello asking to join with its first seq."""
    net = Net(2)
    net.open_table()
    assert _admits(net.replica(A).receive(_hello(7, epoch), net.now)) == [Admit(NODE_IDS[C], 7)]
    assert _admits(net.replica(A).receive(_hello(7, epoch), net.now)) == [], "once"


@pytest.mark.parametrize(
    "case", ["resume 0: a member's hello", "another epoch", "a present member", "not a member"]
)
def test_no_admit_for_other_hellos_P81(case: str) -> None:
    """P-81: no admit for other hellos."""
    net = Net(3)
    net.open_table(2)
    replica = net.replica(C if case == "not a member" else A)
    data = {
        "resume 0: a member's hello": _hello(0),
        "another epoch": _hello(5, bytes(16)),
        "a present member": _hello(5, sender=NODE_IDS[B]),
        "not a member": _hello(5, sender=bytes(range(16))),
    }[case]
    assert _admits(replica.receive(data, net.now)) == []


def test_only_the_first_admit_counts_P82() -> None:
    """P-82: Node 2's HELLO reaches both members; both admit it; the second is refused."""
    net = Net(3)
    net.open_table(2)
    net.join(C)
    admits = [e for e in net.replica(A).log if isinstance(e.body, Admit)]
    of_c = [e for e in admits if e.body.node == NODE_IDS[C]]
    assert {e.sender for e in of_c} == {NODE_IDS[A], NODE_IDS[B]}
    assert [e.outcome.refusal for e in of_c] == [None, "already_member"]
    assert net.replica(A).stable.seat_of(NODE_IDS[C]) == 2
    assert len(net.replica(A).stable.members) == 3


def test_seats_follow_the_order_of_first_admits_P83() -> None:
    """P-83: Two newcomers are admitted at once by different members: the total order seats them."""
    net = Net(4)
    net.open_table(2)
    for index in (C, D):
        net.take(index, net.replica(index).ask_to_join(net.now))
    # node 2 says hello to node 0 only, node 3 to node 1 only, at the same moment
    net.drop_where(lambda f: (f.source, f.target) not in ((C, A), (D, B)))
    net.settle(until=lambda: net.quiet() and all(net.replica(i).is_member() for i in (C, D)))
    log = net.replica(A).log
    first = [e.body.node for e in log if isinstance(e.body, Admit) and e.outcome.accepted]
    for node in net.nodes:
        seats = node.replica.stable
        assert [seats.seat_of(n) for n in first] == [0, 1, 2, 3]


def _remove(net: Net, gone: int) -> None:
    """``gone`` falls silent; the others suspect it and agree on its cut."""
    net.cut_links |= {(gone, n.index) for n in net.nodes} | {(n.index, gone) for n in net.nodes}
    others = [n.index for n in net.nodes if n.index != gone]
    _ticks_until(net, lambda: not _present(net, others[0])[net.seat(gone)])
    net.settle(until=lambda: all(not _present(net, i)[net.seat(gone)] for i in others))


def _hellos(net: Net, index: int) -> list[Hello]:
    found = [decode(send.data).payload for send in net[index].sent]
    return [h for h in found if isinstance(h, Hello)]


def test_a_rejoining_node_skips_a_seq_and_its_old_events_are_void_P84() -> None:
    """P-84: a rejoining node skips a seq and its old events are void."""
    net = Net(3)
    net.open_table()
    _remove(net, C)
    before = net.replica(C).my_seq
    said = len(_hellos(net, C))
    net.submit(C, Ready(True))  # past its cut: nobody takes it
    net.submit(C, Ready(False))
    void = sorted(net[C].own)[-2:]
    net.cut_links.clear()
    net.settle(until=lambda: net.quiet() and net.replica(C).is_member())
    hellos = _hellos(net, C)[said:]
    resume = [h.resume_seq for h in hellos if h.resume_seq]
    assert resume and resume[0] == max(net[C].own) + 2 == before + 2 + 2, "one number skipped"
    admit = [e.body for e in net.replica(A).log if isinstance(e.body, Admit)][-1]
    assert admit == Admit(NODE_IDS[C], resume[0])
    for log in net.logs():
        assert not any(s == NODE_IDS[C] and q in void for s, q in log)
    assert {w.seq for w in net[C].withdrawn} >= set(void)
    net.submit(C, Ready(True))
    net.settle()
    assert (NODE_IDS[C], resume[0]) in net.logs()[A], "the new stream counts from first-seq"


# -- suspicion ------------------------------------------------------------------------------------


def test_a_silent_member_is_suspected_after_the_timeout_P85() -> None:
    """P-85: a silent member is suspected after the timeout."""
    net = Net(3)
    net.open_table()
    net.submit(C, Ready(True))
    net.settle()
    held = net.replica(A).streams[NODE_IDS[C]].held
    net.down.add(C)
    silent_since = net.now
    _ticks_until(net, lambda: bool(_own_bodies(net, A, Suspect)))
    assert net.now - silent_since >= net.settings.suspect_after
    assert _own_bodies(net, A, Suspect) == [Suspect(NODE_IDS[C], held)]


@pytest.mark.parametrize(
    ("count", "apart"),
    [(2, {B}), (4, {C, D}), (5, {C, D, E})],
    ids=["table of two", "even split of four", "two against three"],
)
def test_nobody_suspects_without_hearing_a_strict_majority_P85(count: int, apart: set[int]) -> None:
    """P-85: The network splits in two: only a side with a strict majority may suspect."""
    net = Net(count)
    net.open_table()
    sides = [{i for i in range(count) if i not in apart}, apart]
    net.cut_links |= {(a, b) for a in sides[0] for b in sides[1]}
    net.cut_links |= {(b, a) for a in sides[0] for b in sides[1]}
    for _ in range(100):
        net.tick_all()
        net.run()
    for side in sides:
        suspicious = {i for i in side if _own_bodies(net, i, Suspect)}
        assert suspicious == (side if 2 * len(side) > count else set())
    net.cut_links.clear()
    net.settle(until=lambda: net.quiet() and all(all(_present(net, i)) for i in range(count)))
    assert all(log == net.logs()[0] for log in net.logs())


def test_a_member_joins_a_suspicion_it_hears_P86() -> None:
    """P-86: Node 0 no longer hears node 2 and suspects it; node 1 still hears node 2 but joins."""
    net = Net(3)
    net.open_table()
    net.cut_links.add((C, A))
    _ticks_until(net, lambda: bool(_own_bodies(net, A, Suspect)))
    assert not _own_bodies(net, B, Suspect)
    assert net.now - net.replica(B).streams[NODE_IDS[C]].last_heard < 0.5
    net.run()
    assert [b.node for b in _own_bodies(net, B, Suspect)] == [NODE_IDS[C]]
    assert not _own_bodies(net, C, Suspect), "nobody suspects itself"


def test_no_echo_of_a_suspect_from_a_member_we_suspect_P86() -> None:
    """P-86: no echo of a suspect from a member we suspect."""
    net = Net(4)
    net.open_table()
    replica = net.replica(A)
    replica.liveness.suspected[NODE_IDS[B]] = replica.streams[NODE_IDS[B]].held
    net.submit(B, Suspect(NODE_IDS[C], 1))
    net.deliver_where(lambda f: f.source == B and f.target == A)
    assert not _own_bodies(net, A, Suspect)


def test_a_withdrawn_suspicion_in_a_table_of_two_P88() -> None:
    """P-88: Node 0 suspects node 1 while node 2 is still at the table; node 2 leaves; node 1 is
    heard again. With two at the table no majority can agree on a cut, so node 0 takes
    its suspicion back and acknowledges node 1's events again."""
    net = Net(3)
    net.open_table()
    lose_bye = lambda f: f.source == C and f.target == A and _kind(f) in (Event, Repair)  # noqa: E731
    net.losing += [lose_bye, lambda f: f.source == A and f.target == C and _kind(f) is Event]
    net.submit(C, Bye())
    net.run()
    net.cut_links.add((B, A))
    replica = net.replica(A)
    _ticks_until(net, lambda: NODE_IDS[B] in replica.liveness.suspected)
    assert replica.streams[NODE_IDS[B]].ack_cap is not None
    net.losing.remove(lose_bye)
    _ticks_until(net, lambda: _present(net, A) == [True, True, False])
    assert NODE_IDS[B] in replica.liveness.suspected, "only two at the table now"
    net.losing.clear()
    net.cut_links.clear()
    beat: Flight | None = None
    while beat is None:
        net.flights.clear()
        net.tick_all()
        beat = next((f for f in net.flights if f.source == B and f.target == A
                     and _kind(f) is Heartbeat), None)  # fmt: skip
    net.flights.remove(beat)
    net.deliver(beat)
    assert replica.liveness.suspected == {}
    assert replica.streams[NODE_IDS[B]].ack_cap is None
    assert _own_bodies(net, A, Unsuspect) == [Unsuspect(NODE_IDS[B])], "P-226: said on the wire"
    net.settle()
    assert net.logs()[A] == net.logs()[B]


def test_no_withdrawal_while_a_majority_can_agree_P88() -> None:
    """P-88: no withdrawal while a majority can agree."""
    net = Net(3)
    net.open_table()
    replica = net.replica(A)
    replica.liveness.suspected[NODE_IDS[C]] = 1
    replica.streams[NODE_IDS[C]].ack_cap = 1
    net.advance(1.0)
    net.tick(C)
    net.deliver_where(lambda f: f.source == C and f.target == A)
    assert NODE_IDS[C] in replica.liveness.suspected, "0 and 1 are a majority of three"


def _suspect_then_withdraw(net: Net, by: int, target: int, to: int) -> None:
    """``by`` suspects ``target`` and takes it back; only ``to`` hears of it."""
    held = net.replica(by).streams[NODE_IDS[target]].held
    net.submit(by, Suspect(NODE_IDS[target], held))
    net.submit(by, Unsuspect(NODE_IDS[target]))
    net.deliver_where(lambda f: f.source == by and f.target == to and _kind(f) is Event)


def test_a_withdrawn_suspect_bounds_no_cut_but_still_doubts_P227() -> None:
    """P-227: node 1 suspects node 3 and takes it back. Node 0 no longer counts node 1's held
    towards node 3's cut, so with node 2's SUSPECT alone it agrees on none; and node 3 stays
    a member somebody has suspected, whose word on another cut does not count."""
    net = Net(4)
    net.open_table()
    replica = net.replica(A)
    net.cut_links.update({(D, A), (D, B), (D, C)})
    _suspect_then_withdraw(net, B, D, A)
    liveness = replica.liveness
    assert NODE_IDS[B] not in liveness.claims.get(NODE_IDS[D], {})
    assert NODE_IDS[B] in liveness.withdrawals[NODE_IDS[D]]
    present = [m.node for m in replica.stable.members.values() if m.present]
    assert NODE_IDS[D] in liveness.doubted(present)
    net.submit(C, Suspect(NODE_IDS[D], net.replica(C).streams[NODE_IDS[D]].held))
    net.deliver_where(lambda f: f.source == C and f.target == A and _kind(f) is Event)
    assert not _own_bodies(net, A, Cut), "node 1's word is missing: no cut"
    assert NODE_IDS[D] not in liveness.settled


def test_a_member_withdraws_once_another_has_P228() -> None:
    """P-228: node 0 suspects node 3 (joining node 1's SUSPECT); node 1 takes its own back
    and node 3 is heard again. Nodes 0, 1 and 2 are a majority nobody suspects, yet the
    cut needs node 1's word, which it does not give while it hears node 3: node 0 withdraws
    too, or node 3's events ordered before the SUSPECTs would wait for ever."""
    net = Net(4)
    net.open_table()
    replica = net.replica(A)
    net.advance(1.0)  # node 0 has heard a majority for long enough to join a suspicion
    net.tick_all()
    net.run()
    _suspect_then_withdraw(net, B, D, A)
    assert [b.node for b in _own_bodies(net, A, Suspect)] == [NODE_IDS[D]], "P-86: joined"
    assert NODE_IDS[D] in replica.liveness.suspected
    net.advance(0.3)
    net.tick(D)
    heard = lambda f: f.source == D and f.target == A and _kind(f) is Heartbeat  # noqa: E731
    assert net.deliver_where(heard)
    assert NODE_IDS[D] not in replica.liveness.suspected
    assert NODE_IDS[D] in replica.liveness.flushes.pending, "P-262: capped until flushed"
    assert _own_bodies(net, A, Unsuspect) == [Unsuspect(NODE_IDS[D])]
    net.settle()
    assert all(log == net.logs()[A] for log in net.logs())


def test_a_withdrawal_acknowledges_again_once_flushed_P242() -> None:
    """P-262: node 0 withdraws its suspicion of node 3; its acknowledgements of node 3 stay
    at its held until nodes 1 and 2 have acknowledged its UNSUSPECT and it holds their
    streams up to where they stood then, and not a moment longer."""
    net = Net(4)
    net.open_table()
    replica = net.replica(A)
    net.advance(1.0)
    net.tick_all()
    net.run()
    doubted = NODE_IDS[D]
    quiet = net.replica(C)  # it has suspected node 3 already: nothing of node 0's moves it
    quiet.liveness.suspected[doubted] = quiet.streams[doubted].held
    _suspect_then_withdraw(net, B, D, A)
    net.advance(0.3)
    net.tick(D)
    net.deliver_where(lambda f: f.source == D and f.target == A)
    assert doubted in replica.liveness.flushes.pending
    capped = replica.streams[doubted].ack_cap
    assert capped is not None
    net.advance(1.2)  # node 1 now hears no majority: it does not join node 0's SUSPECT again
    for other in (B, C):
        net.deliver_where(lambda f, o=other: f.source == A and f.target == o)
        assert replica.streams[doubted].ack_cap == capped, "not all have taken it in yet"
        net.tick(other)
        net.deliver_where(lambda f, o=other: f.source == o and f.target == A)
    net.tick(A)
    assert doubted not in replica.liveness.flushes.pending
    assert replica.streams[doubted].ack_cap is None


def test_a_fresh_suspicion_states_what_it_acknowledges_P243() -> None:
    """P-263: node 0 holds an event of node 3 past its cut while its withdrawal is not yet
    flushed; suspecting node 3 afresh, it states the held it acknowledges, not the one it
    holds, so the fresh SUSPECT lifts nothing."""
    net = Net(4)
    net.open_table()
    replica = net.replica(A)
    net.advance(1.0)
    net.tick_all()
    net.run()
    doubted = NODE_IDS[D]
    _suspect_then_withdraw(net, B, D, A)
    capped = replica.streams[doubted].ack_cap
    assert capped is not None
    net.submit(D, Ready(True))
    net.advance(0.3)
    net.tick(D)
    net.deliver_where(lambda f: f.source == D and f.target == A)
    assert doubted in replica.liveness.flushes.pending
    assert replica.streams[doubted].held == capped + 1
    replica.liveness.suspect(doubted, net.now)
    assert replica.liveness.suspected[doubted] == capped
    assert replica.streams[doubted].ack_level() == capped


# -- agreeing on the cut --------------------------------------------------------------------------


def test_the_cut_is_the_lowest_held_among_the_suspects_P89() -> None:
    """P-89: Node 2 crashes after an event only node 0 received: no other survivor holds it,
    so it was never final anywhere, and the cut (the lowest held) leaves it out."""
    net = Net(3)
    net.open_table()
    net.cut_links.add((C, B))
    net.submit(C, Ready(True))
    last = net.last_own(C)[0]
    net.run()
    net.down.add(C)
    net.cut_links.clear()
    net.losing.append(lambda f: f.target == B and _kind(f) is Repair)  # B stays behind
    _ticks_until(net, lambda: bool(_own_bodies(net, A, Cut) or _own_bodies(net, B, Cut)))
    claims = {b.held for i in (A, B) for b in _own_bodies(net, i, Suspect)}
    cuts = _own_bodies(net, A, Cut) + _own_bodies(net, B, Cut)
    assert claims == {last - 1, last}
    assert cuts and all(c == Cut(NODE_IDS[C], last - 1) for c in cuts)
    net.losing.clear()
    net.settle()
    assert net.logs()[A] == net.logs()[B]
    for log in net.logs()[:2]:
        assert (NODE_IDS[C], last) not in log


def test_a_node_adopts_its_own_cut_stops_and_suspects_nobody_P90_P93() -> None:
    """P-90, P-93: node 2 was cut off and removed. Node 0 is heard again first: node 2 adopts
    its cut from node 0's CUT, and may not play. Found by this test: it then went on suspecting
    node 1, which it had not heard for long, and capped its acks of node 1's stream, so
    it could never apply node 1's SUSPECT of itself, never saw its removal, and never
    asked to come back."""
    net = Net(3)
    net.open_table()
    _remove(net, C)
    replica = net.replica(C)
    assert replica.can_play()
    (cut,) = set(_own_bodies(net, A, Cut) + _own_bodies(net, B, Cut))
    net.cut_links.discard((A, C))
    net.cut_links.discard((C, A))
    _ticks_until(net, lambda: NODE_IDS[C] in replica.liveness.settled)
    assert isinstance(cut, Cut) and replica.liveness.settled[NODE_IDS[C]] == cut.seq
    assert not replica.can_play()
    suspicions = len(_own_bodies(net, C, Suspect))  # it may have spoken before it knew
    for _ in range(30):
        net.tick_all()
        net.run()
    assert len(_own_bodies(net, C, Suspect)) == suspicions
    assert replica.liveness.suspected == {}
    net.cut_links.clear()
    net.settle(until=lambda: net.quiet() and replica.is_member())
    assert replica.can_play() and all(_present(net, C))


def _body(raw: bytes) -> Body:
    payload = decode(raw).payload
    assert isinstance(payload, Event)
    return payload.body


def test_a_stale_cut_below_the_first_seq_is_ignored_P90() -> None:
    """P-90: a stale cut below the first seq is ignored."""
    net = Net(3)
    net.open_table()
    _remove(net, C)
    net.cut_links.clear()
    net.settle(until=lambda: net.quiet() and net.replica(C).is_member())
    first = net.replica(A).streams[NODE_IDS[C]].first_seq
    net.submit(A, Cut(NODE_IDS[C], first - 2))
    net.settle()
    for node in net.nodes:
        assert NODE_IDS[C] not in node.replica.liveness.settled
        assert all(_present(net, node.index))
    net.submit(C, Ready(True))
    net.settle()
    assert (NODE_IDS[C], net.last_own(C)[0]) in net.logs()[A]


def test_events_past_the_cut_never_count_P91() -> None:
    """P-91: events past the cut never count."""
    net = Net(3)
    net.open_table()
    net.cut_links |= {(C, A), (C, B)}
    net.submit(C, Ready(True))  # heard by nobody before the cut
    late = net.last_own(C)[0]
    _remove(net, C)
    cut = net.replica(A).liveness.settled[NODE_IDS[C]]
    assert late > cut
    net.cut_links.clear()
    net.settle(until=lambda: net.quiet() and net.replica(C).is_member())
    for node in net.nodes:
        assert (NODE_IDS[C], late) not in net.logs()[node.index]
        assert (NODE_IDS[C], late) not in [(e.sender, e.seq) for e in node.delivered]
    assert late in {w.seq for w in net[C].withdrawn}


def test_a_stall_repairing_up_to_the_cut_P91_P78() -> None:
    """P-91, P-78: The others must repair a removed member's stream up to the cut from a holder.

    Node 2 is heard only by node 0 for its last two events, and node 0 falls silent
    towards the others for a moment. The others suspect node 2 before they ever see
    a clock as high as those events, so they sort after the first SUSPECT, and node 0
    applies them as void. The cut (the highest held) still includes them: the others
    must get them from node 0. They used to wait forever, as node 0 forgot void events.
    """
    net = Net(5)
    net.open_table()
    others = (B, D, E)
    net.cut_links |= {(C, t) for t in others}
    net.advance(1.4)
    for _ in range(3):
        net.tick_all()
        net.run()
    net.cut_links |= {(A, t) for t in others}
    net.submit(C, Ready(True))
    net.submit(C, Ready(False))
    net.run()
    net.down.add(C)
    for _ in range(8):
        net.tick_all()
        net.run()
    net.cut_links -= {(A, t) for t in others}
    net.settle(until=lambda: net.quiet() and all(not _present(net, i)[2] for i in (A, B, D, E)))
    logs = net.logs()
    assert all(logs[i] == logs[A] for i in others)


# -- leaving --------------------------------------------------------------------------------


def test_the_first_suspect_in_the_order_removes_and_the_cards_stay_P92() -> None:
    """P-92: the first suspect in the order removes and the cards stay."""
    net = Net(3)
    net.open_table()
    net.lobby()
    net.deal()
    for index in range(3):
        moves = legal_moves(net.view(index), net.seat(index))
        net.play(index, moves[0])
    net.settle()
    _remove(net, C)
    game = net.replica(A).stable
    suspects = [e for e in net.replica(A).log if isinstance(e.body, Suspect)]
    assert suspects[0].outcome.accepted
    assert all(e.outcome.refusal == "not_present" for e in suspects[1:])
    assert game.phase == Phase.PLAYING and 2 in game.players
    assert game.table is not None and not game.table.areas[2].active
    assert (
        game.table.areas[2].card_count()
        + sum(1 for p in game.table.piles for c in p.cards if c.deck == 2)
        == 40
    )
    assert 2 in game.totals


def test_a_removed_node_asks_to_be_admitted_again_P93() -> None:
    """P-93: a removed node asks to be admitted again."""
    net = Net(3)
    net.open_table()
    _remove(net, C)
    net.cut_links.clear()
    replica = net.replica(C)
    said = len(_hellos(net, C))
    while not [h for h in _hellos(net, C)[said:] if h.resume_seq]:
        if net.flights:
            net.run(budget=1)
        else:
            net.tick_all()
    assert replica.rejoining and not replica.can_play() and not replica.is_member()
    net.settle(until=lambda: net.quiet() and replica.is_member())
    assert not replica.rejoining and replica.can_play()


def test_a_bye_removes_its_sender_at_its_place_P94() -> None:
    """P-94: a bye removes its sender at its place."""
    net = Net(3)
    net.open_table()
    net.submit(C, Ready(True))
    net.submit(C, Bye())
    bye_seq = net.last_own(C)[0]
    net.submit(C, Ready(False))
    net.settle()
    for node in net.nodes:
        log = [(e.sender, e.seq) for e in node.replica.log]
        assert (NODE_IDS[C], bye_seq) in log and (NODE_IDS[C], bye_seq + 1) not in log
        assert node.replica.liveness.settled[NODE_IDS[C]] == bye_seq
        assert _present(net, node.index) == [True, True, False]


def test_a_bye_that_arrives_after_a_later_event_P94() -> None:
    """P-94: Found by this test: the event after a BYE, held before the BYE arrived, used to be
    queued for the order although the BYE's cut set it aside, and applying it crashed."""
    net = Net(3)
    net.open_table()
    net.submit(C, Bye())
    net.submit(C, Ready(True))
    backwards = [f for f in net.flights if f.source == C and f.target == A][::-1]
    net.flights = [f for f in net.flights if f not in backwards]
    for flight in backwards:
        net.deliver(flight)
    net.settle()
    assert net.logs()[A] == net.logs()[B]
    assert _present(net, A) == [True, True, False]


def test_a_healed_even_split_removes_nobody_P85_P92() -> None:
    """P-85, P-92: an even split removes nobody and both halves wait. As the split heals, a
    node that hears one node of the other half first hears a majority while the other one is
    still silent past the timeout; it must give the rest of the table a moment to be heard
    before suspecting anyone, or both halves would remove someone at once."""
    net = Net(4)
    net.open_table()
    left, right = {A, C}, {B, D}
    net.cut_links |= {(a, b) for a in left for b in right} | {(b, a) for a in left for b in right}
    for _ in range(30):
        net.tick_all()
        net.run()
    net.cut_links.clear()
    net.advance(0.3)
    for index in (A, D):  # the first messages across the old split
        net.take(index, net.replica(index).hello(None))
    net.run()
    net.tick_all()
    net.settle(rounds=100)
    assert all(log == net.logs()[A] for log in net.logs())
    assert all(all(_present(net, i)) for i in range(4))
    assert not any(_own_bodies(net, i, Suspect) for i in range(4))


def _race(net: Net) -> tuple[int, int]:
    """P-262's race on a table of four: nodes 0 and 2 hold an event of node 3 that node 1
    lacks; all three suspect node 3, node 1 with the lowest held, and node 0 agrees on the
    cut there. Node 2 withdraws, and node 1, hearing node 3 again, withdraws too, before
    node 0's CUT reaches either. Returns node 1's held and the number of the event."""
    net.open_table()
    net.advance(1.0)
    net.tick_all()
    net.run()
    doubted = NODE_IDS[D]
    held = net.replica(B).streams[doubted].held
    net.submit(D, Ready(True))
    early = max(net[D].own)
    net.deliver_where(lambda f: f.source == D and f.target in (A, C))
    net.tick_all()
    net.deliver_where(lambda f: f.target != B or f.source != D)
    net.submit(C, Suspect(doubted, net.replica(C).streams[doubted].held))
    net.deliver_where(lambda f: f.source == C and f.target == B and _kind(f) is Event)
    net.deliver_where(lambda f: f.target == A and f.source in (B, C))
    assert net.replica(A).liveness.settled.get(doubted) == held
    net.submit(C, Unsuspect(doubted))
    net.deliver_where(lambda f: f.source == C and f.target == B and _kind(f) is Event)
    net.advance(0.3)
    net.tick(D)
    net.deliver_where(lambda f: f.source == D and f.target == B)
    net.deliver_where(lambda f: f.source in (A, C) and f.target == B and _kind(f) is Heartbeat)
    net.advance(0.3)
    net.tick(B)
    return held, early


@pytest.mark.parametrize(
    ("flush", "final"), [(True, False), (False, True)], ids=["P-262", "the old rule"]
)
def test_a_withdrawal_races_a_cut_agreed_from_it_P242(
    monkeypatch: pytest.MonkeyPatch, flush: bool, final: bool
) -> None:
    """P-262: with the flush, the event node 0 cut off never becomes final at node 1. Under
    the rule before it, node 1 acknowledges it at once and it is final there, while node 0
    holds a cut below it: two nodes disagree on a final event."""
    monkeypatch.setattr(Flushes, "enabled", flush)
    net = Net(4)
    held, early = _race(net)
    doubted = NODE_IDS[D]
    assert ((doubted, early) in set(net.logs()[B])) is final
    assert net.replica(A).liveness.settled[doubted] == held < early
    if flush:
        net.settle()
        assert all(log == net.logs()[B] for log in net.logs())
        assert (doubted, early) not in set(net.logs()[B])
