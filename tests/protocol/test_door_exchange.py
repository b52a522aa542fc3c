"""The door's exchange without sockets: a ``Keeper`` and a ``Knocker`` joined in memory,
with the time and the randomness given (spec/protocol.md section 17)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

import msgpack
import pytest
from dutchblitz.protocol.door.codec import Card, Kind, decode, encode
from dutchblitz.protocol.door.guesses import DoorLimits
from dutchblitz.protocol.door.keeper import Admit, Effect, Keeper, Note, Send
from dutchblitz.protocol.door.knocker import Admitted, Knocker, Refused, Say, Step
from dutchblitz.protocol.wire.auth import Signer

TABLE = "kitchen"
PEER = b"peer-1"
SOURCE = "10.0.0.7"


def signer(n: int) -> Signer:
    return Signer(bytes([n]) * 32)


def card_of(who: Signer, name: str, port: int = 5000) -> Card:
    return Card(who.node_id, who.public_key, f"tcp://127.0.0.1:{port}", name)


def entropy(seed: str) -> Callable[[int], bytes]:
    """A deterministic random source: BLAKE2b of the seed and a counter."""
    counter = itertools.count()

    def draw(size: int) -> bytes:
        out = b""
        while len(out) < size:
            out += hashlib.blake2b(f"{seed}/{next(counter)}".encode()).digest()
        return out[:size]

    return draw


DOOR_CARD = card_of(signer(1), "door", 6001)


def keeper(
    passphrase: str | None = None,
    *,
    limits: DoorLimits | None = None,
    card: Callable[[], Card] = lambda: DOOR_CARD,
    seed: str = "door",
) -> Keeper:
    return Keeper(signer(1), TABLE, passphrase, card, entropy=entropy(seed), limits=limits)


def knocker(n: int = 2, passphrase: str | None = None, *, table: str = TABLE) -> Knocker:
    who = signer(n)
    return Knocker(who, table, passphrase, card_of(who, f"k{n}", 7000 + n), entropy=entropy(str(n)))


def sends(effects: list[Effect]) -> list[bytes]:
    return [e.data for e in effects if isinstance(e, Send)]


def only_send(effects: list[Effect]) -> bytes:
    (data,) = sends(effects)
    return data


def refusal(effects: list[Effect]) -> str:
    kind, fields = decode(only_send(effects))
    assert kind is Kind.REFUSED
    return str(fields[0])


class Exchange:
    """One knock from knocker to keeper, carried out step by step at a given time."""

    def __init__(self, door: Keeper, knocking: Knocker, *, now: float = 0.0) -> None:
        self.door, self.knocking, self.now = door, knocking, now
        self.admitted: list[Card] = []
        self.wire: list[bytes] = []

    def run(self, admit: bool = True, source: str = SOURCE, peer: bytes = PEER) -> Step:
        data = self.knocking.knock()
        while True:
            self.wire.append(data)
            effects = self.door.receive(peer, source, [data], self.now)
            admits = [e for e in effects if isinstance(e, Admit)]
            for effect in admits:
                self.admitted.append(effect.card)
                effects += self.door.admitted(effect.to, admit)
            reply = sends(effects)
            if not reply:
                return Refused("timeout")
            (answer,) = reply
            self.wire.append(answer)
            step = self.knocking.receive(answer)
            if isinstance(step, Say):
                data = step.data
                continue
            if isinstance(step, Refused) and step.say is not None:
                self.wire.append(step.say)
                self.wire.extend(sends(self.door.receive(peer, source, [step.say], self.now)))
            return step


# --- the exchange works ---------------------------------------------------------------------


@pytest.mark.parametrize("phrase", [None, "correct horse battery"])
def test_a_knock_swaps_cards(phrase: str | None) -> None:
    """P-123, P-127, P-129, P-131: each side gets the other's card, the door only after CONFIRM."""
    exchange = Exchange(keeper(phrase), knocker(2, phrase))
    assert exchange.run() == Admitted(DOOR_CARD)
    assert exchange.admitted == [card_of(signer(2), "k2", 7002)]
    kinds = [decode(data)[0] for data in exchange.wire]
    assert kinds == [Kind.KNOCK, Kind.ANSWER, Kind.CONFIRM, Kind.WELCOME]
    stats = exchange.door.stats
    assert (stats.attempts, stats.admitted, stats.refused) == (1, 1, 0)


