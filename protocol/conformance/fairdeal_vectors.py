"""Conformance cases for the fair deal, from spec/vectors/fairdeal.json (P-107).

The file has four lists; every entry names its requirement in ``spec``; bytes are hex.

* ``commitments``: a ``node`` id, a ``round``, a ``secret`` and a ``share``, and the
  ``secret_hash`` and ``share_hash`` they give.
* ``joints``: a ``round`` and the dealers' ``shares`` in seat order, and the ``joint``
  randomness.
* ``decks``: a ``seat``, a ``secret`` and a ``joint``, the deck ``seed`` and the deck
  ``order``, card codes from the top.
* ``draws``: a deck ``seed`` and the first ``words`` (32-bit, big-endian) of its stream.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from ..games.registry import DEFAULT_GAME, game_for
from ..table.fairdeal import (
    Stream,
    deck_order,
    deck_seed,
    joint_randomness,
    secret_hash,
    share_hash,
)
from .case import Case


def _commitment(vector: Mapping[str, Any]) -> str | None:
    node, number = bytes.fromhex(vector["node"]), int(vector["round"])
    found = (
        secret_hash(node, number, bytes.fromhex(vector["secret"])).hex(),
        share_hash(node, number, bytes.fromhex(vector["share"])).hex(),
    )
    wanted = (vector["secret_hash"], vector["share_hash"])
    return None if found == wanted else f"hashes {found}"


def _joint(vector: Mapping[str, Any]) -> str | None:
    shares = [bytes.fromhex(s) for s in vector["shares"]]
    found = joint_randomness(int(vector["round"]), shares).hex()
    return None if found == vector["joint"] else f"joint {found}"


def _deck(vector: Mapping[str, Any]) -> str | None:
    secret, joint = bytes.fromhex(vector["secret"]), bytes.fromhex(vector["joint"])
    seed = deck_seed(secret, joint).hex()
    if seed != vector["seed"]:
        return f"seed {seed}"
    deck = game_for(DEFAULT_GAME).deck(int(vector["seat"]))  # the table's default game's
    order = [card.code for card in deck_order(deck, secret, joint)]
    return None if order == vector["order"] else f"order {order}"


def _draw(vector: Mapping[str, Any]) -> str | None:
    stream = Stream(bytes.fromhex(vector["seed"]))
    words = [stream.below(1 << 32) for _ in vector["words"]]  # below 2^32: the word itself
    return None if words == vector["words"] else f"words {words}"


_CHECKS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "commitments": _commitment,
    "joints": _joint,
    "decks": _deck,
    "draws": _draw,
}


def cases(data: Mapping[str, Any]) -> list[Case]:
    return [
        Case(
            str(vector.get("spec", "?")),
            f"{group}: {vector.get('name', '?')}",
            partial(check, vector),
        )
        for group, check in _CHECKS.items()
        for vector in data.get(group, [])
    ]
