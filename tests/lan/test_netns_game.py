"""Four laptops on a private LAN find each other by zeroconf alone and play a whole game.

Each node runs in its own network namespace, plugged into a bridge with
multicast snooping off and addressed in 198.18.0.0/24, with no ``--peer``:
zeroconf is the only way the nodes can meet. At a private table the adverts
only say where each door is: the nodes knock and prove the passphrase.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, check_agreement, stop_all
from tests.netns_helpers import private_lan

pytestmark = [pytest.mark.lan, pytest.mark.netns, pytest.mark.timeout(240)]

PLAYERS = 4


@pytest.mark.parametrize("passphrase", [None, "correct horse"], ids=["open", "private"])
def test_four_nodes_found_by_zeroconf_alone_play_a_whole_game(
    tmp_path: Path, passphrase: str | None
) -> None:
    private = ["--passphrase", passphrase] if passphrase else []
    common = ["--players", str(PLAYERS), *private]
    with private_lan() as lan:
        hosts = [lan.add_host(number) for number in range(1, PLAYERS + 1)]
        table = f"kitchen-{lan.prefix}"
        nodes = [
            BlitzNode(
                f"bot{i}",
                tmp_path / f"node{i}",
                ["--interface", host.interface, "--table", table, *common],
                prefix=["ip", "netns", "exec", host.namespace],
            )
            for i, host in enumerate(hosts)
        ]
        try:
            codes = [node.finish() for node in nodes]
            assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
            summary = check_agreement(nodes)
        finally:
            stop_all(nodes)
        addresses = {host.address for host in hosts}
        for node, host in zip(nodes, hosts, strict=True):
            output = node.output()
            assert f"listening on tcp://{host.address}:" in output
            assert "Traceback" not in output
        assert summary["table"] == table and len(addresses) == PLAYERS