def test_the_same_randomness_gives_the_same_bytes() -> None:
    """The exchange is a function of its inputs: time and entropy come from outside."""
    first = Exchange(keeper("pw"), knocker(2, "pw"))
    second = Exchange(keeper("pw"), knocker(2, "pw"))
    first.run()
    second.run()
    assert first.wire == second.wire
    other = Exchange(keeper("pw", seed="another"), knocker(2, "pw"))
    other.run()
    assert other.wire[0] == first.wire[0] and other.wire[1] != first.wire[1]


def test_a_wrong_phrase_is_refused_by_both_sides() -> None:
    """P-129, P-130: the knocker says why; the door says the same back and admits nobody."""
    exchange = Exchange(keeper("correct horse battery"), knocker(2, "correct horse batterx"))
    step = exchange.run()
    assert step == Refused("wrong passphrase", encode(Kind.REFUSED, "wrong passphrase"))
    assert exchange.admitted == []
    assert decode(exchange.wire[-1]) == (Kind.REFUSED, ["wrong passphrase"])
    assert exchange.door.stats.refused == 1


def test_the_phrase_is_compared_after_unicode_normalisation() -> None:
    """P-128."""
    assert Exchange(keeper("caf\u00e9"), knocker(2, "cafe\u0301")).run() == Admitted(DOOR_CARD)


@pytest.mark.parametrize(
    ("door_phrase", "knocker_phrase", "table", "n", "reason"),
    [
        (None, None, "lounge", 2, "other table"),  # P-124
        ("secret", None, TABLE, 2, "wrong passphrase"),  # P-125
        (None, "secret", TABLE, 2, "wrong passphrase"),  # P-125
        (None, None, TABLE, 1, "self"),  # P-126
    ],
)
def test_a_knock_the_door_refuses_at_once(
    door_phrase: str | None, knocker_phrase: str | None, table: str, n: int, reason: str
) -> None:
    door = keeper(door_phrase)
    assert Exchange(door, knocker(n, knocker_phrase, table=table)).run() == Refused(reason)
    assert (door.stats.attempts, door.stats.refused, door.stats.admitted) == (1, 1, 0)


def test_an_empty_phrase_is_no_phrase() -> None:
    """P-125."""
    door = keeper("")
    assert not door.private
    assert Exchange(door, knocker(2, "")).run() == Admitted(DOOR_CARD)
    door.set_passphrase("now private")
    assert door.private
    assert Exchange(door, knocker(3)).run() == Refused("wrong passphrase")


def test_a_card_whose_id_is_not_its_keys_is_refused() -> None:
    """P-123, the door's side."""
    honest = card_of(signer(2), "k")
    forged = Card(signer(3).node_id, honest.public_key, honest.table_endpoint, "x")
    knock = encode(Kind.KNOCK, TABLE, False, b"\x01" * 32, b"", forged)
    assert refusal(keeper().receive(PEER, SOURCE, [knock], 0.0)) == "bad card"


def test_a_knocker_that_cannot_sign_for_its_key_is_refused() -> None:
    """P-127, the door's side."""
    door = keeper()
    knock = encode(Kind.KNOCK, TABLE, False, b"\x01" * 32, b"", card_of(signer(2), "victim"))
    assert decode(only_send(door.receive(PEER, SOURCE, [knock], 0.0)))[0] is Kind.ANSWER
    confirm = encode(Kind.CONFIRM, signer(9).sign(b"anything"), b"")
    assert refusal(door.receive(PEER, SOURCE, [confirm], 0.0)) == "bad card"
    assert door.stats.refused == 1


def test_a_node_that_will_not_take_the_card_refuses_the_knock() -> None:
    door = keeper("pw", limits=DoorLimits(source_burst=1, source_every=1000.0))
    exchange = Exchange(door, knocker(2, "pw"))
    assert exchange.run(admit=False) == Refused("refused")
    assert len(exchange.admitted) == 1 and door.stats.admitted == 0
    # The guess was spent: a refused admission gives no token back.
    assert Exchange(door, knocker(3, "pw")).run() == Refused("busy")


