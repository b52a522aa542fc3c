"""spec/faceoff.md F-1 to F-6 and F-33: the layout, the pack files and their digest."""

from __future__ import annotations

import json

import pytest
from dutchblitz.protocol.games.faceoff import TAG, TITLE, pack
from dutchblitz.protocol.games.faceoff.pack import (
    CARDS,
    DIE,
    DUELS,
    SYMBOLS,
    THREE_PLAYER_FACE,
    PackError,
    cards_in_game,
    is_duel,
    symbol_of,
)

from tests.games.faceoff.table import EN, FR, HERE


def test_F1_54_category_cards_and_4_duels() -> None:
    assert (TAG, TITLE) == ("faceoff", "Blitz! (word face-offs)")
    assert CARDS == 58 and DUELS == (54, 55, 56, 57)
    assert [is_duel(c) for c in (0, 53, 54, 57)] == [False, False, True, True]
    assert EN.category_of(0).id == "fruit" and EN.category_of(53).id == "cat53"
    with pytest.raises(ValueError):
        symbol_of(54)


def test_F4_eight_symbols_told_apart_by_letter_and_shape_spread_by_index() -> None:
    names = [str(s) for s in SYMBOLS]
    assert names[0] == "A circle" and len(set(names)) == 8
    assert len({s.letter for s in SYMBOLS}) == len({s.shape for s in SYMBOLS}) == 8
    counts = [sum(symbol_of(c) == s for c in range(54)) for s in range(8)]
    assert counts == [7, 7, 7, 7, 7, 7, 6, 6]
    assert [symbol_of(c) for c in (0, 7, 8, 53)] == [0, 7, 0, 5]


def test_F5_six_faces_of_two_symbols_the_three_player_face_alone() -> None:
    assert len(DIE) == 6 and all(len(set(face)) == 2 for face in DIE)
    assert len(set(DIE)) == 6
    gone = set(DIE[THREE_PLAYER_FACE])
    assert gone == {6, 7}
    assert all(not gone & set(face) for i, face in enumerate(DIE) if i != THREE_PLAYER_FACE)


def test_F6_three_players_take_out_the_cards_of_face_5() -> None:
    cards = cards_in_game(THREE_PLAYER_FACE)
    assert len(cards) == 46 and set(DUELS) <= set(cards)
    assert all(symbol_of(c) not in (6, 7) for c in cards if not is_duel(c))
    assert cards_in_game(None) == tuple(range(58))


def _pack(**changes: object) -> bytes:
    data = json.loads((HERE / "fixture_en.json").read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"{not json", "not a JSON pack"),
        (b"[]", "one JSON object"),
        (_pack(language="de"), "language 'de'"),
        (_pack(categories=[]), "exactly 54"),
        (_pack(name=""), "name must be"),
        (_pack(categories=[{"id": "x", "title": "t", "answers": []}] * 54), "share an id"),
        (
            _pack(categories=[{"id": f"{i}", "title": "t", "answers": [1]} for i in range(54)]),
            "list of strings",
        ),
    ],
)
def test_F3_a_broken_pack_is_refused_in_one_line(raw: bytes, says: str) -> None:
    with pytest.raises(PackError) as caught:
        pack.parse(raw)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_F3_packs_of_each_language_share_ids_and_order() -> None:
    assert EN.language == "en" and FR.language == "fr"
    assert pack.same_ids(EN, FR)
    assert EN.category_of(1).title == "a band" and FR.category_of(1).title == "un groupe de musique"
    with pytest.raises(PackError, match="cannot read pack"):
        pack.load(HERE / "missing.json")
    with pytest.raises(PackError, match="no pack for language"):
        pack.shipped("de")


def test_F3_F30_answers_are_keys_on_load() -> None:
    assert EN.category_of(1).answers == {"beatle", "queen", "abba"}
    assert "gateau" in FR.category_of(6).answers and "creme brulee" in FR.category_of(6).answers


def test_F33_the_digest_is_sha256_over_the_canonical_bytes() -> None:
    raw = (HERE / "fixture_en.json").read_bytes()
    again = json.dumps(json.loads(raw), indent=4, sort_keys=False).encode()
    assert pack.parse(again).digest == EN.digest  # the layout of the file does not count
    assert len(EN.digest) == 64 and EN.digest != FR.digest
    data = json.loads(raw)
    data["categories"][0]["answers"].append("mango")
    assert pack.parse(json.dumps(data).encode()).digest != EN.digest
    assert pack.canonical_bytes({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()


PACKS = HERE.parents[2] / "protocol" / "games" / "faceoff" / "packs"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_F3_F33_the_shipped_packs_load_when_installed(language: str) -> None:
    if not (PACKS / f"{language}.json").is_file():
        with pytest.raises(PackError, match="not installed"):
            pack.shipped(language)
        pytest.skip(f"no {language} pack shipped yet")
    book = pack.shipped(language)
    assert book.language == language and len(book.categories) == 54
    assert all(c.answers for c in book.categories)
    other = PACKS / f"{'fr' if language == 'en' else 'en'}.json"
    if other.is_file():
        assert pack.same_ids(book, pack.load(other))
