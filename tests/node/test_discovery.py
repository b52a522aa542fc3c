"""The zeroconf advert: TXT record, instance and host names, and whom we ignore.

The LAN itself is tested in test_discovery_netns.py.
"""

from __future__ import annotations

import dataclasses

import pytest
from dutchblitz.node.discovery import (
    SERVICE_TYPE,
    Advert,
    AdvertError,
    parse_advert,
    skip_reason,
)
from dutchblitz.protocol.version import PROTOCOL_VERSION

pytestmark = pytest.mark.timeout(10)

ADA = Advert(node_id=bytes.fromhex("0123456789abcdef" * 2), name="Ada", table="kitchen", port=4242)


def txt(advert: Advert) -> dict[bytes, bytes | None]:
    return {key.encode(): value.encode() for key, value in advert.properties().items()}


def test_txt_record_has_plain_ascii_keys_and_round_trips() -> None:
    properties = ADA.properties()
    assert properties == {
        "id": "0123456789abcdef0123456789abcdef",
        "v": str(PROTOCOL_VERSION),
        "table": "kitchen",
        "name": "Ada",
        "port": "4242",
    }
    assert all(key.isascii() for key in properties)
    assert parse_advert(txt(ADA)) == ADA


def test_names_are_unique_per_node_and_fit_dns_labels() -> None:
    assert ADA.instance == "Ada-01234567"
    assert ADA.host == "blitz-0123456789ab.local."
    assert SERVICE_TYPE == "_blitz._tcp.local."


@pytest.mark.parametrize(
    ("name", "instance"),
    [
        ("Dr. Who", "Dr- Who-01234567"),
        ("tab\there", "tab-here-01234567"),
        ("Zoë", "Zoë-01234567"),
        ("é" * 16, "é" * 16 + "-01234567"),
    ],
)
def test_instance_name_is_sanitised_and_a_dns_label(name: str, instance: str) -> None:
    advert = dataclasses.replace(ADA, name=name)
    assert advert.instance == instance
    assert len(advert.instance.encode()) <= 63


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"node_id": b"short"}, "id must be 16 bytes"),
        ({"port": 0}, "port must be in 1..65535"),
        ({"port": 70000}, "port must be in 1..65535"),
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
        (
            dataclasses.replace(ADA, node_id=bytes(16), version=PROTOCOL_VERSION + 1),
            "other_version",
        ),
        (dataclasses.replace(ADA, node_id=bytes(16), table="garden"), "other_table"),
        (dataclasses.replace(ADA, node_id=bytes(16), name="Grace", port=1), None),
    ],
)
def test_skip_reason(theirs: Advert, reason: str | None) -> None:
    assert skip_reason(theirs, ADA) == reason