def test_a_door_without_a_card_refuses_and_says_so_once() -> None:
    def no_card() -> Card:
        raise RuntimeError("not listening yet")

    door = keeper("pw", card=no_card, limits=DoorLimits(source_burst=1, source_every=1000.0))
    knocking = knocker(2, "pw")
    effects = door.receive(PEER, SOURCE, [knocking.knock()], 0.0)
    notes = [e for e in effects if isinstance(e, Note)]
    assert [(n.key, n.serious) for n in notes] == [("own card", True)]
    assert refusal(effects) == "refused"
    # Not the knocker's fault: its guess is given back, so it is not busy.
    again = door.receive(b"p2", SOURCE, [knocker(3, "pw").knock()], 0.0)
    assert refusal(again) == "refused"


# --- time, given as input ---------------------------------------------------------------------


def test_an_abandoned_knock_ends_at_its_deadline() -> None:
    """P-131, P-132: an ANSWER without a CONFIRM admits nobody and ends after the timeout."""
    door = keeper("p", limits=DoorLimits(session_timeout=10.0))
    knocking = knocker(2, "p")
    answer = only_send(door.receive(PEER, SOURCE, [knocking.knock()], 100.0))
    assert door.next_deadline() == 110.0
    assert door.tick(109.9) == []
    notes = door.tick(110.0)
    assert [n.key for n in notes if isinstance(n, Note)] == ["timeout"]
    assert door.stats.refused == 1 and door.next_deadline() is None
    confirm = knocking.receive(answer)
    assert isinstance(confirm, Say)
    effects = door.receive(PEER, SOURCE, [confirm.data], 110.5)
    assert sends(effects) == [] and door.stats.malformed == 1


def test_a_late_confirm_finds_its_knock_ended() -> None:
    """Any input with a later time ends what is overdue first."""
    door = keeper(limits=DoorLimits(session_timeout=1.0))
    knocking = knocker(2)
    confirm = knocking.receive(only_send(door.receive(PEER, SOURCE, [knocking.knock()], 0.0)))
    assert isinstance(confirm, Say)
    assert sends(door.receive(PEER, SOURCE, [confirm.data], 5.0)) == []
    assert (door.stats.refused, door.stats.malformed, door.stats.admitted) == (1, 1, 0)


def test_failed_guesses_are_throttled_by_source_and_earned_back_with_time() -> None:
    """P-133: the source's bucket; a token every ``source_every`` seconds."""
    door = keeper("hunter2", limits=DoorLimits(source_burst=3, source_every=10.0))
    for n in range(3):
        assert Exchange(door, knocker(10 + n, f"guess{n}")).run() == Refused(
            "wrong passphrase", encode(Kind.REFUSED, "wrong passphrase")
        )
    assert Exchange(door, knocker(20, "hunter2")).run() == Refused("busy")
    assert Exchange(door, knocker(20, "hunter2"), now=9.9).run() == Refused("busy")
    assert Exchange(door, knocker(20, "hunter2"), now=10.0).run() == Admitted(DOOR_CARD)
    other_source = Exchange(door, knocker(21, "hunter2"))
    assert other_source.run(source="10.0.0.8") == Admitted(DOOR_CARD)
    stats = door.stats
    assert (stats.refused, stats.throttled, stats.admitted) == (3, 2, 2)


def test_the_global_cap_holds_and_successes_cost_nothing() -> None:
    """P-133: the global bucket; admissions give their tokens back."""
    door = keeper("hunter2", limits=DoorLimits(source_burst=100, global_burst=2, global_every=1e3))
    for n in range(5):
        assert Exchange(door, knocker(10 + n, "hunter2")).run() == Admitted(DOOR_CARD)
    wrong = Refused("wrong passphrase", encode(Kind.REFUSED, "wrong passphrase"))
    for n in range(2):
        assert Exchange(door, knocker(20, f"x{n}")).run(source=f"s{n}") == wrong
    assert Exchange(door, knocker(20, "hunter2")).run(source="s9") == Refused("busy")


def test_too_many_knocks_at_once_are_busy() -> None:
    door = keeper(limits=DoorLimits(sessions=2))
    for n in range(2):
        door.receive(b"p%d" % n, SOURCE, [knocker(10 + n).knock()], 0.0)
    assert refusal(door.receive(b"p9", SOURCE, [knocker(19).knock()], 0.0)) == "busy"
    assert door.stats.throttled == 1


