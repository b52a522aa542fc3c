"""Dutch's face at a real table (client/games/dutch/face.py), on a fake session: it draws the
snapshot's ``SeatView`` in the frame, turns keys into moves for ``Session.play``, and words
what comes back in Dutch's words."""

from __future__ import annotations

import asyncio
import dataclasses
import re

import pytest
from dutchblitz.client.games import registry
from dutchblitz.client.games.dutch import face
from dutchblitz.client.games.dutch.keys import HINT_CARD_NEXT
from dutchblitz.client.games.dutch.local import LocalGame
from dutchblitz.client.games.dutch.words import DUTCH_HINTS
from dutchblitz.client.layout import body_text, keybar_text
from dutchblitz.client.state import ClientState
from dutchblitz.client.words import notice_text
from dutchblitz.node.api import News, Notice, NoticeKind, Refused, Snapshot, Told
from dutchblitz.protocol.games.dutch.moves import Draw, InitialPeek, Spot, Swap
from dutchblitz.protocol.games.dutch.views import SeatView, round_view
from prompt_toolkit.formatted_text import to_plain_text

from tests.client.driving import running
from tests.client.fakes import NAMES, FakeSession, playing_game
from tests.client.test_dutch_keys import special
from tests.client.test_dutch_screens import bot_round


@dataclasses.dataclass
class DutchSession(FakeSession):
    """A fake node at a Dutch table: its snapshot carries seat 0's view of a local game."""

    local: LocalGame | None = None

    def snapshot(self) -> Snapshot:
        assert self.local is not None
        view = SeatView((0, 1, 2), "play", round_view(self.local.state, 0))
        return dataclasses.replace(super().snapshot(), seat_view=view)


def state_for(local: LocalGame) -> tuple[ClientState, DutchSession]:
    session = DutchSession(playing_game(3).game, local=local)
    state = ClientState(session, game="dutch", games=registry.words())
    state.refresh()
    return state, session


def plain(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in fragments)


def test_the_registry_knows_dutch_s_face() -> None:
    assert registry.face_for("dutch") is face.FACE and "dutch" in registry.tags()
    assert not face.FACE.has_option and face.FACE.call == "Dutch"


def test_the_table_is_this_seat_s_view_drawn_in_the_frame() -> None:
    state, _ = state_for(LocalGame("Ada", 2, seed=5))
    shown = plain(face.table_screen(state))
    assert "Look at two of your cards" in shown and "##" in shown
    assert "Dutch  round" not in shown  # the frame's title bar says it
    assert len(shown.split("\n")) <= 20  # 24 rows less the frame's four
    assert "look at two cards" in plain(face.table_keybar(state))


def test_two_card_keys_peek_through_the_session() -> None:
    state, session = state_for(LocalGame("Ada", 2, seed=5))
    face.key(state, "1")
    assert state.typed == "1" and session.calls == []
    face.key(state, "2")
    assert session.calls == [("play", InitialPeek(0, 1))] and state.typed == ""


def test_a_refusal_comes_back_in_dutch_s_words() -> None:
    local = LocalGame("Ada", 2, seed=5)
    for seat in range(3):
        assert local.act(seat, InitialPeek(0, 1)) is None
    state, session = state_for(local)
    session.refusal = Refused.of("not_your_turn")
    face.key(state, "d")
    assert session.calls == [("play", Draw())]
    assert [n.text for n in state.notices()] == ["it is not your turn"]
    session.refusal = Refused.of("not_play_time")
    face.key(state, "d")
    assert "still being shuffled" in state.notices()[-1].text


def test_after_a_jack_swap_its_prompt_and_hint_are_gone() -> None:
    """The Jack's two spots: the first asks for the other card; the second makes the swap,
    and neither the half-typed spot nor that hint stays on screen."""
    local = LocalGame("Ada", 2, seed=5)
    local.state = special("J")
    state, session = state_for(local)
    for pressed in "a1":
        face.key(state, pressed)
    assert state.typed == "a1"
    assert [n.text for n in state.notices()] == [DUTCH_HINTS[HINT_CARD_NEXT]]
    assert "Picked: your card 1" in plain(face.table_screen(state))
    for pressed in "c2":
        face.key(state, pressed)
    assert session.calls == [("play", Swap(Spot(0, 0), Spot(2, 1)))]
    assert state.typed == "" and state.notices() == []
    assert "Picked:" not in plain(face.table_screen(state))


