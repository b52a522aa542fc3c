"""Blitz! at the table (spec/faceoff.md section 9, F-46 to F-56): its bodies, its chains
and openings, wishes, windows, ties and leaving, on the hosted game without a network."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dutchblitz.client.games.faceoff import words
from dutchblitz.protocol.games.faceoff import bots
from dutchblitz.protocol.games.faceoff.decks import binding
from dutchblitz.protocol.games.faceoff.host import GAME
from dutchblitz.protocol.games.faceoff.moves import TurnFrom
from dutchblitz.protocol.games.faceoff.pack import table_digest as digest
from dutchblitz.protocol.games.faceoff.state import Mode, Phase
from dutchblitz.protocol.games.faceoff.table import FaceoffTable, Stage
from dutchblitz.protocol.games.faceoff.wire import (
    Chain,
    Claimed,
    Closed,
    Conceded,
    Contested,
    Link,
    Payload,
    Said,
    Voted,
    WireError,
    Wish,
    decode,
    encode,
)
from dutchblitz.protocol.table import openings
from dutchblitz.protocol.table.rules import SeatSecrets

from tests.games.faceoff.hostrig import dealt, decoded, duties, send

SPEC = Path(__file__).resolve().parents[3] / "spec" / "faceoff.md"
MESSAGES = [
    Chain(b"\1" * 32, b"\2" * 32),
    Link(513, b"\3" * 32),
    Wish(1),
    Said(7, "Beyoncé"),
    Claimed(9),
    Conceded(),
    Contested(),
    Voted(True),
    Voted(False),
    Closed(4),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_f46_every_body_reads_back(message: object) -> None:
    payload = Payload(5, message)  # type: ignore[arg-type]
    assert decode(encode(payload)) == payload


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("00000001", "short"),
        ("0000000109", "unknown_kind"),
        ("0000000102", "bad_length"),
        ("00000001020000", "bad_length"),
        ("000000010702", "bad_vote"),
        ("0000000103000000", "bad_length"),
        ("0000000103" + "00000000" + "ff", "not_utf8"),
        ("0000000103" + "00000000" + "61" * 121, "long_text"),
    ],
)
def test_f46_a_payload_that_does_not_read_is_refused(raw: str, reason: str) -> None:
    with pytest.raises(WireError) as refused:
        decode(bytes.fromhex(raw))
    assert refused.value.reason == reason


def _turn_until(table: FaceoffTable, keys: list[SeatSecrets], phase: Phase) -> None:
    """Turn cards, each by its turner's wish and every seat's links, until ``phase``."""
    for _ in range(60):
        if table.game.phase is phase:
            return
        game = table.game
        assert game.phase in (Phase.TURN, Phase.ROLL), game.phase
        if game.phase is Phase.TURN:
            wish = bots.bot_move(game, game.turn, bots.LEVELS["sharp"], _Still())
            assert isinstance(wish, TurnFrom)
            assert send(table, table.seats[game.turn], Wish(wish.pile)) is None
        duties(table, keys)
    raise AssertionError(f"no {phase} in 60 turns")


class _Still:
    def random(self) -> float:
        return 0.5


def test_f47_every_seat_sends_its_chain_first_with_its_pack_s_digest() -> None:
    table, keys = dealt()
    assert table.stage is Stage.CHAINS
    first = GAME.seat_duties(table, 0, keys[0])
    assert [type(decoded(b)) for b in first] == [Chain]
    assert decoded(first[0]) == Chain(
        digest(), openings.chain(keys[0].private, b"faceoff-openings")[0]
    )
    assert send(table, 0, first[0]) is None
    assert send(table, 0, first[0]).reason == "chain_sent"  # type: ignore[union-attr]
    assert send(table, table.game.turn, Wish(0)).reason == "chains_open"  # type: ignore[union-attr]
    duties(table, keys)
    assert table.stage is Stage.PLAY


def test_f47_a_seat_with_another_pack_is_left_out_and_the_table_plays_on() -> None:
    """F-33, F-47: its chain names another digest; nobody waits for it, its screen says so."""
    table, keys = dealt()
    assert send(table, 1, Chain(b"\0" * 32, b"\0" * 32)) is None
    assert table.strangers == {1} and 1 not in table.game.active
    duties(table, keys, skip=frozenset({1}))
    assert table.stage is Stage.PLAY
    shown = GAME.seat_view(table, 0, None)
    assert shown is not None and shown.strangers == {1}
    names = ("Ada", "Bo", "Cy", "Di")
    assert "another pack" in words.strangers_line(shown, names) and "Bo" in words.strangers_line(
        shown, names
    )
    alone = GAME.seat_view(table, 1, None)
    assert alone is not None


def test_f48_f49_a_card_is_opened_by_every_seat_s_link() -> None:
    table, keys = dealt()
    duties(table, keys)
    turner = table.game.turn
    other = (turner + 1) % 4
    assert send(table, other, Wish(0)).reason == "not_your_turn"  # type: ignore[union-attr]
    assert send(table, 0, Link(1, b"\0" * 32)).reason == "no_opening"  # type: ignore[union-attr]
    assert send(table, turner, Wish(0)) is None
    assert send(table, turner, Wish(1)).reason == "asked"  # type: ignore[union-attr]
    links = {s: openings.chain(keys[s].private, b"faceoff-openings")[1] for s in range(4)}
    assert send(table, 0, Link(1, b"\0" * 32)).reason == "bad_link"  # type: ignore[union-attr]
    assert send(table, 0, Link(2, links[0])).reason == "no_opening"  # type: ignore[union-attr]
    unseen = sorted(table.game.unseen)
    for seat in range(3):
        assert send(table, seat, Link(1, links[seat])) is None
        assert table.game.turned == 0  # not known before the last link
    assert send(table, 0, Link(1, links[0])).reason == "link_sent"  # type: ignore[union-attr]
    assert send(table, 3, Link(1, links[3])) is None
    card = unseen[openings.pick(openings.opened(1, links, range(4)), len(unseen))]
    assert table.game.turned == 1 and card not in table.game.unseen


def test_f34_f48_no_seat_knows_the_next_card_before_the_last_link() -> None:
    """Every link but the last fixed: the last seat's link alone still moves the card, so
    the three who sent theirs could not know it; and the last seat could not choose its link."""
    cards = set()
    for salt in range(12):
        table, keys = dealt(salt=b"")
        last = dealt(salt=bytes([salt + 1]))[1][3]
        keys[3] = last
        duties(table, keys)
        assert send(table, table.game.turn, Wish(0)) is None
        duties(table, keys)
        played = [p for p in table.game.play if p] + [list(table.game.duels)]
        cards.add(next(card for pile in played for card in pile))
    assert len(cards) > 6


def test_f48_the_die_is_an_opening() -> None:
    table, keys = dealt()
    duties(table, keys)
    for _ in range(200):
        game = table.game
        if game.die is not None or game.phase is Phase.OVER:
            break
        if game.phase is Phase.FACEOFF and game.faceoff is not None:
            assert send(table, table.seats[game.faceoff.a], Conceded()) is None
        elif game.phase is Phase.TURN:
            wish = bots.bot_move(game, game.turn, bots.LEVELS["sharp"], _Still())
            assert isinstance(wish, TurnFrom)
            assert send(table, game.turn, Wish(wish.pile)) is None
        duties(table, keys)
    assert table.game.die is not None and 0 <= table.game.die < 6


def test_f51_the_deal_picks_the_first_turner_and_the_mode() -> None:
    """F-51: the binding picks the first turner; the option, typed or spoken; most won wins."""
    typed, _ = dealt(typed=True)
    spoken, _ = dealt(typed=False)
    assert (typed.game.mode, spoken.game.mode) == (Mode.TYPED, Mode.SPOKEN)
    orders = {seat: list(GAME.deck(seat)) for seat in range(4)}
    assert typed.game.turn == binding(orders, range(4))[0] % 4
    assert GAME.final_winner({0: 3, 1: 5, 2: 5}) == 1
    assert GAME.game_winner({0: 3, 1: 5, 2: 5}, 75) == 1


def _faceoff(typed: bool = True) -> tuple[FaceoffTable, list[SeatSecrets]]:
    table, keys = dealt(typed=typed)
    duties(table, keys)
    _turn_until(table, keys, Phase.FACEOFF)
    return table, keys


def test_f50_f52_an_unlisted_answer_waits_for_its_window() -> None:
    """F-50, F-52: a said body is the rules' answer; its window closes by number."""
    table, _ = _faceoff()
    duel = table.game.faceoff
    assert duel is not None
    assert send(table, duel.a, Said(table.moves, "zzzz not listed")) is None
    assert table.window == 1
    assert GAME.timed_duty(table, duel.b, 1) is not None
    assert send(table, duel.b, Closed(0)).reason == "stale_window"  # type: ignore[union-attr]
    won = len(table.game.won[duel.a])
    assert send(table, duel.b, Closed(1)) is None
    assert len(table.game.won[duel.a]) == won + 1
    assert send(table, duel.a, Closed(1)).reason == "stale_window"  # type: ignore[union-attr]


