"""The simulator's nodes share one memo of decoding and of signature checks (tests/rigs/sim.py
``SharedReading``): every node still refuses what it refused on its own (P-102, P-103), and
each answer is the one ``decode`` and ``authentic`` give."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import ProtocolError, decode, encode
from dutchblitz.protocol.wire.messages import Envelope, Event, Profile, Repair
from dutchblitz.protocol.wire.signing import authentic, sign_encoded

from tests.protocol.replicas import NODE_IDS, SIGNERS, TABLE, Flight, Net
from tests.rigs import sim
from tests.rigs.sim import SharedReading, Simulation

pytestmark = pytest.mark.timeout(120)

MALLORY = Signer(bytes(range(50, 82)))


class SharingNet(Net):
    """The test network, its replicas handed one ``SharedReading`` as the simulator's are."""

    def __init__(self, count: int) -> None:
        self.reading = SharedReading()
        super().__init__(count)

    def _replica(self, index: int) -> Replica:
        replica = super()._replica(index)
        return Replica(
            replica.me,
            self.now,
            self.settings,
            SIGNERS[index],
            self.reading.authentic,
            self.reading.decode,
        )


def _forgeries(net: Net) -> dict[str, bytes]:
    """Events claiming to be player 1's next Profile, each wrong in one way."""
    seq = net.replica(1).my_seq + 1
    lamport = net.replica(1).clock.time + 1
    plain = encode(Envelope(TABLE, NODE_IDS[1], lamport, seq, Event(Profile("mallory", "pump"))))
    genuine = sign_encoded(SIGNERS[1], plain)
    return {
        "unsigned": plain,
        "mallory's key for player 1's id": sign_encoded(MALLORY, plain),
        "altered after signing": genuine.replace(b"mallory", b"mallorz"),
        "player 1's key, mallory's signature": (
            plain[:-2] + b"\xc4\x60" + SIGNERS[1].public_key + MALLORY.sign(plain)
        ),
    }


def _opened() -> SharingNet:
    net = SharingNet(3)
    net.open_table()
    return net


FORGERIES = tuple(_forgeries(_opened()))


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forged_event_is_refused_at_every_node_that_shares_the_memo_P102(name: str) -> None:
    """P-102: each node refuses and counts the forgery; the memo checked it once."""
    net = _opened()
    forged = _forgeries(net)[name]
    digests = [net.replica(i).digest() for i in (0, 2)]
    checked = net.reading.checked
    for target in (0, 2):
        net.deliver(Flight(1, target, forged))
    assert [net.replica(i).counters.bad_signatures for i in (0, 2)] == [1, 1], name
    assert net.reading.checked == checked + 1, "checked once for both nodes"
    assert False in net.reading.answers.values()
    net.settle()
    assert [net.replica(i).digest() for i in (0, 2)] == digests
    for index in range(3):
        names = {m.name for m in net.replica(index).stable.members.values()}
        assert "mallory" not in names and "mallorz" not in names


def test_a_forgery_relayed_in_a_repair_is_refused_as_well_P103() -> None:
    """P-103: events inside a REPAIR go through the same shared check, and are refused."""
    net = _opened()
    forged = _forgeries(net)["mallory's key for player 1's id"]
    for target in (0, 2):
        net.deliver(Flight(1, target, forged))
        relayer = 2 - target
        relay = Envelope(TABLE, NODE_IDS[relayer], 1, 0, Repair(NODE_IDS[1], (forged,)))
        net.deliver(Flight(relayer, target, encode(relay)))
    assert [net.replica(i).counters.bad_signatures for i in (0, 2)] == [2, 2]


def test_bytes_that_do_not_decode_are_refused_by_each_node_and_never_kept() -> None:
    net = _opened()
    garbage = b"\x93\x01\x02"
    with pytest.raises(ProtocolError):
        net.reading.decode(garbage)
    for target in (0, 2):
        net.deliver(Flight(1, target, garbage))
        assert sum(net.replica(target).counters.dropped.values()) == 1
    assert garbage not in net.reading.envelopes


def test_every_shared_answer_is_the_one_decode_and_authentic_give() -> None:
    """A seed's run: each message read once gives what ``decode`` gives, each check what
    ``authentic`` gives; the nodes asked far more often than the memo had to work."""
    simulation = Simulation(3)
    simulation.run()
    reading = simulation.reading
    assert reading.envelopes and reading.answers
    for data, envelope in reading.envelopes.items():
        assert decode(data) == envelope
    for (origin, raw, auth), answer in reading.answers.items():
        assert authentic(origin, raw, auth) is answer
    assert reading.read == len(reading.envelopes) < simulation.messages
    assert reading.checked == len(reading.answers)


def test_a_memo_that_starts_again_when_full_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long run's memo is emptied when full (``MEMO_SIZE``): the same seed, the same run."""
    whole = Simulation(5).run()
    monkeypatch.setattr(sim, "MEMO_SIZE", 50)
    small = Simulation(5)
    assert small.run() == whole
    assert small.reading.read > 50, "emptied at least once"
    assert len(small.reading.envelopes) <= 50 and len(small.reading.answers) <= 50
