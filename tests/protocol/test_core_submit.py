"""Submitting a body the wire cannot carry spends no sequence number."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.wire.fields import ProtocolError
from dutchblitz.protocol.wire.messages import Profile

from tests.protocol.replicas import Net


def test_an_unsendable_body_raises_and_leaves_no_gap() -> None:
    net = Net(2)
    net.open_table()
    replica = net.replica(0)
    before = replica.my_seq
    with pytest.raises(ProtocolError, match="back"):
        replica.submit(Profile("ada", ""), net.now)  # a PROFILE needs a back
    assert replica.my_seq == before
    net.submit(0, Profile("ada", "lantern"))
    net.settle()
    assert net.replica(1).stable.members[replica.me.node].name == "ada"
