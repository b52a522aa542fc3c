"""The one table of refusal words (client/words.py): every code the node can give reads."""

from __future__ import annotations

from dutchblitz.client.words import WORDS, notice_text, said, say
from dutchblitz.node.api import GameOn, Notice, NoticeKind, Refused, Why
from dutchblitz.protocol.rules import Reason


def test_every_code_has_words() -> None:
    assert set(WORDS) == set(Why)
    for why in Why:
        assert say(Refused(why, what="x", other="y", count=2)), why


def test_every_reason_of_the_rules_is_a_code() -> None:
    for reason in Reason:
        assert Refused.of(reason).why == Why(reason.value)


def test_a_code_without_a_name_reads_as_itself() -> None:
    refused = Refused.of("nothing_to_see")
    assert refused == Refused(Why.OTHER, what="nothing_to_see")
    assert say(refused) == "nothing to see"


def test_the_facts_go_into_the_words() -> None:
    assert (
        say(Refused(Why.SLOW_DOWN, count=5)) == "slow down: 5 plays are already waiting their turn"
    )
    assert say(Refused(Why.LOBBY_ONLY, what="add_bot")) == "you can seat a bot only in the lobby"
    assert say(Refused(Why.BACK_HELD, what="red", other="Bob")) == "Bob has the red back"
    game_on = Refused(Why.GAME_ON, what="kitchen", game_on=GameOn(players=3, round=2))
    assert (
        say(game_on)
        == "a game is on at kitchen: 3 players, round 2; you sit down for the next game"
    )
    assert said(None) == ""


def test_a_held_play_that_came_back_says_what_and_why() -> None:
    assert (
        say(Refused(Why.PLAY_BEFORE, held="5R♂")) == "5R♂ came back: the play before it did not go"
    )
    flip = Refused.of("round_over", held="flip")
    assert say(flip) == "your flip came back: the round is over"
    assert notice_text(Notice(NoticeKind.REFUSED, refused=flip)) == say(flip)
    assert notice_text(Notice(NoticeKind.INFO, "hello")) == "hello"
