"""Dutch's words: its refusals, what a move did, the special cards, the prompts under a
player's row, and the round's and the game's ends.

The table's words (client/words.py) say the rest; this face hands ``WORDS`` to the frame
(``GameFace.words``). What the screens lay out around these words (headings, hints) stays
with the screens.
"""

from __future__ import annotations

from collections.abc import Callable

from dutchblitz.node.api import News, Refused, Told, Why
from dutchblitz.protocol.games.dutch.cards import DutchCard
from dutchblitz.protocol.games.dutch.moves import Reason as DutchReason
from dutchblitz.protocol.games.dutch.moves import Spot
from dutchblitz.protocol.games.dutch.views import Did, DutchResult, Happening, Phase, RoundView

from ...words import GameWords, listed, say, tell

DUTCH_WORDS: dict[DutchReason, str] = {
    DutchReason.ROUND_OVER: "the round is over",
    DutchReason.UNKNOWN_SEAT: "you are not seated at this round",
    DutchReason.NOT_ACTIVE: "you have left this round",
    DutchReason.NOT_PEEK_TIME: "the peeks are over: turns have begun",
    DutchReason.ALREADY_PEEKED: "you have already looked at two cards",
    DutchReason.NOT_YOUR_TURN: "it is not your turn",
    DutchReason.WRONG_STAGE: "not now: {stage}",
    DutchReason.BAD_SLOT: "there is no such card",
    DutchReason.EMPTY_SLOT: "that place is empty",
    DutchReason.SAME_SPOT: "pick two different cards",
    DutchReason.WRONG_ACTION: "that is not what your card does",
    DutchReason.LOCKED: "that hand is locked: its player called Dutch",
    DutchReason.NOT_AN_OPPONENT: "give the card to another player at the table",
    DutchReason.PILE_EMPTY: "the draw pile is empty",
    DutchReason.WINDOW_CLOSED: "too late: the next player has drawn",
    DutchReason.NOTHING_TO_MATCH: "nothing has been discarded yet",
    DutchReason.DUTCH_TAKEN: "Dutch was already called this round",
    DutchReason.FACE_NOT_OPEN: "that card is still being turned over: try again",
}

# What each stage of a turn waits for, for "not now: ...".
DUTCH_STAGES = {
    "peek": "everyone is looking at two cards",
    "draw": "draw a card first",
    "decide": "discard the card you drew, or put it in place of one of yours",
    "action": "use your card's action, or skip it",
    "over": "the round is over",
}

BOT_LEVELS = {  # what each of Dutch's bot levels does, said when l picks it
    "forgetful": "forgetful bot: remembers no card, swaps blindly, calls Dutch on a whim",
    "careful": "careful bot: remembers what it saw, throws matches, uses its specials",
}

# A special card's name and what it does, for the prompt and the news.
SPECIAL_CARDS = {11: "Jack", 12: "Queen", 1: "Ace"}
RANK_NAMES = {**SPECIAL_CARDS, 13: "King"}
SPECIAL_DOES = {
    11: "swap any two cards",
    12: "look at one card",
    1: "give a card from the pile to another player",
}


# A refusal that reads better for one move: a call is only ever "just after your turn".
CALL_WHEN = "call Dutch just after your own turn, before the next draw"
DUTCH_CALL_WORDS = {DutchReason.NOT_YOUR_TURN: CALL_WHEN, DutchReason.WINDOW_CLOSED: CALL_WHEN}


def dutch_says(reason: DutchReason, stage: str = "", calling: bool = False) -> str:
    """The words for a refused Dutch move (``calling``: it was a Dutch call)."""
    if calling and reason in DUTCH_CALL_WORDS:
        return DUTCH_CALL_WORDS[reason]
    return DUTCH_WORDS[reason].format(stage=DUTCH_STAGES.get(stage, stage))


def card_words(card: DutchCard | None) -> str:
    """A card as the screen writes it: ``7s``, ``10h``, ``Jkr`` for a Joker."""
    if card is None:
        return "a card"
    return "Jkr" if card.is_joker else card.label()


