"""The door's side of the exchange, sans-IO: one call per input, effects out.

The shell hands the ``Keeper`` each message (``receive``), the node's word on an
admission (``admitted``) and the passing of time (``tick``), always with the time; it
gets back what to do: ``Send`` bytes to a knocker, ``Admit`` a card (then say how that
went), ``Note`` something worth logging once. Randomness (nonces, SPAKE2) comes from
the ``entropy`` function it is given. Nothing from the network raises out of it: a
message it cannot use is dropped and counted in ``stats.malformed``.

The exchange, knocker K to door D (spec/protocol.md section 17)::

    K -> D  KNOCK    table, private, nonce_K, pake_K, card_K
    D -> K  ANSWER   nonce_D, pake_D, card_D, sig_D(T), mac_D(T)     or REFUSED reason
    K -> D  CONFIRM  sig_K(T), mac_K(T)                              or REFUSED reason
    D -> K  WELCOME                                                  or REFUSED reason
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

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
from .guesses import DoorLimits, Guesses
from .handshake import (
    DOOR_LABEL,
    KNOCKER_LABEL,
    PAKE_ENTROPY,
    Pake,
    mac,
    mac_matches,
    transcript,
)


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``data`` to the knocker at routing id ``to``."""

    to: bytes
    data: bytes


@dataclass(frozen=True, slots=True)
class Admit:
    """The exchange with ``to`` has succeeded: admit ``card``, then call ``admitted``."""

    to: bytes
    card: Card


@dataclass(frozen=True, slots=True)
class Note:
    """Something worth logging, once per ``key``; ``serious`` when it is this node's fault."""

    key: str
    text: str
    serious: bool = False


Effect = Send | Admit | Note


@dataclass(slots=True)
class DoorStats:
    """Counters since the door opened."""

    attempts: int = 0
    """well-formed KNOCKs received"""
    admitted: int = 0
    """knockers admitted (``Admit`` carried out)"""
    refused: int = 0
    """knocks refused, abandoned or timed out after they began"""
    throttled: int = 0
    """knocks answered "busy": too many guesses or sessions at once"""
    malformed: int = 0
    """messages dropped because they could not be parsed or did not fit the exchange"""


@dataclass(slots=True)
class _Session:
    source: str
    private: bool
    card: Card
    digest: bytes
    pake_key: bytes | None
    deadline: float


def normal_phrase(passphrase: str | None) -> str | None:
    """An empty passphrase is no passphrase (P-125)."""
    return passphrase if passphrase else None


