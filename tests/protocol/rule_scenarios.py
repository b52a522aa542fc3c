"""The rules of spec/rules.md as scenarios: a deal, moves, and what must follow.

Each scenario names the rule it shows. tests/protocol/test_rules_table.py plays them,
and export_rules_vectors.py writes them to spec/vectors/rules.json.
"""

from __future__ import annotations

from dutchblitz.protocol.games.blitz import rules
from dutchblitz.protocol.games.blitz.cards import BLITZ_SIZE, Colour, card
from dutchblitz.protocol.games.blitz.moves import CentrePlay
from dutchblitz.protocol.games.blitz.rules import Reason
from dutchblitz.protocol.games.blitz.state import Area, Table

from tests.protocol.scenario_language import (
    BLITZ,
    OK,
    POST,
    QUIET_2P_FLIPS,
    QUIET_3P_FLIPS,
    WOOD,
    Deck,
    Scenario,
    Step,
    area_check,
    c,
    centre,
    checks,
    flip,
    flips,
    holds,
    post,
    stalemates,
    stuck,
    table_check,
    taken,
    turn,
)

RUN_1_TO_10 = "1R 2R 3R 4R 5R 6R 7R 8R 9R 10R"


def _run_of_reds(seat: int, last_shows: str | None) -> list[Step]:
    """Play 1R to 9R from the top of the Blitz pile onto one pile, the first a new one."""
    labels = RUN_1_TO_10.split()
    steps: list[Step] = [(centre(seat, BLITZ, "1R", None, "2R"), OK)]
    for value in range(2, 10):
        shows = labels[value] if value < 9 else last_shows
        steps.append((centre(seat, BLITZ, f"{value}R", 0, shows), OK))
    return steps


# A 2-player hand that plays out completely: red 1-10, blue 1-10, green 1-5, in
# packets of three that each flip to show the lowest card, then play in order.
HAND_RUN = [
    f"{v}{colour}" for colour, top in (("R", 10), ("B", 10), ("G", 5)) for v in range(1, 1 + top)
]
HAND_RUN_PACKETS = [HAND_RUN[i : i + 3] for i in range(0, len(HAND_RUN), 3)]
HAND_RUN_DECK = Deck(hand=" ".join(label for p in HAND_RUN_PACKETS for label in reversed(p)))


def _play_out_hand(seat: int) -> list[Step]:
    """Flip each packet and play its three cards to the centre: piles red 0, blue 1, green 2."""
    pile_of = {"R": 0, "B": 1, "G": 2}
    steps: list[Step] = []
    for packet in HAND_RUN_PACKETS:
        steps.append((flip(seat, packet[0]), OK))
        for index, label in enumerate(packet):
            pile = None if c(label).value == 1 else pile_of[label[-1]]
            shows = packet[index + 1] if index + 1 < len(packet) else None
            steps.append((centre(seat, WOOD, label, pile, shows), OK))
    return steps


DEAL = [
    *[
        Scenario(
            "R-7",
            f"{players} players deal a Post row of {size}",
            players,
            {0: Deck(post=" ".join(["5G", "6B", "7Y", "8R", "9G"][:size]))},
            check=area_check(0, post=[[x] for x in ["5G", "6B", "7Y", "8R", "9G"][:size]]),
        )
        for players, size in ((2, 5), (3, 4), (4, 3), (8, 3))
    ],
    *[
        Scenario(
            "R-8",
            f"{players} players: the tenth Blitz card dealt is the top",
            players,
            {1: Deck(blitz="7G 2B")},
            check=checks(
                area_check(1, blitz_top="7G"),
                lambda t: holds(len(t.areas[1].blitz) == BLITZ_SIZE, "ten Blitz cards"),
                lambda t: holds(t.areas[1].blitz[-2] == c("2B", 1), "2B below the top"),
            ),
        )
        for players in (2, 3, 4, 8)
    ],
    Scenario(
        "R-9",
        "the rest is the hand, first card on top; no Wood, no centre, nobody stuck",
        3,
        {0: Deck(hand="4Y 5Y 6Y")},
        check=checks(
            area_check(0, hand_top="4Y", wood=[], stuck=False, active=True),
            lambda t: holds(len(t.areas[0].hand) == 26, "26 cards in a 3-player hand"),
            lambda t: holds(t.areas[0].hand[-3] == c("6Y"), "6Y third from the top"),
            table_check(piles=[], over=False, stalemates=0),
        ),
    ),
]

