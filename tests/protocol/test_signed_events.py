"""Signed events: forged, altered and replayed events change nothing anywhere (section 15)."""

from __future__ import annotations

from dataclasses import replace

from dutchblitz.protocol.games.blitz.moves import WoodFlip
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.games.blitz.wire_moves import play_from_move
from dutchblitz.protocol.replica.core import Replica, Settings
from dutchblitz.protocol.replica.effects import Persist
from dutchblitz.protocol.wire.auth import AUTH_SIZE, Signer, check_auth
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Envelope, Event, Profile, Ready, Repair
from dutchblitz.protocol.wire.signing import EMPTY_AUTH, authentic, sign_encoded, signed_part

from tests.protocol.replicas import NODE_IDS, SIGNERS, TABLE, Flight, Net

MALLORY = Signer(bytes(range(50, 82)))


def _table(count: int = 3) -> Net:
    net = Net(count)
    net.open_table()
    return net


def _state(net: Net, index: int) -> tuple[object, ...]:
    replica = net.replica(index)
    held = {node: (s.held, s.announced, sorted(s.events)) for node, s in replica.streams.items()}
    return (replica.clock.time, len(replica.log), replica.digest(), held, replica.pending[:])


def test_every_event_a_node_sends_is_signed_by_its_key_P101() -> None:
    """P-101: an EVENT's auth is the origin's public key and its signature, 96 bytes."""
    net = _table(2)
    for index in (0, 1):
        for raw in net.nodes[index].own.values():
            envelope = decode(raw)
            assert len(envelope.auth) == AUTH_SIZE
            assert envelope.auth[:32] == SIGNERS[index].public_key
            unsigned = encode(replace(envelope, auth=b""))
            assert unsigned.endswith(EMPTY_AUTH)
            assert signed_part(raw, envelope.auth) == unsigned
            assert check_auth(NODE_IDS[index], unsigned, envelope.auth)


def _forgeries(net: Net) -> dict[str, bytes]:
    """Events claiming to be player 1's Profile, each wrong in one way."""
    origin = NODE_IDS[1]
    seq = net.replica(1).my_seq + 1
    lamport = net.replica(1).clock.time + 1
    plain = encode(Envelope(TABLE, origin, lamport, seq, Event(Profile("mallory", "pump"))))
    signed_by_mallory = sign_encoded(MALLORY, plain)
    genuine = sign_encoded(SIGNERS[1], plain)
    # Mallory's key with player 1's signature bytes swapped in, and an altered body.
    altered = genuine.replace(b"mallory", b"mallorz")
    own_key = plain[:-2] + b"\xc4\x60" + SIGNERS[1].public_key + MALLORY.sign(plain)
    return {
        "unsigned": plain,
        "mallory's key for player 1's id": signed_by_mallory,
        "altered after signing": altered,
        "player 1's key, mallory's signature": own_key,
        "short auth": plain[:-2] + b"\xc4\x05" + b"12345",
    }


def test_a_forged_event_sent_directly_is_refused_at_every_replica_P102() -> None:
    """P-102: a bad auth is refused, counted, and changes nothing, whoever forwards it."""
    net = _table(3)
    for name, forged in _forgeries(net).items():
        before = [_state(net, i) for i in (0, 2)]
        bad = [net.replica(i).counters.bad_signatures for i in (0, 2)]
        net.deliver(Flight(1, 0, forged))  # as if from its claimed origin
        net.deliver(Flight(1, 2, forged))
        assert [_state(net, i) for i in (0, 2)] == before, name
        assert [net.replica(i).counters.bad_signatures for i in (0, 2)] == [b + 1 for b in bad]
        net.settle()
    for index in range(3):
        names = {m.name for m in net.replica(index).stable.members.values()}
        assert "mallory" not in names and "mallorz" not in names
    alarms = [a for a in net.nodes[0].alarms if "bad signature" in a.detail]
    assert len(alarms) == 1, "logged once, counted every time"
    assert net.replica(0).counters.dropped["bad_signature"] == len(_forgeries(net))


def test_an_event_altered_in_a_repair_is_refused_and_repaired_from_the_origin_P103() -> None:
    """P-103: events inside a REPAIR are always checked; a true copy still gets through."""
    net = _table(3)
    # Player 1's next event reaches player 0 only; player 2 must repair it.
    net.submit(1, Profile("carol", net.replica(1).stable.members[NODE_IDS[1]].back))
    net.drop_where(lambda f: f.source == 1 and f.target == 2)
    net.deliver_where(lambda f: f.source == 1 and f.target == 0)
    seq, raw = net.last_own(1)
    altered = raw.replace(b"carol", b"caron")
    before = _state(net, 2)
    repair = Envelope(TABLE, NODE_IDS[0], 1, 0, Repair(NODE_IDS[1], (altered,)))
    net.deliver(Flight(0, 2, encode(repair)))
    assert _state(net, 2) == before
    assert net.replica(2).counters.bad_signatures == 1
    true_copy = Envelope(TABLE, NODE_IDS[0], 1, 0, Repair(NODE_IDS[1], (raw,)))
    net.deliver(Flight(0, 2, encode(true_copy)))
    assert net.replica(2).streams[NODE_IDS[1]].held == seq
    net.settle()
    assert {net.replica(i).stable.members[NODE_IDS[1]].name for i in range(3)} == {"carol"}


