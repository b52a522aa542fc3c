"""Conformance cases for the deal of Dutch, from spec/vectors/dutch_deal.json
(spec/dutch-deal.md). Every entry names its requirement in ``spec``; bytes are hex.

* ``cards``: the 54 card ``points`` (M-4).
* ``streams``: a ``seed``, a ``label`` and a ``bound``, and the first ``numbers`` below it (M-6).
* ``deals``: key seeds and shuffle seeds, one per seat, for a ``table`` epoch and a
  ``round``; the ``publics``, the ``key_proofs`` (e, s), the ``joint`` key, each shuffler's
  ``permutation`` and the BLAKE2b-256 ``deck_digests`` of the decks published; then the
  masked ``card`` at ``token``, each seat's ``shares`` (point, e, s) and the ``code`` they
  open (M-5, M-7, M-8, M-10, M-11, M-13, M-15).
* ``shares``: a ``public`` key, a ``card``, a ``context`` and a share (``point``, ``e``,
  ``s``), and whether it is ``valid`` (M-14).
* ``audits``: a deal (by index), a ``tamper`` (seat ``seat`` publishes position ``copy``
  again over position ``over``) or none, and the ``cheats`` the audit names (M-21).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from hashlib import blake2b
from typing import Any

from ...conformance.case import Case
from ...table.masked import elgamal
from ...table.masked.checks import AuditMessage, ShuffleMessage, audit
from ...table.masked.elgamal import Deck, Masked, Proof, Share
from ...table.masked.group import Stream
from .cards import CARDS_IN_DECK


def _hex(values: Sequence[str]) -> list[bytes]:
    return [bytes.fromhex(v) for v in values]


def _digest(deck: Deck) -> str:
    return blake2b(b"".join(c.c1 + c.c2 for c in deck), digest_size=32).hexdigest()


def _cards(vector: Mapping[str, Any]) -> str | None:
    found = [p.hex() for p in elgamal.card_points(CARDS_IN_DECK)]
    return None if found == vector["points"] else "card points differ"


def _stream(vector: Mapping[str, Any]) -> str | None:
    stream = Stream(bytes.fromhex(vector["seed"]), vector["label"].encode())
    numbers = [stream.below(int(vector["bound"])) for _ in vector["numbers"]]
    return None if numbers == vector["numbers"] else f"numbers {numbers}"


def _keys(vector: Mapping[str, Any]) -> tuple[list[bytes], str | None]:
    table, number = bytes.fromhex(vector["table"]), int(vector["round"])
    secrets = [elgamal.key_secret(seed) for seed in _hex(vector["key_seeds"])]
    for seat, (secret, public, proof) in enumerate(
        zip(secrets, vector["publics"], vector["key_proofs"], strict=True)
    ):
        context = elgamal.key_context(table, number, seat)
        made = elgamal.prove_key(secret, context)
        if elgamal.public_key(secret).hex() != public or [made.e.hex(), made.s.hex()] != proof:
            return secrets, f"seat {seat}'s key or its proof differs"
        if not elgamal.check_key(bytes.fromhex(public), made, context):
            return secrets, f"seat {seat}'s key proof does not check"
    return secrets, None


def _shuffles(vector: Mapping[str, Any], joint: bytes) -> tuple[Deck, str | None]:
    deck = elgamal.initial_deck(CARDS_IN_DECK)
    for seat, seed in enumerate(_hex(vector["shuffle_seeds"])):
        step = elgamal.shuffle(deck, joint, seed)
        deck = step.deck
        if list(step.permutation) != vector["permutations"][seat]:
            return deck, f"seat {seat}'s permutation differs"
        if _digest(deck) != vector["deck_digests"][seat]:
            return deck, f"seat {seat}'s deck differs"
    return deck, None


def _deal(vector: Mapping[str, Any]) -> str | None:
    secrets, failed = _keys(vector)
    joint = elgamal.joint_key(_hex(vector["publics"]))
    if failed or joint.hex() != vector["joint"]:
        return failed or "the joint key differs"
    deck, failed = _shuffles(vector, joint)
    if failed:
        return failed
    token = int(vector["token"])
    card = deck[token]
    if [card.c1.hex(), card.c2.hex()] != vector["card"]:
        return "the masked card differs"
    context = elgamal.opening_context(bytes.fromhex(vector["table"]), int(vector["round"]), token)
    shares = [elgamal.decryption_share(secret, card, context) for secret in secrets]
    if [[s.point.hex(), s.proof.e.hex(), s.proof.s.hex()] for s in shares] != vector["shares"]:
        return "a share or its proof differs"
    code = elgamal.open_card(card, [s.point for s in shares], CARDS_IN_DECK)
    return None if code == vector["code"] else f"opened {code}"


def _share(vector: Mapping[str, Any]) -> str | None:
    c1, c2 = _hex(vector["card"])
    share = Share(
        bytes.fromhex(vector["point"]),
        Proof(bytes.fromhex(vector["e"]), bytes.fromhex(vector["s"])),
    )
    found = elgamal.check_share(
        bytes.fromhex(vector["public"]), Masked(c1, c2), share, bytes.fromhex(vector["context"])
    )
    return None if found == vector["valid"] else f"checked {found}"


def _audit(deals: Sequence[Mapping[str, Any]], vector: Mapping[str, Any]) -> str | None:
    deal = deals[int(vector["deal"])]
    joint = bytes.fromhex(deal["joint"])
    tamper = vector["tamper"]
    deck, shuffles, reveals = elgamal.initial_deck(CARDS_IN_DECK), [], []
    for seat, seed in enumerate(_hex(deal["shuffle_seeds"])):
        step = elgamal.shuffle(deck, joint, seed)
        deck = step.deck
        if tamper is not None and tamper["seat"] == seat:
            cards = list(deck)
            cards[tamper["over"]] = cards[tamper["copy"]]
            deck = tuple(cards)
        shuffles.append(ShuffleMessage(seat, deck))
        reveals.append(AuditMessage(seat, step.permutation, step.masks))
    found = [[c.seat, c.kind.value] for c in audit(joint, CARDS_IN_DECK, shuffles, reveals)]
    return None if found == vector["cheats"] else f"cheats {found}"


def cases(data: Mapping[str, Any]) -> list[Case]:
    checks: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
        "cards": _cards,
        "streams": _stream,
        "deals": _deal,
        "shares": _share,
        "audits": partial(_audit, data.get("deals", [])),
    }
    return [
        Case(str(v.get("spec", "?")), f"{group}: {v.get('name', '?')}", partial(check, v))
        for group, check in checks.items()
        for v in data.get(group, [])
    ]
