"""The client draws a table with its game's face, found by the game's tag (issue 18)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Iterator
from typing import Any

import pytest
from dutchblitz.client import commands
from dutchblitz.client import main as entry
from dutchblitz.client.app import build_app, run_app
from dutchblitz.client.games import DEFAULT_GAME, registry
from dutchblitz.client.games.blitz.face import FACE as BLITZ
from dutchblitz.client.layout import body_text, keybar_text, title_text
from dutchblitz.client.state import ClientState, Screen
from dutchblitz.node.api import News, Notice, NoticeKind, Told
from dutchblitz.node.cli import main as cli
from dutchblitz.protocol.games import registry as rules_registry
from dutchblitz.protocol.wire.messages import Profile
from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples, to_plain_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.output import DummyOutput

from tests.client.fakes import FakeSession, lobby_game, node_id, playing_session

pytestmark = pytest.mark.timeout(30)


def said(words: str) -> StyleAndTextTuples:
    return [("", words)]


def bind_nothing_but_z(bindings: KeyBindings, state: ClientState, playing: Filter) -> None:
    bindings.add("z", filter=playing)(lambda event: None)


OTHER = dataclasses.replace(
    BLITZ,
    tag="other",
    title="Other Game",
    table_screen=lambda state: said("the other game's table"),
    scores_screen=lambda state: said("the other game's scores"),
    help_screen=lambda state: said("how to play the other game"),
    table_keybar=lambda state: said("the other game's keys"),
    bind_table_keys=bind_nothing_but_z,
)


@pytest.fixture
def other_face() -> Iterator[None]:
    registry.register(OTHER)
    yield
    registry.unregister(OTHER.tag)


def test_dutch_blitz_s_face_is_the_default_under_the_protocol_s_tag() -> None:
    assert DEFAULT_GAME == rules_registry.DEFAULT_GAME == BLITZ.tag
    assert registry.face_for() is registry.face_for(rules_registry.DEFAULT_GAME) is BLITZ
    assert ClientState(playing_session(2)).game == DEFAULT_GAME


def test_an_unknown_tag_is_named() -> None:
    with pytest.raises(registry.UnknownFace, match="no-such-game"):
        registry.face_for("no-such-game")


@pytest.mark.usefixtures("other_face")
def test_a_registered_face_draws_the_table_its_scores_help_and_key_bar() -> None:
    state = ClientState(playing_session(2), game=OTHER.tag)
    assert state.screen == Screen.TABLE
    assert to_plain_text(title_text(state)).startswith(" Other Game")
    assert to_plain_text(body_text(state)) == "the other game's table"
    assert to_plain_text(keybar_text(state)) == "the other game's keys"
    state.toggle_scores()
    assert to_plain_text(body_text(state)) == "the other game's scores"
    state.help_shown = True
    assert to_plain_text(body_text(state)) == "how to play the other game"


@pytest.mark.usefixtures("other_face")
def test_the_lobby_is_the_table_s_whatever_the_game() -> None:
    blitz = ClientState(FakeSession(lobby_game(2)))
    other = ClientState(FakeSession(lobby_game(2)), game=OTHER.tag)
    assert blitz.screen == other.screen == Screen.LOBBY
    shown = [to_plain_text(body_text(state)).splitlines() for state in (blitz, other)]
    games = [next(line for line in lines if "Game: " in line) for lines in shown]
    assert f"Game: {BLITZ.title}, " in games[0] and f"Game: {OTHER.title}, " in games[1]
    assert [line for line in shown[0] if line != games[0]] == [
        line for line in shown[1] if line != games[1]
    ]  # the lobby says which game it starts (P-241), and is the table's otherwise


@pytest.mark.usefixtures("other_face")
def test_a_registered_face_binds_its_keys_at_the_table() -> None:
    async def keys(game: str) -> set[str]:
        with create_pipe_input() as pipe:
            app = build_app(playing_session(2), pipe, DummyOutput(), game=game)
            assert app.key_bindings is not None
            # The keys that do something now: every face's are bound, each while it draws.
            return {k.value if hasattr(k, "value") else k for b in app.key_bindings.bindings
                    if b.filter() for k in b.keys}  # fmt: skip

    other, blitz = asyncio.run(keys(OTHER.tag)), asyncio.run(keys(BLITZ.tag))
    assert "z" in other and "z" not in blitz
    assert "e" in blitz and "e" not in other  # Blitz to the centre is Dutch Blitz's key


@pytest.fixture
def highcard(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """A second game's rules registered with the protocol (tests/games/highcard), and the
    node's run recorded instead of run."""
    from tests.games.highcard.rules import RULES

    seen: list[Any] = []

    async def fake_run_node(options: Any, attach_ui: Any = None) -> int:
        seen.append((options.game, attach_ui))
        return 0

    monkeypatch.setattr(cli, "run_node", fake_run_node)
    monkeypatch.setattr(entry, "no_terminal", lambda: None)  # as if run in a terminal
    with rules_registry.registered(RULES):
        yield seen