def test_a_direct_event_is_checked_unless_the_channel_vouches_for_it_P103() -> None:
    """P-103: with verify_direct off, only an event straight from its origin skips the check."""
    net = Net(2, settings=Settings(verify_direct=False))
    net.open_table()
    forged = _forgeries(net)["mallory's key for player 1's id"]
    replica = net.replica(0)
    replica.receive(forged, net.now, via=NODE_IDS[2 - 1])  # the channel proved player 1
    assert replica.counters.bad_signatures == 0, "trusted: the channel authenticated it"
    other = Net(2, settings=Settings(verify_direct=False))
    other.open_table()
    relayed = _forgeries(other)["mallory's key for player 1's id"]
    other.replica(0).receive(relayed, other.now, via=MALLORY.node_id)
    assert other.replica(0).counters.bad_signatures == 1, "relayed: always checked"


def test_a_replayed_old_event_changes_nothing() -> None:
    """An old signed event sent again, directly or in a repair, is a duplicate: no change."""
    net = _table(3)
    net.lobby()
    old = net.nodes[1].own[min(net.nodes[1].own)]
    ready = net.nodes[1].own[max(s for s, r in net.nodes[1].own.items() if b"\x03\xc3" in r)]
    before = [_state(net, i) for i in (0, 2)]
    duplicates = [net.replica(i).counters.duplicates for i in (0, 2)]
    for data in (old, ready):
        net.deliver(Flight(1, 0, data))
        net.deliver(Flight(0, 2, data))
        wrapped = Envelope(TABLE, NODE_IDS[0], 1, 0, Repair(NODE_IDS[1], (data,)))
        net.deliver(Flight(0, 2, encode(wrapped)))
    after = [_state(net, i) for i in (0, 2)]
    assert [a[1:] for a in after] == [b[1:] for b in before]
    assert [net.replica(i).counters.duplicates for i in (0, 2)] == [
        duplicates[0] + 2,
        duplicates[1] + 4,
    ]
    assert all(net.replica(i).counters.bad_signatures == 0 for i in (0, 2))
    assert isinstance(decode(ready).payload, Event)
    assert decode(ready).payload.body == Ready(True)


def test_a_restart_checks_its_stored_log_P103() -> None:
    """P-103: a record of the stored log whose signature fails is not reloaded."""
    net = _table(2)
    net.lobby()
    stored = [e.data for e in net.nodes[1].effects if isinstance(e, Persist)]
    assert all(authentic(decode(r).sender, r, decode(r).auth) for r in stored)
    tampered = [r.replace(b"player", b"playes") if b"player" in r else r for r in stored]
    reborn = Replica(net.replica(1).me, net.now, signer=SIGNERS[1])
    reborn.restore(stored, 0, net.now)
    assert len(reborn.log) + len(reborn.pending) == len(net.replica(1).log)
    assert reborn.counters.bad_signatures == 0
    again = Replica(net.replica(1).me, net.now, signer=SIGNERS[1])
    again.restore(tampered, 0, net.now)
    assert again.counters.bad_signatures == sum(
        a != b for a, b in zip(stored, tampered, strict=True)
    )


def test_a_replica_refuses_a_signer_of_another_id() -> None:
    net = Net(1)
    try:
        Replica(net.replica(0).me, 0.0, signer=MALLORY)
    except ValueError:
        return
    raise AssertionError("a signer whose id differs from the identity's must be refused")


def test_a_forged_move_injected_by_a_peer_is_refused_everywhere_P102() -> None:
    """P-102: player 2 forges player 1's next Play; no replica takes it, player 1 included."""
    net = _table(3)
    net.lobby()
    net.deal()
    game = net.replica(1).optimistic()
    assert game.table is not None
    seat = net.seat(1)
    move = next(m for m in legal_moves(game.table, seat) if isinstance(m, WoodFlip))
    body = play_from_move(move, game.round)
    seq, lamport = net.replica(1).my_seq + 1, net.replica(2).clock.time + 1
    plain = encode(Envelope(TABLE, NODE_IDS[1], lamport, seq, Event(body)))
    forged = sign_encoded(SIGNERS[2], plain)  # the forger signs with its own key
    digests = [net.replica(i).digest() for i in range(3)]
    for target in (0, 1):
        net.deliver(Flight(2, target, forged))
        relay = Envelope(TABLE, NODE_IDS[2], lamport, 0, Repair(NODE_IDS[1], (forged,)))
        net.deliver(Flight(2, target, encode(relay)))
    assert net.replica(0).counters.bad_signatures == 2
    # Player 1 takes no event in its own name from anyone else, signed or not.
    assert net.replica(1).counters.dropped.get("from_myself") == 1
    net.settle()
    assert [net.replica(i).digest() for i in range(3)] == digests
    for index in range(3):
        assert net.replica(index).streams[NODE_IDS[1]].held == seq - 1


def test_an_unchecked_duplicate_or_far_ahead_event_does_not_move_the_clock_P102() -> None:
    """P-102: an event dropped unchecked (held already, or too far ahead) changes nothing."""
    net = _table(2)
    replica = net.replica(0)
    before = _state(net, 0)
    for seq in (1, 10_000):
        body = Event(Profile("mallory", "pump"))
        replica.receive(encode(Envelope(TABLE, NODE_IDS[1], 10**9, seq, body)), net.now)
        wrapped = Repair(NODE_IDS[1], (encode(Envelope(TABLE, NODE_IDS[1], 10**9, seq, body)),))
        replica.receive(encode(Envelope(TABLE, NODE_IDS[1], 1, 0, wrapped)), net.now)
    after = _state(net, 0)
    assert after[0] == before[0] and after[1:] == before[1:]