class Seats:
    """Names as a viewer reads them: "you" for the viewer, else the player's name (a viewer
    None is nobody at the table, a spectator: never "you")."""

    def __init__(self, names: tuple[str, ...], viewer: int | None) -> None:
        self.names, self.viewer = names, viewer

    def who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "someone"
        return "you" if seat == self.viewer else self.names[seat]

    def whose(self, seat: int, subject: int | None = None) -> str:
        """ "your", "their" (the subject's own), or "Bea's"."""
        if seat == self.viewer:
            return "your"
        return "their" if seat == subject else f"{self.names[seat]}'s"

    def spot(self, spot: Spot, subject: int | None = None) -> str:
        return f"{self.whose(spot.seat, subject)} card {spot.slot + 1}"


def _dutch_put_down(did: Happening, seats: Seats) -> str:
    who, face = seats.who(did.seat), card_words(did.face)
    said = f"{who} discarded {face}"
    if did.did is Did.REPLACED and did.spots:
        said = f"{who} kept the drawn card as card {did.spots[0].slot + 1} and discarded {face}"
    if did.penalty:
        return f"{said}: a Joker, a penalty card for {who}"
    if did.action in SPECIAL_CARDS:
        card = SPECIAL_CARDS[did.action]
        return (
            f"{said}: {'an' if card == 'Ace' else 'a'} {card}, {who} may {SPECIAL_DOES[did.action]}"
        )
    return said


def _dutch_looked(did: Happening, seats: Seats) -> str:
    spot = did.spots[0]
    if did.seat == seats.viewer:
        return f"you peeked at {seats.spot(spot)}: {card_words(did.face)}"
    target = "their own" if spot.seat == did.seat else seats.whose(spot.seat)
    return f"{seats.who(did.seat)} peeked at {target} card {spot.slot + 1}"


def _dutch_threw(did: Happening, seats: Seats, first: bool) -> str:
    who, face = seats.who(did.seat), card_words(did.face)
    if did.did is Did.MATCHED:
        return f"{who} threw first: {face}" if first else f"{who} threw {face} too: a match"
    penalty = ", a penalty card" if did.penalty else ""
    return f"{who} threw {face}: no match, it stays face up{penalty}"


DUTCH_NEWS: dict[Did, Callable[[Happening, Seats], str]] = {
    Did.PEEKED: lambda did, s: (
        f"{s.who(did.seat)} looked at two of {s.whose(did.seat, did.seat)} cards"
    ),
    Did.DREW: lambda did, s: (
        f"{s.who(did.seat)} drew " + (card_words(did.face) if did.face else "a card")
    ),
    Did.DISCARDED: _dutch_put_down,
    Did.REPLACED: _dutch_put_down,
    Did.SWAPPED: lambda did, s: (
        f"{s.who(did.seat)} swapped {s.spot(did.spots[0], did.seat)}"
        f" and {s.spot(did.spots[1], did.seat)}"
    ),
    Did.LOOKED: _dutch_looked,
    Did.GAVE: lambda did, s: f"{s.who(did.seat)} gave {s.who(did.other)} a card from the pile",
    Did.SKIPPED: lambda did, s: (
        f"{s.who(did.seat)} did not use the " + SPECIAL_CARDS.get(did.action or 0, "card")
    ),
    Did.CALLED: lambda did, s: f"{s.who(did.seat)} called DUTCH! One last turn each",
    Did.LEFT: lambda did, s: f"{s.who(did.seat)} left: the cards stay and count",
}


def dutch_news(did: Happening, seats: Seats, first: bool = False) -> str:
    """What a move did, for one viewer: ``first`` when a matching throw won the race."""
    if did.did in (Did.MATCHED, Did.MISSED):
        return _dutch_threw(did, seats, first)
    return DUTCH_NEWS[did.did](did, seats)


DUTCH_HINTS = {
    "player_first": "first a player's letter (a-h), then a card's number",
    "no_player": "no player has that letter",
    "card_next": "now the other card: a player's letter, then a card's number",
    "peek_another": "pick another of your cards",
    "throw_first": "to throw a card, press t first, then its number",
    "throw_card": "t throws a card: press its number (Esc forgets)",
    "not_now": "that key does nothing now (? shows the keys)",
    "no_card": "you have no card with that number",
    "turning": "your card is still being turned over for you: a moment",
}