MOVES = [
    Scenario(
        "R-10",
        "a seat that is not at the table is refused",
        2,
        steps=[(stuck(2), Reason.UNKNOWN_SEAT), (centre(5, BLITZ, "1R"), Reason.UNKNOWN_SEAT)],
    ),
    Scenario(
        "R-10",
        "an inactive seat is refused",
        3,
        {2: Deck(blitz="1R 9Y")},
        steps=[(centre(2, BLITZ, "1R", None, "9Y"), Reason.NOT_ACTIVE)],
        inactive=(2,),
    ),
    Scenario(
        "R-11",
        "only a top card of one's own Blitz, Post or Wood pile plays",
        4,
        {0: Deck(post="1G 9R 9B", blitz="1R 1B 9Y 8Y")},
        steps=[
            (centre(0, BLITZ, "1R/1"), Reason.NOT_YOUR_CARD),
            (centre(0, BLITZ, "1B"), Reason.NOT_ON_TOP),
            (centre(0, WOOD, "1R"), Reason.EMPTY_SOURCE),
            (centre(0, POST, "1G", slot=3), Reason.BAD_SLOT),
            (centre(0, POST, "1G", slot=-1), Reason.BAD_SLOT),
            (centre(0, POST, "9R", slot=0), Reason.NOT_ON_TOP),
            (CentrePlay(0, 7, 0, c("1R"), None, c("1B")), Reason.BAD_SOURCE),  # type: ignore[arg-type]
            (centre(0, BLITZ, "1R", None, "1B", slot=2), OK),  # a Blitz play's slot is ignored
            (centre(0, BLITZ, "1B", None, "9Y"), OK),
            (centre(0, POST, "1G", None, "8Y", slot=0), OK),
        ],
        check=area_check(0, post=[["9Y"], ["9R"], ["9B"]]),
    ),
]