def test_f50_f52_a_contest_opens_a_vote_with_its_own_window() -> None:
    table, _ = _faceoff()
    duel = table.game.faceoff
    assert duel is not None
    assert send(table, duel.a, Said(table.moves, "zzzz not listed")) is None
    assert send(table, duel.b, Contested()) is None
    assert table.window == 2
    assert send(table, duel.b, Closed(1)).reason == "stale_window"  # type: ignore[union-attr]
    for seat in range(4):
        assert send(table, seat, Voted(seat == duel.a)) is None
    assert table.game.faceoff is None or table.game.faceoff.claimant is None


def test_f53_two_claims_sent_unseen_are_a_tie() -> None:
    """F-53: concurrent claims of the two face-off players are a tie (F-35)."""
    table, _ = _faceoff(typed=False)
    duel = table.game.faceoff
    assert duel is not None
    seen = table.moves
    assert send(table, duel.a, Claimed(seen)) is None
    assert send(table, duel.b, Claimed(seen)) is None  # it had not seen a's claim
    assert table.game.phase in (Phase.TIE_DRAW, Phase.FACEOFF)
    assert table.game.faceoff is not None and table.game.faceoff.claimant is None


def test_f53_a_claim_sent_after_seeing_the_other_is_refused_pending() -> None:
    """F-53: a claim that saw the other's is not concurrent: F-25 refuses it."""
    table, _ = _faceoff(typed=False)
    duel = table.game.faceoff
    assert duel is not None
    assert send(table, duel.a, Claimed(table.moves)) is None
    assert send(table, duel.b, Claimed(table.moves)).reason == "pending"  # type: ignore[union-attr]