def _spot_typed(typed: str, names: tuple[str, ...], me: int | None) -> str:
    """ "b3" as "Bea's card 3"; "b" as "Bea's card ..."."""
    seats, said = Seats(names, me), []
    for at in range(0, len(typed), 2):
        seat = "abcdefgh".index(typed[at])
        slot = typed[at + 1] if at + 1 < len(typed) else "…"
        said.append(f"{seats.whose(seat)} card {slot}")
    return " with ".join(said)


def dutch_prompt(view: RoundView, names: tuple[str, ...], typed: str = "") -> str:
    """The line under your row: what the game waits for (on another's turn, as watched)."""
    if view.mine is None:
        return dutch_watched(view, names)
    if view.phase is Phase.PEEK:
        return _peek_prompt(view, names, typed)
    if typed.startswith("t"):
        return "Throw which of your cards? Press its number."
    if not view.my_turn:
        return dutch_watched(view, names)
    if view.phase is Phase.DRAW:
        return "Your turn: d draws a card."
    if view.phase is Phase.DECIDE and view.turning_over:
        return "You drew a card: it is being turned over for you..."
    if view.phase is Phase.DECIDE:
        held = card_words(view.drawn.face if view.drawn else None)
        return f"You drew {held}: x discards it, or a card's number puts it in that card's place."
    card = SPECIAL_CARDS.get(view.action or 0, "card")
    does = SPECIAL_DOES.get(view.action or 0, "")
    picked = f" Picked: {_spot_typed(typed, names, view.me)}" if typed else ""
    how = "a player's letter" if view.action == 1 else "a player's letter, then a card's number"
    twice = ", twice" if view.action == 11 else ""
    return f"{card}: {does}: {how}{twice}; s skips.{picked}"


def _peek_prompt(view: RoundView, names: tuple[str, ...], typed: str) -> str:
    if view.mine is not None and view.mine.peeked:
        waiting = [names[p.seat] for p in view.players if p.at_table and not p.peeked]
        return f"Waiting for {listed(tuple(waiting))} to look at their cards."
    if typed:
        return f"Card {typed} picked: now another of your cards."
    return "Look at two of your cards: press two of their numbers."


def dutch_watched(view: RoundView, names: tuple[str, ...]) -> str:
    """What the game waits for, told to nobody at the table (a spectator): in the third
    person, with no key to press."""
    if view.phase is Phase.PEEK:
        waiting = [names[p.seat] for p in view.players if p.at_table and not p.peeked]
        return f"Waiting for {listed(tuple(waiting))} to look at two of their cards."
    who = names[view.turn][:1].upper() + names[view.turn][1:]
    if view.phase is Phase.DRAW:
        return f"{who} is to draw."
    if view.phase is Phase.DECIDE:
        return f"{who} drew a card and is deciding."
    if view.phase is Phase.ACTION:
        return f"{who} uses the {SPECIAL_CARDS.get(view.action or 0, 'card')}."
    return ""


DUTCH_SITS_LATER = "You are not dealt in: you sit down for the next game."


def dutch_not_dealt(watching: bool) -> str:
    """A key at a round this node plays no part in (D-42)."""
    if watching:
        return say(Refused(Why.WATCHING))
    return "you are not dealt in this round: you watch it"


def dutch_race(view: RoundView) -> str:
    """The race window (D-20): open or closed, and what matches."""
    if view.phase is Phase.PEEK:
        return "Race: closed until the first discard."
    if not view.window:
        return "Race: closed."
    top, face = card_words(view.discard_top), view.discard_top
    rank = "Joker" if face is None or face.is_joker else RANK_NAMES.get(face.rank, str(face.rank))
    return f"Race: OPEN till the next draw: throw a matching {rank} on the {top}."


