"""The table's openings: values that no node knows before every seat at the table has
given its part, and that no seat can choose (a hidden card turned, a die rolled).

Each seat draws a chain of values from its round's private seed (``SeatSecrets.private``):
``link(k)`` is the hash applied ``LINKS - k`` times to the seed, so ``link(0)`` is the chain's
end, which the seat publishes before any opening (its commitment), and ``link(k)`` hashes to
``link(k - 1)``. Opening ``k`` of a round is decided once every seat still at the table has
published its ``link(k)``: a hash of the opening's number and those links in seat order. A
seat cannot choose its link (each is fixed by the commitment), and nobody can compute
another seat's link before it is published (a hash has no known inverse), so nobody knows
an opening before its last part is in the order, as with Dutch's masked deck
(spec/dutch-deal.md), at the cost of one small body per seat and opening.

Pure: the seed comes in as bytes, every value is a function of its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from hashlib import blake2b
from typing import Final

LINK_SIZE: Final = 32
LINKS: Final = 512  # the most openings a round may ask of a seat
_CHAIN: Final = b"table-chain-v1"
_OPEN: Final = b"table-open-v1"


def _step(value: bytes) -> bytes:
    return blake2b(value, digest_size=LINK_SIZE, person=_CHAIN).digest()


def chain(seed: bytes, context: bytes = b"") -> tuple[bytes, ...]:
    """A seat's whole chain for a round, ``chain[k]`` being its ``link(k)``; ``context``
    keeps chains of different uses of one seed apart."""
    value = blake2b(seed + context, digest_size=LINK_SIZE, person=_CHAIN).digest()
    links = [value]
    for _ in range(LINKS):
        value = _step(value)
        links.append(value)
    return tuple(reversed(links))


def follows(link: bytes, before: bytes) -> bool:
    """Whether ``link`` is the link after ``before`` in a chain (it hashes to it)."""
    return len(link) == LINK_SIZE and _step(link) == before


def opened(number: int, links: Mapping[int, bytes], seats: Sequence[int]) -> bytes:
    """Opening ``number``'s value: a hash of its number and each seat's link, in seat order."""
    digest = blake2b(digest_size=32, person=_OPEN)
    digest.update(number.to_bytes(4, "big"))
    for seat in sorted(seats):
        digest.update(bytes([seat]))
        digest.update(links[seat])
    return digest.digest()


def pick(value: bytes, count: int) -> int:
    """An index below ``count`` drawn from an opened value (its bias is below 2**-200)."""
    if count <= 0:
        raise ValueError("nothing to pick from")
    return int.from_bytes(value, "big") % count