CENTRE = [
    Scenario(
        "R-12",
        "a 1 starts a new pile even when it names one, and anyone plays on any pile",
        2,
        {0: Deck(blitz="1R 9Y"), 1: Deck(blitz="1R 2R 9G")},
        steps=[
            (centre(0, BLITZ, "1R", None, "9Y"), OK),
            (centre(1, BLITZ, "1R", 0, "2R"), OK),
            (centre(1, BLITZ, "2R", 0, "9G"), OK),
        ],
        check=table_check(piles=[["1R", "2R"], ["1R"]]),
    ),
    Scenario(
        "R-13",
        "a card goes on its own colour, one higher",
        4,
        {0: Deck(post="2G 9B 9Y", blitz="1R 2R 4R 3R 9G")},
        steps=[
            (centre(0, BLITZ, "1R", None, "2R"), OK),
            (centre(0, BLITZ, "2R", 0, "4R"), OK),
            (centre(0, BLITZ, "4R", 0, "3R"), Reason.WRONG_VALUE),
            (centre(0, POST, "2G", 0, "3R", slot=0), Reason.WRONG_COLOUR),
        ],
        check=table_check(piles=[["1R", "2R"]]),
    ),
    Scenario(
        "R-13",
        "a pile at 10 is complete",
        2,
        {0: Deck(blitz=RUN_1_TO_10)},
        steps=[*_run_of_reds(0, "10R"), (centre(0, BLITZ, "10R", 0, None), OK)],
        check=lambda t: holds(
            all(rules.centre_pile_for(t, card(1, Colour.RED, v)) is False for v in range(2, 11)),
            "a complete pile takes nothing",
        ),
    ),
    Scenario(
        "R-14",
        "a card whose named pile is taken falls back to the next pile that takes it",
        3,
        {0: Deck(blitz="1R 2R 9Y"), 1: Deck(blitz="1R 9Y"), 2: Deck(blitz="2R 9Y")},
        steps=[
            (centre(0, BLITZ, "1R", None, "2R"), OK),
            (centre(1, BLITZ, "1R", None, "9Y"), OK),
            (centre(0, BLITZ, "2R", 0, "9Y"), OK),
            (centre(2, BLITZ, "2R", 0, "9Y"), OK),  # decided while pile 0 still took it
        ],
        check=table_check(piles=[["1R", "2R"], ["1R", "2R"]]),
    ),
    Scenario(
        "R-14",
        "no pile named, or a pile that does not exist: the oldest that takes it",
        2,
        {0: Deck(blitz="1R 2R 2G 9Y"), 1: Deck(blitz="1R 1G 9G")},
        steps=[
            (centre(1, BLITZ, "1R", None, "1G"), OK),
            (centre(0, BLITZ, "1R", None, "2R"), OK),
            (centre(1, BLITZ, "1G", None, "9G"), OK),
            (centre(0, BLITZ, "2R", None, "2G"), OK),
            (centre(0, BLITZ, "2G", 99, "9Y"), OK),
        ],
        check=table_check(piles=[["1R", "2R"], ["1R"], ["1G", "2G"]]),
    ),
    Scenario(
        "R-15",
        "refused only when no pile takes the card, for the named pile's reason",
        2,
        {0: Deck(post="3G 4R 2B 9B 9Y", blitz="2G 9G"), 1: Deck(blitz="1G 1R 9Y")},
        steps=[
            (centre(0, BLITZ, "2G", None, "9G"), Reason.NEEDS_A_ONE),
            (centre(0, BLITZ, "2G", 3, "9G"), Reason.NEEDS_A_ONE),
            (centre(1, BLITZ, "1G", None, "1R"), OK),
            (centre(1, BLITZ, "1R", None, "9Y"), OK),
            (centre(0, POST, "3G", None, "9G", slot=0), Reason.NO_PILE),
            (centre(0, POST, "3G", 0, "9G", slot=0), Reason.WRONG_VALUE),
            (centre(0, POST, "4R", 0, "9G", slot=1), Reason.WRONG_COLOUR),
            (centre(0, POST, "2B", 1, "9G", slot=2), Reason.WRONG_COLOUR),
            (centre(0, POST, "2B", None, "9G", slot=2), Reason.NEEDS_A_ONE),
            (centre(0, BLITZ, "2G", 1, "9G"), OK),  # pile 1 is red: it falls back to pile 0
        ],
        check=table_check(piles=[["1G", "2G"], ["1R"]]),
    ),
    Scenario(
        "R-16",
        "a lost race names the seat whose card holds the place",
        3,
        {0: Deck(blitz="1R 3R 9Y"), 1: Deck(blitz="2R 9Y"), 2: Deck(blitz="2R 9Y")},
        steps=[
            (centre(0, BLITZ, "1R", None, "3R"), OK),
            (centre(2, BLITZ, "2R", 0, "9Y"), OK),
            (centre(0, BLITZ, "3R", 0, "9Y"), OK),
            (centre(1, BLITZ, "2R", 0, "9Y"), taken(by=2)),
            (centre(1, BLITZ, "2R", None, "9Y"), Reason.NO_PILE),
        ],
    ),
    Scenario(
        "R-16",
        "8 players: the last seat wins the race",
        8,
        {3: Deck(blitz="1B 9Y"), 5: Deck(blitz="2B 9Y"), 7: Deck(blitz="2B 9Y")},
        steps=[
            (centre(3, BLITZ, "1B", None, "9Y"), OK),
            (centre(7, BLITZ, "2B", 0, "9Y"), OK),
            (centre(5, BLITZ, "2B", 0, "9Y"), taken(by=7)),
        ],
    ),
]

