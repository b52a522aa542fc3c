"""Who the door turned away, and which door turned us away, reach the screen: at once, then
at most once a while (node/net/doorbell.py)."""

from __future__ import annotations

import pytest
from dutchblitz.node.api import News, NoticeKind, Told
from dutchblitz.node.net.doorbell import DOOR_NEWS_EVERY_S, Doorbell, Refusals

from tests.client.driving import Clock


class Heard:
    def __init__(self) -> None:
        self.told: list[Told] = []
        self.changes = 0

    def tell(self, kind: NoticeKind, told: Told) -> None:
        alarming = told.news in (News.DOOR_REFUSED_US, News.DOOR_GUESSING)
        assert kind == (NoticeKind.ALARM if alarming else NoticeKind.INFO)
        self.told.append(told)

    def changed(self) -> None:
        self.changes += 1


def test_a_flood_of_wrong_phrases_is_one_notice_then_one_a_while_with_the_count() -> None:
    heard, clock = Heard(), Clock()
    bell = Doorbell(heard.tell, heard.changed, clock)
    assert bell.rang("wrong phrase")
    for _ in range(40):
        clock.advance(0.1)
        assert not bell.rang("knocker wrong passphrase")  # the same news, from the knocker
    assert heard.told == [Told(News.DOOR_WRONG_PHRASE, count=1)] and heard.changes == 1
    clock.advance(DOOR_NEWS_EVERY_S)
    assert bell.rang("wrong phrase", "198.18.0.7")
    assert heard.told[-1] == Told(News.DOOR_WRONG_PHRASE, count=41, what="198.18.0.7")


@pytest.mark.parametrize(("source", "where"), [("198.18.0.7", "198.18.0.7"), ("id:00ab", "")])
def test_a_knock_turned_away_says_where_it_came_from_when_known(source: str, where: str) -> None:
    heard = Heard()
    assert Doorbell(heard.tell, heard.changed, Clock()).rang("wrong phrase", source)
    assert heard.told == [Told(News.DOOR_WRONG_PHRASE, count=1, what=where)]


def test_each_kind_is_told_on_its_own() -> None:
    heard, clock = Heard(), Clock()
    bell = Doorbell(heard.tell, heard.changed, clock)
    assert bell.rang("wrong phrase") and bell.rang("throttled") and bell.rang("version")
    assert [t.news for t in heard.told] == [
        News.DOOR_WRONG_PHRASE,
        News.DOOR_GUESSING,
        News.DOOR_OTHER_VERSION,
    ]


@pytest.mark.parametrize("key", ["timeout", "other table", "not one frame", "own card"])
def test_what_a_player_cannot_act_on_stays_in_the_log(key: str) -> None:
    heard = Heard()
    assert not Doorbell(heard.tell, heard.changed, Clock()).rang(key)
    assert heard.told == [] and heard.changes == 0


def test_a_door_that_turned_us_away_is_told_with_its_address_even_to_a_late_listener() -> None:
    refusals = Refusals()
    refusals.add("Ada", "tcp://127.0.0.1:5555", "wrong passphrase")  # before the table is up
    heard, clock = Heard(), Clock()
    bell = Doorbell(heard.tell, heard.changed, clock)
    refusals.listen(bell.refused_us)
    assert heard.told == [
        Told(News.DOOR_REFUSED_US, count=1, what="127.0.0.1:5555", detail="wrong passphrase")
    ]
    refusals.add("Ada", "tcp://127.0.0.1:5556", "wrong passphrase")
    assert len(heard.told) == 1, "at most one a while"
    clock.advance(DOOR_NEWS_EVERY_S)
    refusals.add("Ada", "tcp://127.0.0.1:5557", "other table")
    assert heard.told[-1] == Told(
        News.DOOR_REFUSED_US, count=2, what="127.0.0.1:5557", detail="other table"
    )


DOOR, WRONG = "127.0.0.1:5555", "wrong passphrase"


@pytest.mark.parametrize(
    ("reason", "seated", "told"),
    [
        # Still looking for the table: our phrase is the one that opens no door.
        ("wrong passphrase", False, Told(News.DOOR_REFUSED_US, count=1, what=DOOR, detail=WRONG)),
        # Seated at the table our phrase opened: the node with another phrase was kept out.
        ("wrong passphrase", True, Told(News.DOOR_WRONG_PHRASE, count=1, what=DOOR)),
        ("other table", True, Told(News.DOOR_REFUSED_US, count=1, what=DOOR, detail="other table")),
    ],
)  # fmt: skip
def test_a_wrong_passphrase_at_a_strangers_door_while_seated_is_theirs(
    reason: str, seated: bool, told: Told
) -> None:
    refusals = Refusals()
    heard = Heard()
    refusals.listen(Doorbell(heard.tell, heard.changed, Clock()).refused_us)
    refusals.add("Ada", f"tcp://{DOOR}", reason, seated)
    assert heard.told == [told]