def dutch_called(view: RoundView, names: tuple[str, ...]) -> str:
    """The Dutch call (D-28, D-29): who called, who still plays a last turn, in order."""
    if view.caller is None or view.phase is Phase.OVER:
        return ""
    seats, count = Seats(names, view.me), len(view.players)
    left = []
    for step in range(count):
        seat = (view.turn + step) % count
        if seat == view.caller:
            break
        if view.players[seat].at_table:
            left.append(seats.who(seat))
    who = seats.who(view.caller)
    locked = "your hand is" if view.caller == view.me else "their hand is"
    turns = f"last turns for {listed(tuple(left))}" if left else "no turns left"
    return f"{who[:1].upper()}{who[1:]} called DUTCH: {turns}; {locked} locked."


def dutch_length(target: int | None, rounds: int | None) -> str:
    if target is not None:
        return f"(game to {target} points)"
    return f"(game of {rounds} round{'s' if rounds != 1 else ''})" if rounds else ""


def dutch_ending(view: RoundView, names: tuple[str, ...]) -> str:
    """Why the round ended, and how the call went."""
    seats = Seats(names, view.me)
    why = {
        "dutch": "the last turns after the call are played",
        "pile_out": "the draw pile ran out",
        "deserted": "everyone left",
    }.get(view.ending.value if view.ending else "", "")
    if view.ending is not None and view.ending.value == "stranded":  # M-28
        return "The round is over: a player left, and no card can be turned up without them."
    said = f"The round is over: {why}. Every card is turned up."
    if view.score is None or view.caller is None:
        return said
    caller = seats.who(view.caller)
    worked = view.score.result is DutchResult.SUCCESS
    outcome = "it worked: the lowest hand" if worked else "it failed: not the lowest hand"
    return f"{said} {caller.capitalize()} called Dutch, and {outcome}."


def dutch_extra(view: RoundView, names: tuple[str, ...], extra: str, last: bool = False) -> str:
    """A failed caller's two cards (D-32) and fifth card next round (D-33), if there is one
    (``last``: the game is over)."""
    if view.caller is not None and view.caller == view.me:
        then = "." if last else ", and start next round with five."
        return f"You add two cards from the pile ({extra}){then}"
    who = Seats(names, view.me).who(view.caller)
    then = "." if last else ", and starts next round with five."
    return f"{who[:1].upper()}{who[1:]} adds two cards from the pile ({extra}){then}"


def dutch_winners(
    winners: tuple[int, ...], names: tuple[str, ...], me: int | None, points: int
) -> str:
    """D-39: the lowest total wins; a tie shares the win."""
    said = listed(tuple("you" if seat == me else names[seat] for seat in winners))
    verb = "win" if len(winners) > 1 or me in winners else "wins"
    return f"Game over: {said[:1].upper()}{said[1:]} {verb} with {points} points."


# A Dutch move refused by the table or the node rather than by the rules (node/api.py
# ``Refused``: a code of the game's own comes as ``Why.OTHER``, the code in ``game_code``).
DUTCH_TABLE_WORDS = {
    "not_play_time": "wait: the deck is still being shuffled and dealt",
    "not_playing": "you are not dealt in this round",
    "bad_move": "that is no move of Dutch",
}


def dutch_refused(refused: Refused, stage: str = "", calling: bool = False) -> str:
    """The words for a Dutch move the node refused: the rules' reason if it is one."""
    code = refused.code
    if code in {reason.value for reason in DutchReason}:
        return dutch_says(DutchReason(code), stage, calling)
    return DUTCH_TABLE_WORDS.get(code) or say(refused, WORDS)


def dutch_dealing(stage: str, seated: bool) -> str:
    """What the table does before a round's cards are dealt (spec/dutch-deal.md M-30)."""
    if not seated:
        return "A round of Dutch is being played: you sit down for the next one."
    if stage == "keys":
        return "Every player's node makes its key for this round's deck..."
    if stage == "shuffle":
        return "Every player's node masks and shuffles the deck in turn: nobody knows its order..."
    return "The cards are being dealt..."


WORDS = GameWords(call="Dutch", bot_levels=BOT_LEVELS)


def no_winner() -> str:
    """A game over with no round played to its end (R-61)."""
    return tell(Told(News.NO_WINNER), WORDS)