POST_ROW = [
    Scenario(
        "R-17",
        "an emptied Post stack takes the Blitz top at once",
        4,
        {0: Deck(post="1R 5G 6G", blitz="8B 3Y 9Y")},
        steps=[(centre(0, POST, "1R", None, "3Y", slot=0), OK)],
        check=checks(
            area_check(0, post=[["8B"], ["5G"], ["6G"]], blitz_top="3Y"),
            lambda t: holds(len(t.areas[0].blitz) == 9, "one card left the Blitz pile"),
        ),
    ),
    Scenario(
        "R-17",
        "a taller Post stack shrinks without a refill",
        4,
        {0: Deck(post="2G 9R 9B", blitz="1R 1G 8Y 7B")},
        steps=[
            (post(0, BLITZ, "1R", 0, "1G"), OK),
            (centre(0, POST, "1R", None, None, slot=0), OK),
            (centre(0, BLITZ, "1G", None, "8Y"), OK),
            (centre(0, POST, "2G", 1, "7B", slot=0), OK),
        ],
        check=area_check(0, post=[["8Y"], ["9R"], ["9B"]], blitz_top="7B"),
    ),
    Scenario(
        "R-18",
        "Post stacking: one lower, the other gender, from the Blitz top",
        4,
        {0: Deck(post="5R 5B 5G", blitz="4B 4G 3Y 2B 9R")},
        steps=[
            (post(0, BLITZ, "4B", 0, "4G"), Reason.SAME_GENDER),
            (post(0, BLITZ, "4B", 1, "4G"), Reason.SAME_GENDER),
            (post(0, BLITZ, "4G", 0, "3Y"), Reason.NOT_ON_TOP),
            (post(0, BLITZ, "4B", 2, "4G"), OK),
            (post(0, BLITZ, "4G", 0, "3Y"), OK),
            (post(0, BLITZ, "3Y", 0, "2B"), Reason.SAME_GENDER),
            (post(0, BLITZ, "3Y", 1, "2B"), Reason.WRONG_VALUE),
            (post(0, BLITZ, "3Y", 2, "2B"), OK),
            (post(0, BLITZ, "2B", 2, "9R"), OK),
            (centre(0, POST, "5G", None, None, slot=2), Reason.NOT_ON_TOP),
        ],
        check=area_check(0, post=[["5R", "4G"], ["5B"], ["5G", "4B", "3Y", "2B"]]),
    ),
    Scenario(
        "R-18",
        "Post stacking from the Wood top, and the refusals of a post play",
        4,
        {0: Deck(post="5R 9G 9Y", blitz="4B 9R", hand="8G 8Y 4Y")},
        steps=[
            (post(0, WOOD, "4Y", 0, "8Y"), Reason.EMPTY_SOURCE),
            (flip(0, "4Y"), OK),
            (post(0, POST, "9G", 0), Reason.BAD_SOURCE),
            (post(0, WOOD, "4Y", 3, "8Y"), Reason.BAD_SLOT),
            (post(0, WOOD, "4Y/1", 0, "8Y"), Reason.NOT_YOUR_CARD),
            (post(0, WOOD, "8G", 0, "8Y"), Reason.NOT_ON_TOP),
            (post(0, WOOD, "4Y", 0, "8Y"), OK),
            (post(0, WOOD, "8Y", 1, "8G"), Reason.SAME_GENDER),
            (post(0, WOOD, "8Y", 0, "8G"), Reason.WRONG_VALUE),
        ],
        check=area_check(0, post=[["5R", "4Y"], ["9G"], ["9Y"]], wood=["8G", "8Y"]),
    ),
    Scenario(
        "R-19",
        "with Post stacking off every post play is refused",
        2,
        {0: Deck(post="5R", blitz="4G 9R")},
        steps=[
            (post(0, BLITZ, "4G", 0, "9R"), Reason.STACKING_OFF),
            (post(0, POST, "5R", 0), Reason.STACKING_OFF),
            (centre(0, BLITZ, "4G", None, "9R"), Reason.NEEDS_A_ONE),
        ],
        post_stacking=False,
    ),
]

WOOD_PILE = [
    Scenario(
        "R-20",
        "a flip turns three over: the deepest lands on top",
        4,
        {0: Deck(hand="7G 8G 9G 6Y")},
        steps=[(flip(0, "9G"), OK), (flip(0, "7G"), Reason.SHOWS_MISMATCH)],
        check=area_check(0, wood=["7G", "8G", "9G"], hand_top="6Y"),
    ),
    Scenario(
        "R-20",
        "2 players: the last flip turns the one card left",
        2,
        steps=[*flips(0, QUIET_2P_FLIPS), (flip(0, "3B"), Reason.HAND_EMPTY)],
        check=checks(
            area_check(0, hand=[], wood_top="3B"),
            lambda t: holds(t.areas[0].wood[-2] == c("3R"), "the card flipped before"),
        ),
    ),
    Scenario(
        "R-20",
        "3 players: the last flip turns the two cards left, the deeper on top",
        3,
        steps=[*flips(1, QUIET_3P_FLIPS), (flip(1, None), Reason.HAND_EMPTY)],
        check=checks(
            area_check(1, hand=[], wood_top="3B"),
            lambda t: holds(t.areas[1].wood[-2] == c("3R", 1), "3R under 3B"),
        ),
    ),
    Scenario(
        "R-21",
        "the Wood turns over into the empty hand, unshuffled",
        3,
        steps=[
            (turn(1), Reason.HAND_NOT_EMPTY),
            *flips(1, QUIET_3P_FLIPS),
            (turn(1), OK),
            (turn(1), Reason.HAND_NOT_EMPTY),
            (flip(1, "9G"), OK),
        ],
        check=area_check(1, hand_top="9Y", wood=["9R", "9B", "9G"]),
    ),
    Scenario(
        "R-21",
        "a hand played out to the last card leaves nothing to turn",
        2,
        {0: HAND_RUN_DECK},
        steps=[
            *_play_out_hand(0),
            (turn(0), Reason.WOOD_EMPTY),
            (flip(0, "1Y"), Reason.HAND_EMPTY),
        ],
        scores=(25 - 20, -20),
        check=checks(
            area_check(0, hand=[], wood=[]),
            lambda t: holds([len(p.cards) for p in t.piles] == [10, 10, 5], "three piles"),
        ),
    ),
]

