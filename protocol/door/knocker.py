"""The knocker's side of the exchange, sans-IO: ``knock`` gives the first message, and
``receive`` takes each reply and says what to do next.

The shell sends what it is told, and keeps the clock: it gives up with "timeout" when
no reply comes in time. Randomness (the nonce, SPAKE2) comes from ``entropy``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..wire.auth import Signer, check_signature
from .codec import (
    NONCE_SIZE,
    Card,
    Kind,
    Malformed,
    card_problem,
    check_own_card,
    check_table,
    decode,
    encode,
    reason_of,
)
from .handshake import (
    DOOR_LABEL,
    KNOCKER_LABEL,
    PAKE_ENTROPY,
    Pake,
    mac,
    mac_matches,
    transcript,
)
from .keeper import normal_phrase


@dataclass(frozen=True, slots=True)
class Say:
    """Send ``data`` to the door and wait for its next reply."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Refused:
    """The knock has failed for ``reason``; first ``say`` this to the door, if anything,
    and give it a moment to agree (P-130)."""

    reason: str
    say: bytes | None = None


@dataclass(frozen=True, slots=True)
class Admitted:
    """The door has let this node in; ``card`` is the door's."""

    card: Card


Step = Say | Refused | Admitted
_Ending = TypeVar("_Ending", Refused, Admitted)


class _Stage(enum.Enum):
    NEW = "new"
    ANSWER = "waiting for the ANSWER"
    WELCOME = "waiting for the WELCOME"
    DONE = "done"


class Knocker:
    """One knock at one door, without its socket."""

    def __init__(
        self,
        signer: Signer,
        table: str,
        passphrase: str | None,
        mine: Card,
        *,
        entropy: Callable[[int], bytes],
    ) -> None:
        """Raises ``ValueError`` for a card or table name this node cannot show."""
        check_own_card(mine, signer.node_id, signer.public_key)
        check_table(table)
        self._signer = signer
        self._table = table
        self._phrase = normal_phrase(passphrase)
        self._mine = mine
        self._entropy = entropy
        self._stage = _Stage.NEW
        self._nonce_k = b""
        self._pake: Pake | None = None
        self._door_card: Card | None = None

    @property
    def private(self) -> bool:
        return self._phrase is not None

    def knock(self) -> bytes:
        """The KNOCK to send (on a private table this runs SPAKE2's first half)."""
        self._expect(_Stage.NEW)
        self._nonce_k = self._entropy(NONCE_SIZE)
        if self._phrase is not None:
            self._pake = Pake(self._phrase, self._table, self._entropy(PAKE_ENTROPY))
        self._stage = _Stage.ANSWER
        return encode(
            Kind.KNOCK, self._table, self.private, self._nonce_k, self._pake_k, self._mine
        )

    def receive(self, data: bytes) -> Step:
        """The door's reply: what to do next."""
        if self._stage not in (_Stage.ANSWER, _Stage.WELCOME):
            raise RuntimeError(f"a reply from the door while {self._stage.value}")
        try:
            kind, fields = decode(data)
        except Malformed as error:
            return self._over(Refused("version" if str(error) == "version" else "malformed"))
        if kind is Kind.REFUSED:
            return self._over(Refused(reason_of(fields[0])))
        if self._stage is _Stage.ANSWER and kind is Kind.ANSWER:
            return self._answered(fields)
        if self._stage is _Stage.WELCOME and kind is Kind.WELCOME:
            assert self._door_card is not None
            return self._over(Admitted(self._door_card))
        return self._over(Refused("malformed"))

    @property
    def _pake_k(self) -> bytes:
        return b"" if self._pake is None else self._pake.message

    def _answered(self, fields: list[Any]) -> Step:
        nonce_d, pake_d, card_d, sig_d, mac_d = fields
        problem = self._answer_problem(pake_d, card_d)
        if problem is not None:
            return self._give_up(problem)
        pake_key = None
        if self._pake is not None:
            pake_key = self._pake.finish(pake_d)
            if pake_key is None:
                return self._give_up("malformed")
        digest = transcript(
            self._table,
            self.private,
            self._nonce_k,
            self._pake_k,
            self._mine,
            nonce_d,
            pake_d,
            card_d,
        )
        if self.private and not mac_matches(mac_d, pake_key, DOOR_LABEL, digest):
            return self._give_up("wrong passphrase")
        if not check_signature(card_d.public_key, DOOR_LABEL + digest, sig_d):
            return self._give_up("bad card")
        self._door_card = card_d
        self._stage = _Stage.WELCOME
        signature = self._signer.sign(KNOCKER_LABEL + digest)
        return Say(encode(Kind.CONFIRM, signature, mac(pake_key, KNOCKER_LABEL, digest)))

    def _answer_problem(self, pake_d: bytes, card_d: Card) -> str | None:
        """Why an ANSWER is refused before any SPAKE2 work (P-123, P-125, P-126), or None."""
        if bool(pake_d) != self.private:
            return "wrong passphrase"
        if card_problem(card_d) is not None:
            return "bad card"
        if card_d.node_id == self._mine.node_id:
            return "self"
        return None

    def _give_up(self, reason: str) -> Refused:
        return self._over(Refused(reason, encode(Kind.REFUSED, reason)))

    def _over(self, step: _Ending) -> _Ending:
        self._stage = _Stage.DONE
        return step

    def _expect(self, stage: _Stage) -> None:
        if self._stage is not stage:
            raise RuntimeError(f"the knock is {self._stage.value}, not {stage.value}")
