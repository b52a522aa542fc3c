"""The zeroconf advert: TXT record, instance and host names, and whom we ignore.

The LAN itself is tested in test_discovery_netns.py.
"""

from __future__ import annotations

import dataclasses

import pytest
from dutchblitz.node.net.discovery import (
    SERVICE_TYPE,
    Advert,
    AdvertError,
    Discovery,
    DiscoveryStats,
    parse_advert,
    skip_reason,
)
from dutchblitz.protocol.version import PROTOCOL_VERSION
from dutchblitz.protocol.wire.auth import Signer

pytestmark = pytest.mark.timeout(10)

ADA_KEY = Signer(bytes(range(32)))
GRACE_KEY = Signer(bytes(range(1, 33)))
ADA = Advert(
    node_id=ADA_KEY.node_id,
    name="Ada",
    table="kitchen",
    port=4242,
    key=ADA_KEY.public_key,
    door=4243,
)
GRACE = dataclasses.replace(ADA, node_id=GRACE_KEY.node_id, key=GRACE_KEY.public_key)


def txt(advert: Advert) -> dict[bytes, bytes | None]:
    return {key.encode(): value.encode() for key, value in advert.properties().items()}


def test_txt_record_has_plain_ascii_keys_and_round_trips() -> None:
    properties = ADA.properties()
    assert properties == {
        "id": ADA_KEY.node_id.hex(),
        "key": ADA_KEY.public_key.hex(),
        "v": str(PROTOCOL_VERSION),
        "table": "kitchen",
        "name": "Ada",
        "port": "4242",
        "door": "4243",
    }
    assert all(key.isascii() for key in properties)
    assert parse_advert(txt(ADA)) == ADA


def test_hex_is_written_lowercase_and_read_in_either_case() -> None:
    """P-193: the TXT values id and key are lowercase hex; a reader takes either case."""
    properties = ADA.properties()
    assert properties["id"] == properties["id"].lower() and properties["key"].islower()
    shouting = {**txt(ADA), b"id": ADA_KEY.node_id.hex().upper().encode()}
    shouting[b"key"] = ADA_KEY.public_key.hex().upper().encode()
    assert parse_advert(shouting) == ADA


def test_names_are_unique_per_node_and_fit_dns_labels() -> None:
    """P-194: the instance and host names, and the service type."""
    assert ADA.instance == f"Ada-{ADA_KEY.node_id.hex()[:8]}"
    assert ADA.host == f"blitz-{ADA_KEY.node_id.hex()[:12]}.local."
    assert SERVICE_TYPE == "_blitz._tcp.local."


@pytest.mark.parametrize(
    ("name", "instance"),
    [
        ("Dr. Who", "Dr- Who"),
        ("tab\there", "tab-here"),
        ("Zoë", "Zoë"),
        ("é" * 16, "é" * 16),
    ],
)
def test_instance_name_is_sanitised_and_a_dns_label(name: str, instance: str) -> None:
    advert = dataclasses.replace(ADA, name=name)
    assert advert.instance == f"{instance}-{ADA.short_id}"
    assert len(advert.instance.encode()) <= 63


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"node_id": b"short"}, "id must be 16 bytes"),
        ({"port": 0}, "port must be in 1..65535"),
        ({"port": 70000}, "port must be in 1..65535"),
        ({"door": 0}, "door must be in 1..65535"),
        ({"key": b"short"}, "key must be 32 bytes"),
        ({"name": ""}, "name must be 1 to 32 bytes"),
        ({"table": "t" * 33}, "table must be 1 to 32 bytes"),
        ({"name": "é" * 17}, "name must be 1 to 32 bytes"),
    ],
)
def test_advert_checks_its_fields(changes: dict[str, object], message: str) -> None:
    with pytest.raises(AdvertError, match=message):
        dataclasses.replace(ADA, **changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({b"id": None}, "'id' missing"),
        ({b"id": b"0123"}, "'id' is not 32 hex digits"),
        ({b"id": b"g" * 32}, "'id' is not 32 hex digits"),
        ({b"v": b"one"}, "'v' is not a number"),
        ({b"port": b"-1"}, "'port' is not a number"),
        ({b"port": b"99999"}, "port must be in 1..65535"),
        ({b"key": None}, "'key' missing"),
        ({b"key": b"ab" * 31}, "'key' is not 64 hex digits"),
        ({b"door": b"x"}, "'door' is not a number"),
        ({b"name": b"\xff\xfe"}, "'name' is not UTF-8"),
        ({b"table": b""}, "table must be 1 to 32 bytes"),
    ],
)
def test_parse_advert_says_which_field_is_wrong(
    changes: dict[bytes, bytes | None], message: str
) -> None:
    with pytest.raises(AdvertError, match=message):
        parse_advert(txt(ADA) | changes)


@pytest.mark.parametrize(
    ("theirs", "reason"),
    [
        (ADA, "ignored_self"),
        (dataclasses.replace(GRACE, version=PROTOCOL_VERSION + 1), "other_version"),
        (dataclasses.replace(GRACE, table="garden"), "other_table"),
        (dataclasses.replace(GRACE, name="Grace", port=1), None),
        (dataclasses.replace(GRACE, key=ADA.key), "wrong_id"),
        (dataclasses.replace(GRACE, node_id=bytes(16)), "wrong_id"),
    ],
)
def test_skip_reason(theirs: Advert, reason: str | None) -> None:
    assert skip_reason(theirs, ADA) == reason


class _Info:
    """What zeroconf hands over for a resolved service, as much as ``Discovery`` reads."""

    def __init__(self, advert: Advert, port: int) -> None:
        self.properties = txt(advert)
        self.port = port

    def parsed_addresses(self, version: object = None) -> list[str]:
        return ["127.0.0.1"]


def test_an_advert_whose_id_is_not_its_keys_is_refused_and_counted() -> None:
    """P-140: a node may not announce itself under another's id (or with another's key)."""
    discovery = Discovery(ADA, "127.0.0.1")
    forged = dataclasses.replace(GRACE, key=ADA_KEY.public_key)
    assert discovery._admit(_Info(forged, forged.door)) is None  # type: ignore[arg-type]
    assert discovery.stats == DiscoveryStats(wrong_id=1)
    found = discovery._admit(_Info(GRACE, GRACE.door))  # type: ignore[arg-type]
    assert found is not None
    assert (found.node_id, found.key) == (GRACE.node_id, GRACE.key)
    assert found.endpoint == "tcp://127.0.0.1:4242"
    assert found.door == "tcp://127.0.0.1:4243"
    assert discovery.stats == DiscoveryStats(wrong_id=1)