STUCK = [
    Scenario(
        "R-22",
        "a stuck call is refused while a face-up card could go to the centre",
        4,
        {0: Deck(blitz="1R 9Y"), 1: Deck(post="9G 1B 9Y"), 2: Deck(hand="7G 8G 1Y")},
        steps=[
            (stuck(0), Reason.HAS_PLAY),
            (stuck(1), Reason.HAS_PLAY),
            (flip(2, "1Y"), OK),
            (stuck(2), Reason.HAS_PLAY),
            (stuck(3), OK),
            (stuck(3), OK),
        ],
        check=lambda t: holds(
            [t.areas[s].stuck for s in t.seats] == [False, False, False, True], "only 3 stuck"
        ),
    ),
    Scenario(
        "R-23",
        "a stuck player waits: every move but a stuck call is refused until a stalemate",
        2,
        {0: Deck(post="10B", blitz="9G 8Y")},
        steps=[
            (stuck(0), OK),
            (flip(0, "8R"), Reason.STUCK),
            (turn(0), Reason.STUCK),
            (post(0, BLITZ, "9G", 0, "8Y"), Reason.STUCK),
            (centre(0, BLITZ, "9G", None, "8Y"), Reason.STUCK),
            (stuck(0), OK),
            (stuck(1), OK),
            (post(0, BLITZ, "9G", 0, "8Y"), OK),
        ],
        check=checks(table_check(stalemates=1), area_check(0, stuck=False)),
    ),
    Scenario(
        "R-23",
        "a centre play lapses every stuck call",
        3,
        {2: Deck(blitz="1R 9Y")},
        steps=[(stuck(0), OK), (stuck(1), OK), (centre(2, BLITZ, "1R", None, "9Y"), OK)],
        check=lambda t: holds(not any(a.stuck for a in t.areas.values()), "nobody stuck"),
    ),
    Scenario(
        "R-23",
        "another player's flip lapses no call; their centre play lapses every call",
        3,
        {0: Deck(post="10B", blitz="9G 8Y"), 2: Deck(blitz="1R 9Y")},
        steps=[
            (stuck(0), OK),
            (stuck(1), OK),
            (flip(2, "9G"), OK),
            (post(0, BLITZ, "9G", 0, "8Y"), Reason.STUCK),
            (centre(2, BLITZ, "1R", None, "9Y"), OK),
            (post(0, BLITZ, "9G", 0, "8Y"), OK),
        ],
        check=lambda t: holds(not any(a.stuck for a in t.areas.values()), "nobody stuck"),
    ),
    Scenario(
        "R-24",
        "when every player is stuck, each hand's top card goes to the bottom",
        2,
        steps=[(stuck(0), OK), (stuck(1), OK), (flip(0, "8R"), OK), (flip(1, "8R"), OK)],
        full_digest=True,
        check=checks(
            table_check(stalemates=1, idle_stalemates=1),
            area_check(0, stuck=False, wood=["9G", "9Y", "8R"]),
            area_check(1, stuck=False, wood=["9G", "9Y", "8R"]),
            lambda t: holds(t.areas[0].hand[0] == c("9B"), "9B went to the bottom"),
        ),
    ),
    Scenario(
        "R-24",
        "a stalemate turns an empty hand's Wood pile over first",
        2,
        steps=[*flips(0, QUIET_2P_FLIPS), (stuck(0), OK), (stuck(1), OK), (flip(0, "8R"), OK)],
        check=checks(
            area_check(0, wood=["9G", "9Y", "8R"]),
            lambda t: holds(len(t.areas[0].hand) == 22, "the turned hand minus one flip"),
            lambda t: holds(t.areas[0].hand[0] == c("9B"), "9B went to the bottom"),
        ),
    ),
    Scenario(
        "R-24",
        "an inactive seat neither counts for a stalemate nor moves",
        3,
        steps=[(stuck(0), OK), (stuck(1), OK), (flip(2, "9G"), Reason.NOT_ACTIVE)],
        inactive=(2,),
        check=checks(
            table_check(stalemates=1),
            area_check(0, hand_top="9B"),
            area_check(2, hand_top="9R"),
        ),
    ),
    Scenario(
        "R-25",
        "30 stalemates with no centre play end the round with no Blitz",
        2,
        steps=[
            *stalemates((0, 1), 29),
            (stuck(0), OK),
            (stuck(1), OK),
            (stuck(0), Reason.ROUND_OVER),
        ],
        scores=(-20, -20),
        check=table_check(over=True, blitz_by=None, stalemates=30),
    ),
    Scenario(
        "R-25",
        "a centre play starts the count of stalemates again",
        2,
        {0: Deck(hand="* * * * * * 1R")},
        steps=[
            *stalemates((0, 1), 29),
            (flip(0, "1R"), OK),  # 29 stalemates have turned the 25-card hand by 4
            (centre(0, WOOD, "1R", None, "8G"), OK),
            *stalemates((0, 1), 29),
            (stuck(0), OK),
            (stuck(1), OK),
            (flip(0, "9Y"), Reason.ROUND_OVER),
        ],
        scores=(1 - 20, -20),
        check=table_check(over=True, blitz_by=None, stalemates=59, idle_stalemates=30),
    ),
]

