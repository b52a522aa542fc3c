"""spec/dutch-deal.md section 1 by its algorithms: a plain transcription of M-1 to M-4 in
Python integers (RFC 8032's edwards25519, Elligator 2 as M-4 says) gives the same bytes as
protocol/table/masked/group.py, which calls libsodium: so an implementer may use either."""

from __future__ import annotations

import random
from hashlib import blake2b

import pytest
from dutchblitz.protocol.table.masked import group

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
A = 486662
SQRT_M1 = pow(2, (P - 1) // 4, P)
NEUTRAL = (0, 1)
Point = tuple[int, int]


def inverse(z: int) -> int:
    return pow(z, P - 2, P)  # 0 for 0, as libsodium's


def is_square(z: int) -> bool:
    return z % P == 0 or pow(z, (P - 1) // 2, P) == 1


def recover_x(y: int, sign: int) -> int | None:
    """RFC 8032 section 5.1.3, steps 2 to 4 (but for x = 0 and sign 1: M-4 takes (0, y))."""
    x2 = (y * y - 1) * inverse(D * y * y + 1) % P
    x = pow(x2, (P + 3) // 8, P)
    if x * x % P != x2:
        x = x * SQRT_M1 % P
    if x * x % P != x2:
        return None
    return P - x if x and x % 2 != sign else x


def decode(data: bytes) -> Point | None:
    """RFC 8032 section 5.1.3."""
    y = int.from_bytes(data, "little") & (2**255 - 1)
    sign = data[31] >> 7
    if y >= P:
        return None
    x = recover_x(y, sign)
    if x is None or (x == 0 and sign == 1):
        return None
    return x, y


def encode(point: Point) -> bytes:
    x, y = point
    return (y | (x & 1) << 255).to_bytes(32, "little")


def add(first: Point, second: Point) -> Point:
    """RFC 8032 section 5.1.4 (a = -1), in affine coordinates."""
    return affine(_add(extended(first), extended(second)))


def times(n: int, point: Point) -> Point:
    found, doubled = extended(NEUTRAL), extended(point)
    while n:
        if n & 1:
            found = _add(found, doubled)
        doubled, n = _add(doubled, doubled), n >> 1
    return affine(found)


Extended = tuple[int, int, int, int]


def extended(point: Point) -> Extended:
    x, y = point
    return x, y, 1, x * y % P


def affine(point: Extended) -> Point:
    x, y, z, _ = point
    return x * inverse(z) % P, y * inverse(z) % P


def _add(first: Extended, second: Extended) -> Extended:
    """RFC 8032 section 5.1.4's formulas, as its reference code writes them."""
    x1, y1, z1, t1 = first
    x2, y2, z2, t2 = second
    a, b = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    c, d = 2 * t1 * t2 * D % P, 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def _base() -> Point:
    found = decode(bytes.fromhex("58" + "66" * 31))
    assert found is not None
    return found


G = _base()


def valid(data: bytes) -> bool:
    """M-2: decodes, not of small order, of order L."""
    point = decode(data)
    return point is not None and times(8, point) != NEUTRAL and times(L, point) == NEUTRAL


def from_uniform(data: bytes) -> bytes:
    """M-4: Elligator 2 onto curve25519, to edwards25519, the cofactor cleared."""
    sign = data[31] >> 7
    r = int.from_bytes(data, "little") & (2**255 - 1)
    u = -A * inverse(1 + 2 * r * r) % P
    if not is_square(u**3 + A * u * u + u):
        u = (-u - A) % P
    assert (u + 1) % P != 0, "a division by 0, outside M-4"
    y = (u - 1) * inverse(u + 1) % P
    x = recover_x(y, sign)
    assert x is not None
    return encode(times(8, (x, y)))


def hash_to_scalar(person: bytes, *parts: bytes, key: bytes = b"") -> bytes:
    """M-3."""
    digest = blake2b(digest_size=64, person=person, key=key)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return (int.from_bytes(digest.digest(), "little") % L).to_bytes(32, "little")


RANDOM = random.Random(1)
SCALARS = [1, 2, L - 1, *(RANDOM.randrange(1, L) for _ in range(12))]


def scalar(n: int) -> bytes:
    return n.to_bytes(32, "little")


@pytest.mark.parametrize("n", SCALARS)
def test_scalar_multiplication(n: int) -> None:
    """M-1: n G, and n P for a point of the group, as the curve's addition gives them."""
    assert group.times_base(scalar(n)) == encode(times(n, G))
    other = times(RANDOM.randrange(1, L), G)
    assert group.times(scalar(n), encode(other)) == encode(times(n, other))


def test_addition_subtraction_and_the_scalars() -> None:
    """M-1: P + Q, P - Q; scalars added and multiplied modulo L."""
    for first, second in zip(SCALARS, reversed(SCALARS), strict=True):
        one, two = times(first, G), times(second, G)
        assert group.add(encode(one), encode(two)) == encode(add(one, two))
        assert group.sub(encode(one), encode(two)) == encode(add(one, (P - two[0], two[1])))
        assert group.scalar_add(scalar(first), scalar(second)) == scalar((first + second) % L)
        assert group.scalar_mul(scalar(first), scalar(second)) == scalar(first * second % L)


def test_a_zero_scalar_is_refused() -> None:
    """M-1: n P with n = 0 is refused."""
    with pytest.raises(group.GroupError):
        group.times_base(bytes(32))


def test_canonical_scalars() -> None:
    """M-1: a scalar is below L, else refused."""
    assert group.canonical_scalar(scalar(L - 1))
    assert not group.canonical_scalar(scalar(L))
    assert not group.canonical_scalar((2**256 - 1).to_bytes(32, "little"))


def _torsion() -> list[Point]:
    """The eight points of small order: the multiples of one of order 8."""
    for y in range(2, 200):
        x = recover_x(y, 0)
        if x is None:
            continue
        base = times(L, (x, y))  # order dividing 8
        if times(4, base) != NEUTRAL:
            return [times(k, base) for k in range(8)]
    raise AssertionError("no point of order 8 found")


def test_valid_points() -> None:
    """M-2: the group's points pass; small order, a small-order part, a non-canonical y, a
    y with no x, and random bytes are judged as the algorithm says."""
    torsion = _torsion()
    assert len({encode(t) for t in torsion}) == 8
    cases = [encode(times(n, G)) for n in SCALARS]
    cases += [encode(t) for t in torsion]
    cases += [encode(add(times(n, G), torsion[1 + n % 7])) for n in SCALARS]
    cases += [(P + k).to_bytes(32, "little") for k in range(3)]  # y not below p
    cases += [RANDOM.randbytes(32) for _ in range(40)]
    verdicts = [valid(case) for case in cases]
    assert [group.valid_point(case) for case in cases] == verdicts
    assert verdicts.count(True) >= len(SCALARS) and verdicts.count(False) >= 8 + len(SCALARS)


def test_hash_to_scalar() -> None:
    """M-3: BLAKE2b-512 of the length-prefixed parts, little-endian, modulo L."""
    parts = (b"", b"card", bytes(range(40)))
    got = group.hash_to_scalar(b"dutch-key-v1", *parts, key=b"k" * 32)
    assert got == hash_to_scalar(b"dutch-key-v1", *parts, key=b"k" * 32)


def test_the_cards_and_from_uniform() -> None:
    """M-4: every card, and from_uniform of random bytes with either sign, as M-4 says; the
    54 cards are distinct, valid, and meet no division by 0."""
    cards = []
    for code in range(54):
        uniform = blake2b(b"card" + bytes([code]), digest_size=32, person=b"dutch-card-v1")
        cards.append(from_uniform(uniform.digest()))
        assert group.hash_to_point(b"dutch-card-v1", b"card" + bytes([code])) == cards[-1]
    assert len(set(cards)) == 54 and all(valid(card) for card in cards)
    for _ in range(20):
        data = RANDOM.randbytes(32)
        person = b"any-person"
        hashed = blake2b(data, digest_size=32, person=person).digest()
        assert group.hash_to_point(person, data) == from_uniform(hashed)