def test_f54_an_answer_sent_for_an_earlier_face_off_is_stale() -> None:
    """F-54: an answer counted before this face-off began is refused `stale`."""
    table, _ = _faceoff()
    duel = table.game.faceoff
    assert duel is not None
    assert send(table, duel.a, Said(table.duel_since - 1, "anything")).reason == "stale"  # type: ignore[union-attr]


def test_f55_an_opening_waits_no_more_for_a_seat_that_left() -> None:
    table, keys = dealt()
    duties(table, keys)
    turner = table.game.turn
    leaver = (turner + 1) % 4
    assert send(table, turner, Wish(0)) is None
    duties(table, keys, skip=frozenset({leaver}))
    assert table.game.turned == 0
    GAME.set_active(table, leaver, False)
    assert table.game.turned == 1 and leaver not in table.game.active


def test_f55_a_round_waiting_for_chains_waits_no_more_for_a_seat_that_left() -> None:
    table, keys = dealt()
    duties(table, keys, skip=frozenset({2}))
    assert table.stage is Stage.CHAINS
    GAME.set_active(table, 2, False)
    assert table.stage is Stage.PLAY


def test_f56_every_table_refusal_is_in_the_spec() -> None:
    text = SPEC.read_text(encoding="utf-8")
    codes = set(re.findall(r"`([a-z_]+)`", text))  # F-56's, and F-44's for the rules' own
    source = Path(__file__).resolve().parents[3] / "protocol" / "games" / "faceoff" / "table.py"
    used = set(re.findall(r'Refused\("([a-z_]+)"\)', source.read_text(encoding="utf-8")))
    assert used <= codes, used - codes