def test_a_second_knock_on_one_connection_ends_the_first() -> None:
    door = keeper()
    door.receive(PEER, SOURCE, [knocker(2).knock()], 0.0)
    assert decode(only_send(door.receive(PEER, SOURCE, [knocker(3).knock()], 0.0)))[0] is (
        Kind.ANSWER
    )
    assert (door.stats.attempts, door.stats.refused) == (2, 1)


# --- garbage --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("frames", "why"),
    [
        ([b"\xc1"], "not msgpack"),
        ([msgpack.packb([1, 4]), msgpack.packb([1, 4])], "not one frame"),
        ([msgpack.packb([1, 4])], "unexpected WELCOME"),
        ([msgpack.packb([1, 3, b"\x00" * 64, b""])], "unexpected CONFIRM"),
        ([msgpack.packb([1, 5, "busy"])], "unexpected refusal"),
    ],
)
def test_garbage_is_dropped_counted_and_unanswered(frames: list[bytes], why: str) -> None:
    """P-121, P-122."""
    door = keeper()
    effects = door.receive(PEER, SOURCE, frames, 0.0)
    assert effects == [Note(why, f"door: dropped a malformed message ({why})")]
    assert door.stats.malformed == 1


def test_another_version_gets_one_word_back() -> None:
    """P-122."""
    door = keeper()
    assert refusal(door.receive(PEER, SOURCE, [msgpack.packb([2, 1])], 0.0)) == "version"
    assert door.stats.malformed == 1


def test_a_pake_message_that_is_no_point_is_refused() -> None:
    door = keeper("pw")
    knock = encode(
        Kind.KNOCK, TABLE, True, b"\x03" * 32, b"S" + b"\xff" * 32, card_of(signer(2), "k")
    )
    assert refusal(door.receive(PEER, SOURCE, [knock], 0.0)) == "malformed"
    assert door.stats.malformed == 1


# --- the knocker's side ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (b"\xc1", "malformed"),
        (msgpack.packb([2, 2]), "version"),
        (encode(Kind.WELCOME), "malformed"),
        (encode(Kind.REFUSED, "busy"), "busy"),
        (encode(Kind.REFUSED, "go away"), "refused"),
    ],
)
def test_a_knocker_reads_a_reply_it_cannot_use_as_a_refusal(reply: bytes, reason: str) -> None:
    knocking = knocker()
    knocking.knock()
    assert knocking.receive(reply) == Refused(reason)


def test_a_knocker_refuses_an_answer_with_its_own_card_and_says_so() -> None:
    """P-126, P-130, the knocker's side."""
    knocking = knocker(2)
    knocking.knock()
    own = card_of(signer(2), "me")
    answer = encode(Kind.ANSWER, b"\x02" * 32, b"", own, b"\x00" * 64, b"")
    assert knocking.receive(answer) == Refused("self", encode(Kind.REFUSED, "self"))


def test_a_knocker_refuses_a_reflected_pake_message() -> None:
    knocking = knocker(2, "pw")
    _, (_table, _private, nonce_k, pake_k, _card) = decode(knocking.knock())
    answer = encode(Kind.ANSWER, nonce_k, pake_k, DOOR_CARD, b"\x00" * 64, b"\x00" * 32)
    assert knocking.receive(answer) == Refused("malformed", encode(Kind.REFUSED, "malformed"))


def test_a_knocker_is_used_in_order() -> None:
    knocking = knocker()
    with pytest.raises(RuntimeError):
        knocking.receive(encode(Kind.WELCOME))
    knocking.knock()
    with pytest.raises(RuntimeError):
        knocking.knock()


def test_a_knocker_will_not_show_a_card_that_is_not_its_own() -> None:
    forged = Card(signer(3).node_id, signer(2).public_key, "tcp://127.0.0.1:1", "x")
    with pytest.raises(ValueError):
        Knocker(signer(2), TABLE, None, forged, entropy=entropy("x"))
    with pytest.raises(ValueError):
        Knocker(signer(2), "t" * 33, None, card_of(signer(2), "k"), entropy=entropy("x"))