def test_a_key_that_does_nothing_answers_with_a_hint() -> None:
    state, session = state_for(LocalGame("Ada", 2, seed=5))
    face.key(state, "x")  # during the peeks
    assert session.calls == [] and "does nothing now" in state.notices()[-1].text


def test_the_round_s_call_is_named_as_the_game_names_it() -> None:
    told = Notice(NoticeKind.BLITZ, told=Told(News.BLITZ, who="Ada"))
    assert notice_text(told, registry.face_for("dutch").words) == "Ada called Dutch!"
    assert notice_text(told, registry.face_for("blitz").words) == "Ada called Blitz!"


def test_the_help_fits_the_frame_at_80_by_24() -> None:
    state, _ = state_for(LocalGame("Ada", 2, seed=5))
    lines = plain(face.help_screen(state)).rstrip("\n").split("\n")
    assert len(lines) <= 20 and max(map(len, lines)) <= 80
    assert any(" c " in line and "call Dutch" in line for line in lines)


@dataclasses.dataclass
class WatchedSession(FakeSession):
    """A spectator's fake node (node/seat/spectator.py): no seat, and the round's public view."""

    view: SeatView | None = None

    def snapshot(self) -> Snapshot:
        snap = dataclasses.replace(super().snapshot(), my_seat=None, watching=True)
        return dataclasses.replace(snap, seat_view=self.view, game_tag="dutch")


def watched(seats: int, seed: int = 2) -> WatchedSession:
    state, news = bot_round(seats, seed, 40, viewer=None)
    view = SeatView(tuple(range(seats)), "play", round_view(state, None), news)
    return WatchedSession(playing_game(seats).game, me=-1, view=view)


def test_d42_a_spectator_sees_the_table_not_the_deal() -> None:
    session = watched(4)
    state = ClientState(session, game="dutch", games=registry.words())
    state.refresh()
    shown = plain(face.table_screen(state))
    assert "being dealt" not in shown and "##" in shown
    for name in NAMES[:4]:
        assert re.search(rf"^[a-h] {name} ", shown, re.MULTILINE), shown
    assert not re.search(r"\b[Yy]our?\b", shown), shown
    face.key(state, "d")
    assert session.calls == [] and "you are watching" in state.notices()[-1].text
    assert plain(face.table_keybar(state)).split() == ["?", "help", "q", "leave"]


def test_d42_before_the_deal_a_spectator_reads_what_the_table_does() -> None:
    session = watched(3)
    session.view = SeatView((0, 1, 2), "shuffle", None)
    state = ClientState(session, game="dutch", games=registry.words())
    state.refresh()
    shown = plain(face.table_screen(state))
    assert "masks and shuffles" in shown and "sit down" not in shown


@pytest.mark.parametrize("seats", [3, 8])
def test_d42_a_spectator_s_table_fits_80x24_in_the_real_frame(seats: int) -> None:
    session = watched(seats, seed=seats)

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            drive.app.invalidate()
            body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
            assert len(body) <= 20 and max(len(line) for line in body) <= 80, body
            screen = drive.screen()
            text = "\n".join(screen)
            assert "watching" in screen[0] and "Dutch" in screen[0]
            assert to_plain_text(keybar_text(drive.state)).split() == [
                "Tab", "scores", "?", "help", "q", "leave"
            ]  # fmt: skip
            for name in NAMES[:seats]:
                assert re.search(rf"^[a-h] {name} ", text, re.MULTILINE), text
            await drive.press("d")
            assert session.calls == []

    asyncio.run(asyncio.wait_for(go(), 20))


def test_d42_a_person_not_dealt_in_sees_the_public_table_and_sits_down_next() -> None:
    session = watched(3)
    seated = dataclasses.replace(session.snapshot(), watching=False, my_seat=3)
    session.snapshot = lambda: seated  # type: ignore[method-assign]
    state = ClientState(session, game="dutch", games=registry.words())
    state.refresh()
    shown = " ".join(plain(face.table_screen(state)).split())
    assert "##" in shown and "you sit down for the next game" in shown
    face.key(state, "d")
    assert session.calls == [] and "not dealt in" in state.notices()[-1].text
    assert plain(face.table_keybar(state)).split() == ["?", "help", "q", "leave"]
