"""Check that this machine can see the other players: discovery plus transport, no game.

    python -m dutchblitz.node.net.probe --table kitchen --name Ada

It announces itself, and greets every node it finds at the table over ZeroMQ.
Each line it prints is one JSON object: ``ready``, ``found``, ``lost``,
``received`` (a greeting from a peer), ``skipped`` (an advert it refused, and
why) and, on SIGINT, SIGTERM or after ``--seconds``, ``closed`` with the
counters. The LAN tests run it in network
namespaces; a player can run it to see why two laptops do not meet.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import sys
from collections.abc import Sequence

from dutchblitz.node.net.discovery import Advert, Discovery, Found, PeerEvent
from dutchblitz.node.net.interfaces import InterfaceError, choose_interface
from dutchblitz.node.net.roster import Roster, Source
from dutchblitz.node.net.transport import Transport
from dutchblitz.protocol.wire.auth import Signer

GREETING = b"hello from "


def _emit(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def _greet_peers(events: asyncio.Queue[PeerEvent], transport: Transport) -> None:
    while True:
        event = await events.get()
        if isinstance(event, Found):
            _emit("found", id=event.node_id.hex(), name=event.name, endpoint=event.endpoint)
            transport.roster.learn(event.node_id, event.key, Source.ADVERT)
            transport.add_peer(event.node_id, event.endpoint, event.key)
            transport.send(event.node_id, GREETING + transport.node_id.hex().encode())
            # A peer that has not found us yet refuses our key; greet again until
            # it has (the transport connects again after a refusal).
            loop = asyncio.get_running_loop()
            for delay in (1.0, 2.0, 4.0, 8.0):
                loop.call_later(delay, _greet_again, transport, event.node_id)
        else:
            _emit("lost", id=event.node_id.hex())
            transport.remove_peer(event.node_id)


def _greet_again(transport: Transport, node_id: bytes) -> None:
    if not transport.closed and node_id in transport.peers:
        transport.send(node_id, GREETING + transport.node_id.hex().encode())


async def _print_greetings(transport: Transport) -> None:
    while True:
        sender, data = await transport.recv()
        _emit("received", sender=sender.hex(), data=data.decode(errors="replace"))


async def run(table: str, name: str, interface_spec: str | None, seconds: float | None) -> None:
    interface = choose_interface(interface_spec)
    signer = Signer(os.urandom(32))
    node_id = signer.node_id
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with await Transport.open(signer, interface.address, 0, roster=Roster()) as transport:
        port = int(transport.endpoint.rpartition(":")[2])
        # The probe has no door: it announces its table port in the door's place.
        advert = Advert(node_id, name, table, port, signer.public_key, port)
        discovery = Discovery(
            advert,
            interface.address,
            on_skip=lambda reason, service: _emit("skipped", reason=reason, service=service),
        )
        async with discovery:
            _emit(
                "ready",
                id=node_id.hex(),
                endpoint=transport.endpoint,
                interface=interface.describe(),
                instance=discovery.advert.instance,
            )
            workers = [
                asyncio.create_task(_greet_peers(discovery.events, transport)),
                asyncio.create_task(_print_greetings(transport)),
            ]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), seconds)
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            stats = {
                "transport": dataclasses.asdict(transport.stats),
                "discovery": dataclasses.asdict(discovery.stats),
            }
    _emit("closed", **stats)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dutchblitz.node.net.probe")
    parser.add_argument("--table", default="blitz", help="table name (default: blitz)")
    parser.add_argument("--name", default="probe", help="player name to announce")
    parser.add_argument("--interface", help="interface name or IPv4 address")
    parser.add_argument("--seconds", type=float, help="stop after this long")
    args = parser.parse_args(argv)
    try:
        asyncio.run(run(args.table, args.name, args.interface, args.seconds))
    except InterfaceError as error:
        print(f"discovery_probe: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
