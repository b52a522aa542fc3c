"""What one seat knows of a round of Dutch beyond the table, and what it owes the table.

Everything here follows from the table's state (table.py), which every node holds alike,
and the seat's own secrets (``SeatSecrets``: the round's private seed and the node key's
X25519 pair). From the private seed come the seat's key seed and shuffle seed (M-5, M-11)
and each seal's seed (M-25); the private seed itself never travels, so the key secret stays
secret forever and the audit reveals only the shuffle's permutation and masks (M-20). The
faces opened to this seat are worked out from the sealed shares in the log and its own
share: a node that restarts works them out again, and knows no more than before.
"""

from __future__ import annotations

from collections.abc import Callable
from hashlib import blake2b
from typing import Any, Final

from ...table.masked.checks import (
    AuditMessage,
    HandoverMessage,
    KeyShareMessage,
    SealedShareMessage,
    ShareMessage,
    ShuffleMessage,
)
from ...table.masked.deck import key_context, opening_context
from ...table.masked.elgamal import Share
from ...table.masked.seal import SealedShare
from ...table.rules import SeatSecrets
from ...wire.messages import GameBody
from .bots import BotLevel, bot_move
from .cards import DutchCard
from .hidden import DECK
from .moves import Move, Opening
from .state import Round, with_faces
from .table import DutchTable, Stage
from .wire import (
    GAME_ID,
    Message,
    Payload,
    SharesMessage,
    TokenShare,
    encode,
)

PRIVATE_PERSON: Final = b"dutch-private-v1"


def derived(private: bytes, *parts: bytes) -> bytes:
    """M-36: a seed drawn from the round's private seed: BLAKE2b-256 keyed by it, of the
    parts, each preceded by its length."""
    data = b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    return blake2b(data, digest_size=32, key=private, person=PRIVATE_PERSON).digest()


def key_secret(secrets: SeatSecrets) -> bytes:
    found = secrets.memo.get("key")
    if found is None:
        found = DECK.secret(derived(secrets.private, b"key"))
        secrets.memo["key"] = found
    assert isinstance(found, bytes)
    return found


def shuffle_seed(secrets: SeatSecrets) -> bytes:
    return derived(secrets.private, b"shuffle")


def seal_seed(secrets: SeatSecrets, token: int, to: int) -> bytes:
    return derived(secrets.private, b"seal", bytes([token, to]))


def _body(round_number: int, message: Message) -> GameBody:
    return GameBody(GAME_ID, encode(Payload(round_number, message)))


def _share(table: DutchTable, secrets: SeatSecrets, token: int) -> Share:
    made: dict[int, Share] = secrets.memo.setdefault("shares", {})
    share = made.get(token)
    if share is None:
        context = opening_context(table.binding, secrets.round, token)
        share = DECK.share(key_secret(secrets), table.deal.deck()[token], context)
        made[token] = share
    return share


def _remembered(
    secrets: SeatSecrets, key: tuple[object, ...], make: Callable[[], GameBody]
) -> GameBody:
    """A body this seat owes, made once: duties are asked again until it is in the log."""
    made: dict[tuple[object, ...], GameBody] = secrets.memo.setdefault("bodies", {})
    body = made.get(key)
    if body is None:
        body = made[key] = make()
    return body


def duties(table: DutchTable, me: int, secrets: SeatSecrets) -> list[GameBody]:
    """The bodies Dutch seat ``me`` owes now (M-30 to M-34)."""
    if me in table.left:
        return []
    number = secrets.round
    if table.stage is Stage.KEYS and me not in table.deal.publics:
        secret = key_secret(secrets)
        context = key_context(table.binding, number, me)
        proof = DECK.prove_key(secret, context)
        return [_body(number, KeyShareMessage(me, DECK.public(secret), proof))]
    if table.stage is Stage.SHUFFLE and len(table.deal.shuffles) == me:
        return [_remembered(secrets, ("shuffle",), lambda: _shuffled(table, me, secrets))]
    if table.stage is Stage.AUDIT and me not in table.deal.audits:
        seed = shuffle_seed(secrets)
        permutation, masks = DECK.revealed(seed)
        return [_body(number, AuditMessage(me, permutation, masks))]
    tokens = tuple(sorted(t for t in table.wanted() if me not in table.deal.shares.get(t, {})))
    owed = []
    if tokens:
        owed.append(
            _remembered(secrets, ("shares", tokens), lambda: _shares(table, me, secrets, tokens))
        )
    for grant in table.owed_sealed(me):
        assert grant.seat is not None
        owed.append(
            _remembered(
                secrets,
                ("sealed", grant.token, grant.seat),
                lambda grant=grant: _sealed(table, me, secrets, grant),  # type: ignore[misc]
            )
        )
    return owed


