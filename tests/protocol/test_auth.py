"""Keys, node ids and signatures (protocol/wire/auth.py)."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.wire.auth import (
    AUTH_SIZE,
    Signer,
    check_auth,
    curve_public_of,
    fingerprint,
    node_id_of,
)

SEED = bytes(range(32))


def test_a_seed_gives_one_key_pair_and_id_every_time() -> None:
    first, second = Signer(SEED), Signer(SEED)
    assert first.public_key == second.public_key
    assert first.node_id == node_id_of(first.public_key)
    assert len(first.node_id) == 16
    assert first.fingerprint == fingerprint(first.public_key)
    assert len(first.fingerprint) == 19


def test_auth_checks_data_node_and_key() -> None:
    signer, other = Signer(SEED), Signer(bytes(32))
    auth = signer.auth(b"move")
    assert len(auth) == AUTH_SIZE
    assert check_auth(signer.node_id, b"move", auth)
    assert not check_auth(signer.node_id, b"mover", auth)
    assert not check_auth(other.node_id, b"move", auth)  # the key is not that node's
    forged = other.public_key + auth[32:]
    assert not check_auth(other.node_id, b"move", forged)  # the key did not sign it
    assert not check_auth(signer.node_id, b"move", auth[:-1])


def test_the_curve_pair_matches() -> None:
    import nacl.bindings

    signer = Signer(SEED)
    assert nacl.bindings.crypto_scalarmult_base(signer.curve_secret()) == signer.curve_public
    assert curve_public_of(signer.public_key) == signer.curve_public


def test_a_seed_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        Signer(b"short")
