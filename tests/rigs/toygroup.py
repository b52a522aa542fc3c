"""A stand-in for Dutch's group, for the simulator's sweeps: the integers modulo the group's
order, under addition, encoded in 32 bytes. Every formula of spec/dutch-deal.md holds in it
(keys, masks, shuffles, shares and their proofs, the audit), so the table plays and checks
exactly as with libsodium's group, about a hundred times faster, and every discrete log is
known: it hides nothing. Only a test that is about agreement and faults uses it; the real
group plays in tests/games/dutch/test_table_play.py, the leak test and the LAN test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from hashlib import blake2b

from dutchblitz.protocol.games.dutch import game, wire
from dutchblitz.protocol.table.masked import elgamal, group, record, seal

ORDER = 2**252 + 27742317777372353535851937790883648493


def _value(point: bytes) -> int:
    return (int.from_bytes(point, "little") - 1) % ORDER


def _point(value: int) -> bytes:
    return ((value % ORDER) + 1).to_bytes(32, "little")  # the identity, 0, is group.IDENTITY


def _scalar(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


_BASE = _value(group.GENERATOR)


def valid_point(point: bytes) -> bool:
    return len(point) == 32 and 2 <= int.from_bytes(point, "little") <= ORDER


def times_base(scalar: bytes) -> bytes:
    return _point(_scalar(scalar) * _BASE)


def times(scalar: bytes, point: bytes) -> bytes:
    return _point(_scalar(scalar) * _value(point))


def add(first: bytes, second: bytes) -> bytes:
    return _point(_value(first) + _value(second))


def sub(first: bytes, second: bytes) -> bytes:
    return _point(_value(first) - _value(second))


def hash_to_point(person: bytes, data: bytes) -> bytes:
    return _point(int.from_bytes(blake2b(data, digest_size=32, person=person).digest(), "big"))


_STAND_INS: dict[str, Callable[..., object]] = {
    "valid_point": valid_point,
    "times_base": times_base,
    "times": times,
    "add": add,
    "sub": sub,
    "hash_to_point": hash_to_point,
}


def _clear_caches() -> None:
    elgamal.card_points.cache_clear()
    elgamal._card_of_point.cache_clear()
    game._decoded.cache_clear()
    checks = (record._check_key, record._check_shuffle, record._check_share, record._check_sealed)
    for check in (*checks, record._check_handover, record._audited):
        check.cache_clear()


@contextmanager
def toy_group() -> Iterator[None]:
    """Play Dutch on the stand-in group inside this block."""
    saved = {name: getattr(group, name) for name in _STAND_INS}
    users = (wire, seal)  # they import ``valid_point`` by name
    saved_users = [module.valid_point for module in users]
    _clear_caches()
    try:
        for name, stand_in in _STAND_INS.items():
            setattr(group, name, stand_in)
        for module in users:
            module.valid_point = valid_point  # type: ignore[assignment]
        yield
    finally:
        for name, real in saved.items():
            setattr(group, name, real)
        for module, real in zip(users, saved_users, strict=True):
            module.valid_point = real  # type: ignore[assignment]
        _clear_caches()
