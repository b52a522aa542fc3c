"""Dutch Blitz as the table sees it (``BlitzRules``), and the registry of games.

What a DEAL shows of a shuffled deck, what others learn from it and whether a full order
fits it must agree with each other for every deck, table size and seat: the table checks
its own deck and the audit checks every revealed one with them.
"""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.games.blitz.cards import post_count
from dutchblitz.protocol.games.blitz.game import GAME as RULES
from dutchblitz.protocol.games.blitz.game import deck_order
from dutchblitz.protocol.games.dutch.bots import BotLevel
from dutchblitz.protocol.games.dutch.game import DutchGame
from dutchblitz.protocol.seat.game_duties import holds_secrets, wants_private
from dutchblitz.protocol.table.state import Game
from hypothesis import given
from hypothesis import strategies as st

SEATS = st.integers(0, 7)
PLAYERS = st.integers(2, 8)
BYTES = st.binary(min_size=32, max_size=32)


@given(SEATS, PLAYERS, BYTES, BYTES)
def test_a_deal_shows_what_others_learn_and_the_owner_fits(
    seat: int, players: int, secret: bytes, joint: bytes
) -> None:
    order = deck_order(seat, secret, joint)
    shown = RULES.shown(order, players)
    assert len(shown) == post_count(players) + 1
    known = RULES.known_order(seat, shown, players)
    assert known is not None and len(known) == len(order)
    assert all(card is None or card == order[i] for i, card in enumerate(known))
    assert sum(card is not None for card in known) == len(shown)
    assert RULES.fits(order, shown, players)
    assert RULES.owner(order) == seat


@given(SEATS, PLAYERS, BYTES, BYTES, BYTES)
def test_another_order_of_the_same_deck_does_not_fit(
    seat: int, players: int, secret: bytes, other: bytes, joint: bytes
) -> None:
    order, second = deck_order(seat, secret, joint), deck_order(seat, other, joint)
    shown = RULES.shown(order, players)
    assert RULES.fits(second, shown, players) == (RULES.shown(second, players) == shown)


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("a card too few", lambda codes: codes[:-1]),
        ("a card too many", lambda codes: (*codes, codes[0] + 1 if codes[0] % 40 < 39 else 0)),
        ("another deck's card", lambda codes: ((codes[0] + 40) % 320, *codes[1:])),
        ("a card twice", lambda codes: (codes[1], *codes[1:])),
        ("a code off the wire's range", lambda codes: (-1, *codes[1:])),
    ],
)
def test_a_malformed_deal_tells_others_nothing(name: str, change: object) -> None:
    order = deck_order(0, bytes(32), bytes(32))
    shown = RULES.shown(order, 4)
    assert callable(change)
    assert RULES.known_order(0, change(shown), 4) is None, name


def test_the_registry_knows_dutch_blitz_first_and_refuses_an_unknown_tag() -> None:
    assert registry.tags()[0] == registry.DEFAULT_GAME == RULES.tag
    assert registry.game_for("blitz") is RULES
    assert Game().rules is RULES
    with pytest.raises(registry.UnknownGame):
        registry.game_for("no such game")


class _Unregistered(DutchGame):
    tag = "dutch-unregistered"


@pytest.mark.parametrize(
    ("level", "expected"),
    [("careful", BotLevel.CAREFUL), ("easy", BotLevel.FORGETFUL), ("flat-out", BotLevel.CAREFUL)],
)
def test_a_game_s_bot_gets_a_level_of_its_own_type(level: str, expected: BotLevel) -> None:
    """``seat_bot`` and ``race_hold`` take the game's own level (``TableGame.levels``' value),
    found for any level or name by ``level_for``, for a game the registry does not hold too."""
    game = _Unregistered()
    found = registry.level_for(game, level)
    assert found is expected and isinstance(found, BotLevel)
    with pytest.raises(registry.UnknownGame):
        registry.level_in(game.tag, level)


def test_a_game_from_outside_is_forgotten_again_and_the_package_s_stay() -> None:
    """``unregister`` and ``registered``: a test that registers a game leaks none."""
    game = _Unregistered()
    before = registry.tags()
    registry.register(game)
    assert registry.game_for(game.tag) is game
    registry.unregister(game.tag)
    assert registry.tags() == before
    with pytest.raises(registry.UnknownGame):
        registry.unregister(game.tag)
    for tag in ("blitz", "dutch", "faceoff"):  # the package's own (another test may add one)
        with pytest.raises(ValueError, match="this package's games"):
            registry.unregister(tag)
    with registry.registered(game):
        assert registry.game_for(game.tag) is game
    assert registry.tags() == before
    dutch = registry.game_for("dutch")
    with registry.registered(_Unregistered()) as other, pytest.raises(RuntimeError):
        assert registry.game_for(other.tag) is other
        raise RuntimeError  # the registry is put back however the block ends
    assert registry.tags() == before and registry.game_for("dutch") is dutch


class _SecretBots(DutchGame):
    """A game whose bots decide with their seats' secrets, though its seats owe nothing."""

    owes_bodies = False
    bots_use_secrets = True


@pytest.mark.parametrize(
    ("rules", "holds"),
    [(RULES, False), (DutchGame(), True), (_SecretBots(), True)],
)
def test_a_seat_draws_a_private_seed_where_its_bots_use_secrets(rules: object, holds: bool) -> None:
    """``owes_bodies`` or ``bots_use_secrets``: each seat holds ``SeatSecrets``; a Dutch Blitz
    deal draws no private seed, as before."""
    assert holds_secrets(rules) is holds  # type: ignore[arg-type]
    assert wants_private(Game(rules=rules)) is holds  # type: ignore[arg-type]