def test_a_game_without_a_face_is_one_line_not_a_traceback(
    highcard: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main(["--join", "--game", "highcard", "--no-discovery"]) == cli.EXIT_USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["blitz-node: the game 'highcard' has no screens here: run its seats with"
                   " --headless --bot"]  # fmt: skip
    assert highcard == []


def test_the_node_s_game_picks_the_face_that_draws_it(highcard: list[Any]) -> None:
    with registry.registered(dataclasses.replace(OTHER, tag="highcard")):
        assert entry.main(["--join", "--game", "highcard", "--no-discovery"]) == 0
        assert entry.main(["--join", "--no-discovery"]) == 0
    [(tag, ui), (default, blitz_ui)] = highcard
    assert (tag, default) == ("highcard", DEFAULT_GAME)
    assert isinstance(ui, functools.partial) and ui.func is run_app
    assert ui.keywords == {"game": "highcard"} and blitz_ui is run_app


def test_g_in_the_lobby_picks_the_next_game_and_its_face_draws_the_lobby() -> None:
    """P-241: the lobby's g names the game a START from this node starts; the snapshot's
    game then picks the face, the title and the word for a round's early end."""
    session = FakeSession(lobby_game(2))
    state = ClientState(session, games=registry.words())
    assert state.game == DEFAULT_GAME and "g game" in to_plain_text(keybar_text(state))
    commands.next_game(state)
    assert session.calls[-1] == ("set_game", "dutch")
    assert (state.game, state.words.call) == ("dutch", "Dutch")
    assert to_plain_text(title_text(state)).startswith(" Dutch  ·  table kitchen  ·  lobby")
    assert "Game: Dutch" in to_plain_text(body_text(state))
    commands.next_game(state)  # every registered game in turn (registry.tags()), then back
    assert session.calls[-1] == ("set_game", "faceoff")
    assert (state.game, state.words.call) == ("faceoff", "Blitz!")
    assert "Game: Blitz! (word face-offs)" in to_plain_text(body_text(state))
    assert "Answers: typed" in to_plain_text(body_text(state))  # its option, as it names it
    commands.next_game(state)
    assert session.calls[-1] == ("set_game", DEFAULT_GAME) and state.game == DEFAULT_GAME


def test_t_in_the_lobby_picks_the_game_s_next_length() -> None:
    """P-237, D-37: a target score, or for a game that offers it a number of rounds."""
    session = FakeSession(lobby_game(3), game_tag="dutch")
    state = ClientState(session, games=registry.words())
    assert "Game: Dutch, to 75 points" in to_plain_text(body_text(state))
    picked = []
    for _ in registry.face_for("dutch").lengths:
        commands.next_length(state)
        picked.append(session.calls[-1][1:])
    assert picked == [*registry.face_for("dutch").lengths[1:], (75, None)]
    assert (75, 3) in picked
    commands.next_length(state)
    commands.next_length(state)
    commands.next_length(state)
    assert "Game: Dutch, 3 rounds" in to_plain_text(body_text(state))


def test_a_bot_renamed_for_the_next_game_is_named_anew_in_the_notices_P241() -> None:
    """g picks Dutch: the node gives each bot Dutch's matching level and the name that
    says it; "sat down" on screen names the bot anew, and what l said of the old game's
    level goes, while other news stays as it was."""
    session = FakeSession(lobby_game(1))
    state = ClientState(session, games=registry.words())
    commands.next_bot_level(state)  # normal -> fast
    commands.next_bot_level(state)  # fast -> flat-out
    level_said = registry.face_for(DEFAULT_GAME).words.bot_levels["flat-out"]
    assert state.notices()[-1].text == level_said
    commands.add_bot(state)
    bot = node_id(1)
    session.game.apply(bot, Profile("flat-out bot 0b9", session.game.members[bot].back))
    session.notices = [
        Notice(NoticeKind.JOINED, told=Told(News.SAT_DOWN, who="flat-out bot 0b9")),
        Notice(NoticeKind.INFO, told=Told(News.BACK, who="flat-out bot")),  # not a player
    ]
    state.refresh()
    assert "flat-out bot 0b9 sat down" in [n.text for n in state.notices()]
    session.bot_levels = ("forgetful", "careful")
    commands.next_game(state)  # the node renames its bot, as for Dutch's careful level
    session.game.apply(bot, Profile("careful bot 0b9", session.game.members[bot].back))
    state.refresh()
    assert state.game == "dutch"
    assert [n.text for n in state.notices()] == ["careful bot 0b9 sat down", "flat-out bot is back"]


def test_a_game_without_deck_backs_or_post_stacking_says_so_for_b_and_p() -> None:
    """Dutch has neither: b and p change nothing and say why; the lobby shows no Back
    column and its key bar offers no b."""
    session = FakeSession(lobby_game(3), game_tag="dutch")
    state = ClientState(session, games=registry.words())
    commands.next_back(state)
    commands.toggle_option(state)
    assert not [call for call in session.calls if call[0] in ("set_back", "set_option")]
    texts = [n.text for n in state.notices()]
    assert texts == ["this game has no deck backs to choose", "Dutch has no Post stacking"]
    assert "Back" not in to_plain_text(body_text(state))
    assert " b back" not in to_plain_text(keybar_text(state))


def test_a_face_keeps_its_own_state_beside_what_is_typed_until_the_game_changes() -> None:
    """``ClientState.typed_memo``: a face's own, beside ``typed``; another game's face
    (P-241) finds neither."""
    session = FakeSession(lobby_game(2))
    state = ClientState(session, games=registry.words())
    assert state.typed_memo is None
    state.typed, state.typed_memo = "kiw", ("a card", 2)
    state.refresh()  # the same game: kept
    assert (state.typed, state.typed_memo) == ("kiw", ("a card", 2))
    commands.next_game(state)
    assert state.game == "dutch" and (state.typed, state.typed_memo) == ("", None)


def test_a_face_from_outside_is_forgotten_again_and_the_package_s_stay() -> None:
    before = registry.tags()
    with registry.registered(OTHER):
        assert registry.face_for(OTHER.tag) is OTHER
        with registry.registered(dataclasses.replace(OTHER, title="Again")):
            assert registry.face_for(OTHER.tag).title == "Again"
        assert registry.face_for(OTHER.tag) is OTHER  # the one it replaced comes back
    assert registry.tags() == before
    with pytest.raises(registry.UnknownFace):
        registry.unregister(OTHER.tag)
    with pytest.raises(ValueError, match="this package's faces"):
        registry.unregister(DEFAULT_GAME)