class Keeper:
    """A node's door, without its socket."""

    def __init__(
        self,
        signer: Signer,
        table: str,
        passphrase: str | None,
        card: Callable[[], Card],
        *,
        entropy: Callable[[int], bytes],
        limits: DoorLimits | None = None,
    ) -> None:
        """``card`` is asked for this node's card at each knock; ``entropy(n)`` gives n
        random bytes."""
        check_table(table)
        self._signer = signer
        self._table = table
        self._passphrase = normal_phrase(passphrase)
        self._card = card
        self._entropy = entropy
        self._limits = limits or DoorLimits()
        self._guesses = Guesses(self._limits)
        self._sessions: dict[bytes, _Session] = {}
        self._admitting: dict[bytes, _Session] = {}
        self.counters = DoorStats()
        """The live counters; the shell adds the faults it meets itself to ``malformed``."""

    @property
    def stats(self) -> DoorStats:
        """A snapshot of the counters."""
        return replace(self.counters)

    @property
    def private(self) -> bool:
        return self._passphrase is not None

    def set_passphrase(self, passphrase: str | None) -> None:
        """Change the phrase (None or "": open table) for knocks that begin from now on."""
        self._passphrase = normal_phrase(passphrase)

    def next_deadline(self) -> float | None:
        """When the earliest knock in progress times out, for the shell's next ``tick``."""
        return min((s.deadline for s in self._sessions.values()), default=None)

    def close(self) -> None:
        """Drop every knock in progress."""
        self._sessions.clear()
        self._admitting.clear()

    # --- inputs ---

    def receive(
        self, peer: bytes, source: str, frames: Sequence[bytes], now: float
    ) -> list[Effect]:
        """One message from the connection ``peer`` (its frames after the routing id).

        ``source`` is the peer's address, whose bucket its guesses spend (P-133).
        """
        effects = self.tick(now)
        if len(frames) != 1:
            return effects + self._malformed("not one frame")
        try:
            kind, fields = decode(frames[0])
        except Malformed as error:
            effects += self._malformed(str(error))
            if str(error) == "version":  # P-122: the one word a door may say to garbage
                effects.append(Send(peer, encode(Kind.REFUSED, "version")))
            return effects
        if kind is Kind.KNOCK:
            return effects + self._knocked(peer, source, fields, now)
        if kind is Kind.CONFIRM:
            return effects + self._confirmed(peer, fields)
        if kind is Kind.REFUSED:
            return effects + self._refused_by_knocker(peer, fields)
        return effects + self._malformed("unexpected " + kind.name)

    def admitted(self, peer: bytes, ok: bool) -> list[Effect]:
        """The node's word on an ``Admit``: whether it took the card."""
        session = self._admitting.pop(peer, None)
        if session is None:
            return []
        if not ok:
            return self._refuse(peer, "refused")
        if session.private:
            self._guesses.give_back(session.source)
        self.counters.admitted += 1
        return [Send(peer, encode(Kind.WELCOME))]

    def tick(self, now: float) -> list[Effect]:
        """End the knocks that have not confirmed in time (P-132)."""
        late = [peer for peer, session in self._sessions.items() if session.deadline <= now]
        for peer in late:
            del self._sessions[peer]
            self.counters.refused += 1
        if not late:
            return []
        return [Note("timeout", "door: a knock was abandoned before it finished")]

    # --- the exchange ---

    def _knocked(self, peer: bytes, source: str, fields: list[Any], now: float) -> list[Effect]:
        table, private, _nonce_k, _pake_k, card_k = fields
        self.counters.attempts += 1
        if self._end(peer) is not None:
            self.counters.refused += 1  # a second knock on one connection ends the first
        if len(self._sessions) >= self._limits.sessions:
            return self._busy(peer)
        phrase = self._passphrase
        reason = self._knock_problem(table, private, phrase, card_k)
        if reason == "wrong passphrase":  # one side has a phrase and the other none
            note = Note("wrong phrase", "door: refused a knock: wrong passphrase")
            return [note, *self._refuse(peer, reason)]
        if reason is not None:
            return self._refuse(peer, reason)
        if phrase is not None and not self._guesses.take(source, now):
            note = Note("throttled", "door: guesses come too fast; answering busy")
            return [note, *self._busy(peer)]
        mine, effects = self._own_card()
        if mine is None:
            effects += self._refuse(peer, "refused")
            if phrase is not None:
                self._guesses.give_back(source)
            return effects
        return self._answer(peer, source, fields, phrase, mine, now)

    def _knock_problem(
        self, table: str, private: bool, phrase: str | None, card: Card
    ) -> str | None:
        """Why a well-formed KNOCK is refused before any work (P-123 to P-126), or None."""
        if table != self._table:
            return "other table"
        if private != (phrase is not None):
            return "wrong passphrase"
        if card_problem(card) is not None:
            return "bad card"
        if card.node_id == self._signer.node_id:
            return "self"
        return None

    def _own_card(self) -> tuple[Card | None, list[Effect]]:
        try:
            mine = self._card()
            check_own_card(mine, self._signer.node_id, self._signer.public_key)
        except Exception as error:
            text = f"door: this node has no card to show; refusing knocks ({error!r})"
            return None, [Note("own card", text, serious=True)]
        return mine, []

    def _answer(
        self,
        peer: bytes,
        source: str,
        fields: list[Any],
        phrase: str | None,
        mine: Card,
        now: float,
    ) -> list[Effect]:
        table, private, nonce_k, pake_k, card_k = fields
        nonce_d = self._entropy(NONCE_SIZE)
        pake_d, pake_key = b"", None
        if phrase is not None:
            pake = Pake(phrase, table, self._entropy(PAKE_ENTROPY))
            pake_d, pake_key = pake.message, pake.finish(pake_k)
            if pake_key is None:
                return self._malformed("bad pake message") + self._refuse(peer, "malformed")
        digest = transcript(table, private, nonce_k, pake_k, card_k, nonce_d, pake_d, mine)
        signature = self._signer.sign(DOOR_LABEL + digest)
        deadline = now + self._limits.session_timeout
        self._sessions[peer] = _Session(source, private, card_k, digest, pake_key, deadline)
        mac_d = mac(pake_key, DOOR_LABEL, digest)
        return [Send(peer, encode(Kind.ANSWER, nonce_d, pake_d, mine, signature, mac_d))]

    def _confirmed(self, peer: bytes, fields: list[Any]) -> list[Effect]:
        signature, mac_k = fields
        session = self._end(peer)
        if session is None:
            return self._malformed("unexpected CONFIRM")
        if session.private:
            if not mac_matches(mac_k, session.pake_key, KNOCKER_LABEL, session.digest):
                note = Note("wrong phrase", "door: refused a knock: wrong passphrase")
                return [note, *self._refuse(peer, "wrong passphrase")]
        elif mac_k:
            return self._refuse(peer, "malformed")
        if not check_signature(session.card.public_key, KNOCKER_LABEL + session.digest, signature):
            note = Note("bad signature", "door: refused a knock: bad signature")
            return [note, *self._refuse(peer, "bad card")]
        self._admitting[peer] = session
        return [Admit(peer, session.card)]

    def _refused_by_knocker(self, peer: bytes, fields: list[Any]) -> list[Effect]:
        session = self._end(peer)
        if session is None:
            return self._malformed("unexpected refusal")
        # P-130: the knocker found the ANSWER wanting; say the same back, so that it
        # knows this side has ended the knock too.
        reason = reason_of(fields[0])
        note = Note("knocker " + reason, f"door: a knocker refused the door: {reason}")
        return [note, *self._refuse(peer, reason)]

    # --- small steps ---

    def _end(self, peer: bytes) -> _Session | None:
        return self._sessions.pop(peer, None)

    def _refuse(self, peer: bytes, reason: str) -> list[Effect]:
        self.counters.refused += 1
        return [Send(peer, encode(Kind.REFUSED, reason))]

    def _busy(self, peer: bytes) -> list[Effect]:
        self.counters.throttled += 1
        return [Send(peer, encode(Kind.REFUSED, "busy"))]

    def _malformed(self, why: str) -> list[Effect]:
        self.counters.malformed += 1
        return [Note(why, f"door: dropped a malformed message ({why})")]