END = [
    Scenario(
        "R-26",
        "playing the last Blitz card to the centre is Blitz",
        2,
        {0: Deck(blitz=RUN_1_TO_10)},
        steps=[
            *_run_of_reds(0, "10R"),
            (centre(0, BLITZ, "10R", 0, "9G"), Reason.SHOWS_MISMATCH),  # nothing left to show
            (centre(0, BLITZ, "10R", 0, None), OK),
        ],
        scores=(10, -20),
        check=table_check(over=True, blitz_by=0),
    ),
    Scenario(
        "R-26",
        "8 players: refilling a Post stack with the last Blitz card ends the round mid-flight",
        8,
        {0: Deck(post="1G", blitz="1R 2R 3R 4R 5R 6R 7R 8R 9R 5Y"), 6: Deck(blitz="1B 9Y")},
        steps=[
            *_run_of_reds(0, "5Y"),
            (centre(0, POST, "1G", None, None, slot=0), OK),
            (centre(6, BLITZ, "1B", None, "9Y"), Reason.ROUND_OVER),
            (centre(0, POST, "5Y", None, None, slot=0), Reason.ROUND_OVER),
        ],
        scores=(10, -20, -20, -20, -20, -20, -20, -20),
        check=checks(
            table_check(over=True, blitz_by=0),
            area_check(0, blitz=[], post=[["5Y"], ["10R"], ["10B"]]),
        ),
    ),
    Scenario(
        "R-26",
        "a post play of the last Blitz card is Blitz too",
        2,
        {0: Deck(post="10B", blitz="1R 2R 3R 4R 5R 6R 7R 8R 9R 9G")},
        steps=[*_run_of_reds(0, "9G"), (post(0, BLITZ, "9G", 0, None), OK)],
        scores=(9, -20),
        check=checks(
            table_check(over=True, blitz_by=0),
            area_check(0, post=[["10B", "9G"], ["10R"], ["10G"], ["10Y"], ["9B"]]),
        ),
    ),
    Scenario(
        "R-27",
        "after Blitz every move is refused, whoever makes it",
        3,
        {0: Deck(blitz=RUN_1_TO_10), 1: Deck(blitz="1G 9Y")},
        steps=[
            *_run_of_reds(0, "10R"),
            (centre(0, BLITZ, "10R", 0, None), OK),
            (centre(1, BLITZ, "1G", None, "9Y"), Reason.ROUND_OVER),
            (stuck(2), Reason.ROUND_OVER),
            (flip(2, "9G"), Reason.ROUND_OVER),
            (turn(1), Reason.ROUND_OVER),
            (stuck(9), Reason.ROUND_OVER),  # round_over comes before unknown_seat
        ],
        scores=(10, -20, -20),
    ),
    Scenario(
        "R-28",
        "+1 per own card in the centre, -2 per card left in one's own Blitz pile",
        3,
        {0: Deck(blitz="1R 2G 9Y"), 1: Deck(post="1G 2R 9Y 9B", blitz="3R 3G 9G 8G")},
        steps=[
            (centre(0, BLITZ, "1R", None, "2G"), OK),
            (centre(1, POST, "1G", None, "3G", slot=0), OK),
            (centre(0, BLITZ, "2G", 1, "9Y"), OK),
            (centre(1, POST, "2R", 0, "9G", slot=1), OK),
            (centre(1, POST, "3R", 0, "8G", slot=0), OK),
            (flip(2, "9G"), OK),
        ],
        scores=(2 - 2 * 8, 3 - 2 * 7, -20),
    ),
]