def _shares(table: DutchTable, me: int, secrets: SeatSecrets, tokens: tuple[int, ...]) -> GameBody:
    """M-31, M-40: this seat's shares of the cards wanted, to all: one SHARE, or one SHARES."""
    if len(tokens) == 1:
        return _body(
            secrets.round, ShareMessage(me, tokens[0], None, _share(table, secrets, tokens[0]))
        )
    items = []
    for token in tokens:
        share = _share(table, secrets, token)
        items.append(TokenShare(token, share.point, share.proof))
    return _body(secrets.round, SharesMessage(me, tuple(items)))


def _shuffled(table: DutchTable, me: int, secrets: SeatSecrets) -> GameBody:
    before = table.deal.shuffles[-1].deck if table.deal.shuffles else DECK.initial()
    assert table.deal.joint is not None
    step = DECK.shuffle(before, table.deal.joint, shuffle_seed(secrets))
    return _body(secrets.round, ShuffleMessage(me, step.deck))


def _sealed(table: DutchTable, me: int, secrets: SeatSecrets, grant: Opening) -> GameBody:
    """M-25: this seat's share of the granted card, encrypted to its recipient's round key."""
    assert grant.seat is not None
    context = opening_context(table.binding, secrets.round, grant.token)
    sealed = DECK.seal(
        key_secret(secrets),
        table.deal.deck()[grant.token],
        table.deal.publics[grant.seat],
        context,
        seal_seed(secrets, grant.token, grant.seat),
    )
    return _body(secrets.round, SealedShareMessage(me, grant.token, grant.seat, sealed))


def faces(table: DutchTable, me: int, secrets: SeatSecrets) -> dict[int, DutchCard]:
    """M-33: the cards opened to Dutch seat ``me`` alone whose every share is in: the sealed
    shares opened with the node key, each checked (M-26), and its own share added."""
    known: dict[int, DutchCard] = secrets.memo.setdefault("faces", {})
    if table.round is None:
        return known
    for grant in table.grants:
        if grant.seat != me or grant.token in known:
            continue
        sealed = table.deal.sealed.get((grant.token, me), {})
        if any(s not in sealed for s in _sealers(table, me)):
            continue
        code = _open(table, me, secrets, grant.token, sealed)
        if code is not None:
            known[grant.token] = DutchCard(code)
    return known


def _sealers(table: DutchTable, me: int) -> list[int]:
    """The seats whose sealed share ``me`` needs: every other seat but one that handed its
    shares over (M-37)."""
    return [s for s in range(table.players) if s != me and s not in table.deal.handovers]


def _open(
    table: DutchTable, me: int, secrets: SeatSecrets, token: int, sealed: dict[int, SealedShare]
) -> int | None:
    """M-26: every other seat's share, unsealed (each was checked on arrival) or from its
    handover (M-37), and this seat's own."""
    points = []
    for seat in range(table.players):
        if seat == me:
            points.append(_share(table, secrets, token).point)
        elif seat in table.deal.handovers:
            points.append(table.deal.handovers[seat][token])
        else:
            points.append(DECK.unseal(key_secret(secrets), sealed[seat]))
    return DECK.open(table.deal.deck()[token], points)


def farewell(table: DutchTable, me: int, secrets: SeatSecrets) -> list[GameBody]:
    """M-37: what Dutch seat ``me`` sends before its goodbye while the round's cards are
    in play: its share of every card, so that the round goes on without it."""
    if table.stage not in (Stage.PLAY, Stage.REVEAL) or me in table.left:
        return []
    shares = tuple(_share(table, secrets, token) for token in range(len(table.deal.deck())))
    return [_body(secrets.round, HandoverMessage(me, shares))]


def known_round(table: DutchTable, me: int, secrets: SeatSecrets) -> Round | None:
    """The round as Dutch seat ``me`` knows it: the table's, with its own faces added."""
    if table.round is None:
        return None
    return known(table.round, faces(table, me, secrets))


def known(state: Round, mine: dict[int, DutchCard]) -> Round:
    """``state`` with the faces a seat learnt added (those the table has opened to all
    already stay as they are)."""
    missing = {t: c for t, c in mine.items() if state.faces[t] is None}
    return with_faces(state, missing) if missing else state


def bot(table: DutchTable, me: int, secrets: SeatSecrets, level: str) -> GameBody | None:
    """A bot's next move, decided from what its seat knows (bots.py), or None to wait."""
    if table.stage is not Stage.PLAY or me in table.left:
        return None
    if any(seat == me for seat, _ in table.queue):
        return None  # a move of ours waits for its card: nothing more until it is played
    state = known_round(table, me, secrets)
    if state is None or state.drawn_unseen(me):
        return None
    move: Move | None = bot_move(state, me, _level(level))
    return None if move is None else _body(secrets.round, move)


def _level(level: Any) -> BotLevel:
    try:
        return BotLevel(str(level))
    except ValueError:
        return BotLevel.CAREFUL
