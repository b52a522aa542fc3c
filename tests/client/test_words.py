"""The refusal and news words (client/words.py, and each game's words.py): every code the
node can give reads, worded by the table or by a game's face."""

from __future__ import annotations

from dutchblitz.client.games import registry
from dutchblitz.client.games.blitz.words import REFUSALS, notice_text, said, say, tell
from dutchblitz.client.words import NEWS, WORDS
from dutchblitz.node.api import GameOn, News, Notice, NoticeKind, Refused, Told, Why
from dutchblitz.protocol.games.blitz.intents import KeyRefusal
from dutchblitz.protocol.games.blitz.rules import Reason


def test_every_code_has_words() -> None:
    games = registry.words().values()
    assert set(WORDS).union(*(game.refusals for game in games)) >= set(Why) - {Why.OTHER}
    for why in Why:
        assert say(Refused(why, what="x", other="y", count=2)), why


def test_every_reason_of_the_rules_and_of_the_keys_is_a_game_code_with_words() -> None:
    for code in (*Reason, *KeyRefusal):
        refused = Refused.of(code, what="x", other="y", count=2)
        if code in {Why.ROUND_OVER, Why.UNKNOWN_SEAT, Why.NOT_ACTIVE}:  # every game's
            assert refused.why == Why(code.value)
            continue
        assert (refused.why, refused.game_code, refused.code) == (Why.OTHER, code, code)
        assert code in REFUSALS and say(refused) != code.value.replace("_", " "), code


def test_a_code_without_a_name_reads_as_itself() -> None:
    refused = Refused.of("nothing_to_see")
    assert refused == Refused(Why.OTHER, game_code="nothing_to_see")
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


def test_every_piece_of_news_has_words() -> None:
    assert set(NEWS).union(*(game.news for game in registry.words().values())) == set(News)
    cases = {
        Told(News.LOST_RACE, who="Ada", what="5R♂"): "Ada beat you to 5R♂",
        Told(News.LOST_RACE): "another player beat you to it",
        Told(News.REMOVED, names=("Ada", "easy bot 1c2")): (
            "Ada and easy bot 1c2 were removed: not heard from"
        ),
        Told(News.LEFT, names=("Bob",)): "Bob left the table",
        Told(News.BACK_AT_TABLE, count=2): (
            "you were away, and are back at the table: 2 of your moves did not count"
        ),
        Told(News.BLITZ): "You called Blitz!",
        Told(News.BLITZ, who="Ada"): "Ada called Blitz!",
        Told(News.ROUND_SCORES, count=3, scores=(("Ada", 5), ("Bob", -2))): (
            "round 3: Ada +5, Bob -2"
        ),
        Told(News.GAME_WON, count=75): "You win with 75 points",
        Told(News.GAME_WON, who="Bob", count=80): "Bob wins with 80 points",
        Told(News.GOES_ON_WITHOUT, count=2, names=("Ada", "Cy")): (
            "round 2 goes on without Ada, Cy"
        ),
        # spec/dutch.md D-46, spec/rules.md R-61
        Told(News.ENDS_WITHOUT, names=("Ben",)): (
            "the game ends without Ben: too few players are left to deal"
        ),
        Told(News.ROUND_VOID, count=1, names=("Ben",)): (
            "round 1 is void: Ben left holding cards only their key could open;"
            " it is not scored and not counted"
        ),
        Told(News.NO_WINNER): "Game over: no round was played to its end, so nobody wins",
        # spec/protocol.md P-238: a game of rounds whose game names no winner is a draw
        Told(News.DRAWN): "Game over: a draw, nobody wins",
        # spec/protocol.md P-239, spec/faceoff.md F-57
        Told(News.TOO_FEW, what="Blitz!", count=3): "Blitz! needs 3 players: the game ends",
    }
    for told, words in cases.items():
        assert tell(told) == words
        assert notice_text(Notice(NoticeKind.INFO, told=told)) == words
    for news in News:
        assert tell(Told(news, who="x", names=("y",), count=1, what="z", detail="w"))