REFUSALS = [
    Scenario(
        "R-31",
        "refusals of every kind leave the table as it was",
        3,
        {0: Deck(blitz="1R 2R 9Y", hand="8G 8Y 7G")},
        steps=[
            (centre(0, BLITZ, "1R", None, "2R"), OK),
            (flip(0, "7G"), OK),
            (centre(0, BLITZ, "2R", 0, "8Y"), Reason.SHOWS_MISMATCH),
            (centre(0, WOOD, "7G", None, "8Y"), Reason.NEEDS_A_ONE),
            (post(0, WOOD, "7G", 0, "8Y"), Reason.WRONG_VALUE),
            (flip(0, "8G"), Reason.SHOWS_MISMATCH),
            (turn(0), Reason.HAND_NOT_EMPTY),
            (stuck(0), Reason.HAS_PLAY),
            (centre(1, BLITZ, "2R"), Reason.NOT_ON_TOP),
            (stuck(1), OK),
        ],
    ),
    Scenario(
        "R-32",
        "when several reasons apply, the first in the spec's order is given",
        2,
        {0: Deck(post="10B 1R 9G 3Y", blitz="2G 4R 9Y")},
        steps=[
            (centre(1, POST, "1R/0", slot=9), Reason.NOT_ACTIVE),
            (stuck(7), Reason.UNKNOWN_SEAT),
            (centre(0, BLITZ, "4R/1"), Reason.NOT_YOUR_CARD),
            (centre(0, POST, "9Y/1", slot=9), Reason.NOT_YOUR_CARD),
            (centre(0, POST, "9Y", slot=9), Reason.BAD_SLOT),
            (centre(0, WOOD, "4R"), Reason.EMPTY_SOURCE),
            (centre(0, BLITZ, "4R"), Reason.NOT_ON_TOP),
            (centre(0, BLITZ, "2G", None, "9Y"), Reason.NEEDS_A_ONE),
            (post(0, POST, "1R/1", 42), Reason.BAD_SOURCE),
            (post(0, BLITZ, "2G/1", 42), Reason.BAD_SLOT),
            (post(0, BLITZ, "2G/1", 0), Reason.NOT_YOUR_CARD),
            (post(0, WOOD, "4R", 0), Reason.EMPTY_SOURCE),
            (post(0, BLITZ, "4R", 0), Reason.NOT_ON_TOP),
            (post(0, BLITZ, "2G", 2, "9Y"), Reason.WRONG_VALUE),
            (post(0, BLITZ, "2G", 3, "9Y"), Reason.SAME_GENDER),
            (turn(0), Reason.HAND_NOT_EMPTY),
            (stuck(0), Reason.HAS_PLAY),
            (flip(0, None), Reason.SHOWS_MISMATCH),
        ],
        inactive=(1,),
    ),
    Scenario(
        "R-32",
        "a stuck player's move is refused for being stuck before anything else",
        3,
        steps=[
            (stuck(0), OK),
            (post(0, BLITZ, "4R/1", 9), Reason.STUCK),
            (centre(0, WOOD, "1R"), Reason.STUCK),
            (turn(0), Reason.STUCK),
            (flip(2, None), Reason.NOT_ACTIVE),
            (stuck(0), OK),
        ],
        inactive=(2,),
    ),
]

SHOWS_STEPS: list[Step] = [
    (centre(0, BLITZ, "1G", None, None), Reason.SHOWS_MISMATCH),
    (centre(0, BLITZ, "1G", None, "8B"), Reason.SHOWS_MISMATCH),
    (centre(0, BLITZ, "1G", None, "2R"), OK),
    (post(0, BLITZ, "2R", 1, None), Reason.SHOWS_MISMATCH),
    (post(0, BLITZ, "2R", 1, "8B"), OK),
    (centre(0, POST, "1R", None, None, slot=0), Reason.SHOWS_MISMATCH),
    (centre(0, POST, "1R", None, "8B", slot=0), Reason.SHOWS_MISMATCH),
    (centre(0, POST, "1R", None, "7B", slot=0), OK),
    (centre(0, POST, "2R", 1, "7B", slot=1), Reason.SHOWS_MISMATCH),
    (centre(0, POST, "2R", 1, None, slot=1), OK),
    (flip(0, None), Reason.SHOWS_MISMATCH),
    (flip(0, "6R"), Reason.SHOWS_MISMATCH),
    (flip(0, "2G"), OK),
    (centre(0, WOOD, "2G", 0, "6R"), Reason.SHOWS_MISMATCH),
    (centre(0, WOOD, "2G", 0, "6Y"), OK),
    (flip(0, "3R"), OK),
    (centre(0, WOOD, "3R", 1, "5Y"), OK),
]
SHOWS_DECKS = {0: Deck(post="1R 3G 9Y", blitz="1G 2R 8B 7B", hand="6R 6Y 2G 5G 5Y 3R")}

HIDDEN = [
    Scenario(
        "R-33",
        "seat 0's replica at the deal: others' hidden cards unknown",
        4,
        viewer=0,
        check=lambda t: holds(
            all(a.blitz[-1] is not None and a.blitz[:-1] == [None] * 9 for a in _others(t, 0))
            and all(a.hand == [None] * 27 for a in _others(t, 0))
            and None not in t.areas[0].blitz + t.areas[0].hand,
            "only face-up cards of others known",
        ),
    ),
    Scenario(
        "R-34",
        "each move shows the card it turns face up, or nothing",
        4,
        SHOWS_DECKS,
        steps=SHOWS_STEPS,
        check=table_check(piles=[["1G", "2G"], ["1R", "2R", "3R"]]),
    ),
    Scenario(
        "R-35",
        "a replica checks what a move shows, and learns it",
        2,
        {
            0: Deck(post="10B 10G 9R 9B 9G", blitz="1R 2R 1G 8Y", hand="* * 7Y"),
            1: Deck(blitz="1Y 9Y"),
        },
        steps=[
            (centre(0, BLITZ, "1R", None, "10B"), Reason.SHOWS_MISMATCH),  # a Post card
            (centre(0, BLITZ, "1R", None, "1R"), Reason.SHOWS_MISMATCH),  # the card played
            (centre(0, BLITZ, "1R", None, "2R/1"), Reason.SHOWS_MISMATCH),  # another deck's
            (centre(1, BLITZ, "1Y", None, "8Y"), Reason.SHOWS_MISMATCH),  # its own, known
            (centre(0, BLITZ, "1R", None, "2R"), OK),
            (centre(1, BLITZ, "1Y", None, "9Y"), OK),
            (centre(0, BLITZ, "2R", 0, "1R"), Reason.SHOWS_MISMATCH),  # in the centre
            (centre(0, BLITZ, "2R", 0, "1G"), OK),
            (flip(0, "1R"), Reason.SHOWS_MISMATCH),
            (flip(0, "7Y"), OK),
        ],
        viewer=1,
        check=checks(
            area_check(0, blitz_top="1G", wood_top="7Y"),
            lambda t: holds(t.areas[0].wood[:2] == [None, None], "the rest still unknown"),
        ),
    ),
    Scenario(
        "R-36",
        "seat 3's replica follows every move the full table accepted",
        4,
        SHOWS_DECKS,
        steps=[step for step in SHOWS_STEPS if step[1] == OK],
        viewer=3,
    ),
    Scenario(
        "R-36",
        "seat 1's replica learns a whole hand played out",
        2,
        {0: HAND_RUN_DECK},
        steps=_play_out_hand(0),
        viewer=1,
    ),
    Scenario(
        "R-37",
        "seat 2's replica of a lost race has the full table's public digest",
        3,
        {0: Deck(blitz="1R 3R 9Y"), 1: Deck(blitz="2R 9Y"), 2: Deck(blitz="2R 9Y")},
        steps=[
            (centre(0, BLITZ, "1R", None, "3R"), OK),
            (centre(2, BLITZ, "2R", 0, "9Y"), OK),
            (centre(1, BLITZ, "2R", 0, "9Y"), taken(by=2)),
            (stuck(1), OK),
        ],
        viewer=2,
    ),
    Scenario(
        "R-38",
        "the full digest covers the hidden cards",
        3,
        {0: Deck(hand="7G 8G 9G")},
        steps=[(flip(0, "9G"), OK), (stuck(1), OK)],
        full_digest=True,
    ),
]


def _others(table: Table, seat: int) -> list[Area]:
    return [area for s, area in table.areas.items() if s != seat]


SCENARIOS: list[Scenario] = [*DEAL, *MOVES, *CENTRE, *POST_ROW, *WOOD_PILE, *STUCK, *END]
SCENARIOS += [*REFUSALS, *HIDDEN]
