"""What each screen says, as styled text: pure functions of the client state.

Every card is shown twice over: in its colour, and by its label (``5R♂``: value,
colour letter, boy or girl), so the table reads the same in monochrome and for
colour-blind players. A ``~`` after a card marks a move that is not final yet.
Everything fits in 80 columns; the title, notices and key bar are in the frame's
layout.py, the lobby in lobby.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from dutchblitz.node.api import HiddenCards, Snapshot
from dutchblitz.protocol.games.blitz.views import AreaView, Card, Colour, Slot, TableView
from dutchblitz.protocol.views import GameView, Phase, PublicTable
from prompt_toolkit.formatted_text import StyleAndTextTuples

from ... import countin, text
from ...banner import flag_banner
from ...keymap import HELP, LOBBY_HELP, OVER_HELP, QUIT, REMATCH, KeyHelp
from ...presence import shown_name, watchers_line
from ...size import MIN_COLUMNS, MIN_ROWS
from ...state import ClientState
from ...text import fit
from . import guide, keymap

CELL = 5  # "10R♂~" is the widest card
PENDING = "~"
COLOUR_NAMES = {
    Colour.RED: "Red",
    Colour.BLUE: "Blue",
    Colour.GREEN: "Green",
    Colour.YELLOW: "Yellow",
}
COLOUR_STYLES = {
    Colour.RED: "class:card.red",
    Colour.BLUE: "class:card.blue",
    Colour.GREEN: "class:card.green",
    Colour.YELLOW: "class:card.yellow",
}


class Text(text.Text):
    """Styled lines with Dutch Blitz's cards in them."""

    def card(
        self, shown: Slot, width: int = CELL, *, pending: bool = False, empty: str = "·"
    ) -> Text:
        self.fragments.extend(card_cell(shown, width, pending=pending, empty=empty))
        return self


def card_cell(
    shown: Slot, width: int = CELL, *, pending: bool = False, empty: str = "·"
) -> StyleAndTextTuples:
    if shown is None:
        return [("class:card.unknown", fit(empty, width))]
    label = shown.label() + (PENDING if pending else "")
    style = COLOUR_STYLES[shown.colour] + (" class:pending" if pending else "")
    return [(style, label), ("", " " * max(0, width - len(label)))]


# -- pending moves: what the optimistic game shows that the stable one does not yet -------


def blitz_table(table: PublicTable | None) -> TableView | None:
    """A round's public view, as Dutch Blitz's screens read it (None: no Blitz round)."""
    return table if isinstance(table, TableView) else None


def final_table(snap: Snapshot) -> TableView | None:
    stable, game = snap.stable, snap.game
    if (stable.game_number, stable.round) != (game.game_number, game.round):
        return None
    return blitz_table(snap.stable.table)


def pending_centre(snap: Snapshot) -> set[Card]:
    """Centre cards shown at once for our own moves, not final yet."""
    table = blitz_table(snap.game.table)
    if table is None or snap.pending_moves == 0:
        return set()
    final = final_table(snap)
    settled = set() if final is None else {c for pile in final.piles for c in pile.cards}
    return {c for pile in table.piles for c in pile.cards if c not in settled}


def pending_places(snap: Snapshot) -> set[str]:
    """Our own places ("blitz", "wood", "post0"...) whose top differs from the final table."""
    table, seat = blitz_table(snap.game.table), snap.my_seat
    if table is None or seat is None or seat not in table.areas or snap.pending_moves == 0:
        return set()
    final = final_table(snap)
    if final is None or seat not in final.areas:
        return {"blitz", "wood", *(f"post{i}" for i in range(len(table.areas[seat].post)))}
    now, then = table.areas[seat], final.areas[seat]
    places = {
        name
        for name, a, b in (("blitz", now.blitz, then.blitz), ("wood", now.wood, then.wood))
        if a != b
    }
    places.update(
        f"post{i}"
        for i, stack in enumerate(now.post)
        if i >= len(then.post) or stack != then.post[i]
    )
    return places


def top(pile: Sequence[Slot]) -> Slot:
    return pile[-1] if pile else None


# -- the table ---------------------------------------------------------------------------


def table_screen(state: ClientState) -> StyleAndTextTuples:
    snap = state.snap
    game, table = snap.game, blitz_table(snap.game.table)
    text = Text()
    if table is None:
        text.line()
        text.line(f"  Dealing round {game.round}...", "class:hint")
        return text.fragments
    live = table.live
    opponents_block(text, state, table, live)
    text.line()
    if state.count_in_left() > 0:
        for row in countin.count_in_lines(state):
            text.fragments.extend(row)
            text.line()
    else:
        centre_block(text, table, pending_centre(snap))
    text.line()
    mine_block(text, state, table, live)
    me = snap.my_seat
    if me is not None and me in table.areas:
        for line in (guide.stalemate_line(table, me), guide.first_game_hint(state, table, me)):
            if line:
                text.line(line, "class:strong")
    watchers_line(text, snap)
    return text.fragments


def name_width(state: ClientState) -> int:
    """16 columns at 80; a wider terminal gives long names (and bot levels) more room."""
    return 16 + max(0, min(state.terminal.columns - MIN_COLUMNS, 12))


def seat_order(game: GameView, me: int | None) -> list[int]:
    """The players round the table, starting after ``me``."""
    table = blitz_table(game.table)
    seats = list(game.players) or sorted(table.areas if table else [])
    if me in seats:
        at = seats.index(me)
        seats = seats[at + 1 :] + seats[:at]
    return seats


def opponents_block(
    text: Text, state: ClientState, table: TableView, live: Mapping[int, int]
) -> None:
    snap = state.snap
    posts = max((len(a.post) for a in table.areas.values()), default=0)
    names = name_width(state)
    text.add(" ").cell("Player", names, "class:header").cell("Blitz", 10, "class:header")
    text.cell("Post", posts * CELL + 2, "class:header").cell("Wood", 7, "class:header")
    text.line(f"{'Total':>6}{'Round':>6}", "class:header")
    bots = {p.seat for p in snap.players if p.is_local_bot}
    for seat in seat_order(snap.game, snap.my_seat):
        area = table.areas.get(seat)
        if area is None:
            continue
        name = shown_name(state.name_of(seat), seat in bots)
        text.add(" ").name(name, names, "class:name")
        blitz_row(text, area, pending=False)
        for stack in area.post:
            text.card(top(stack))
        text.add(" " * ((posts - len(area.post)) * CELL + 2))
        text.card(top(area.wood), 7, empty="-")
        text.add(f"{snap.game.totals.get(seat, 0):>6}{live.get(seat, 0):>+6}")
        text.line(status_of(area), "class:status")


def blitz_row(text: Text, area: AreaView, *, pending: bool) -> None:
    text.card(top(area.blitz), CELL + 1, pending=pending, empty="-")
    text.cell(f"x{len(area.blitz)}" if area.blitz else "Blitz!", 4, "class:count")


def status_of(area: AreaView) -> str:
    if not area.active:
        return "  left"
    return "  stuck" if area.stuck else ""


def centre_block(text: Text, table: TableView, pending: set[Card]) -> None:
    for colour in Colour:
        piles = [p for p in table.piles if p.colour == colour]
        done = [p for p in piles if len(p.cards) >= 10]
        text.add(" Centre " if colour == Colour.RED else "        ", "class:header")
        text.cell(COLOUR_NAMES[colour], 8, COLOUR_STYLES[colour])
        open_piles = [p for p in piles if len(p.cards) < 10]
        if not open_piles and not done:
            text.add("-", "class:card.unknown")
        for pile in open_piles:
            shown = pile.cards[-1]
            text.card(shown, pending=shown in pending)
        if done:
            text.add(f" {len(done)} done", "class:count")
        text.line()


def mine_block(text: Text, state: ClientState, table: TableView, live: Mapping[int, int]) -> None:
    snap = state.snap
    seat = snap.my_seat
    area = table.areas.get(seat) if seat is not None else None
    if area is None or seat is None:
        text.line(" You are watching this round.", "class:hint")
        return
    places = pending_places(snap)
    me = state.me
    text.add(" You  ", "class:header").name(
        me.name if me else state.name_of(seat), 17, "class:name"
    )
    text.add(f"Total {snap.game.totals.get(seat, 0)}   Round {live.get(seat, 0):+}")
    if snap.pending_moves:
        moves = "move" if snap.pending_moves == 1 else "moves"
        text.add(f"   {PENDING} {snap.pending_moves} {moves} not final yet", "class:pending")
    text.line()
    key = "class:key"
    text.add("      ").add(keymap.BLITZ_TO_CENTRE, key).cell(" Blitz", 9)
    for slot in range(len(area.post)):
        text.add(keymap.POST_KEYS[slot] if slot < len(keymap.POST_KEYS) else " ", key).add(
            " " * (CELL - 1)
        )
    text.add("  ").add(keymap.WOOD_TO_CENTRE, key).line(" Wood      Hand")
    text.add("      ")
    blitz_row(text, area, pending="blitz" in places)
    for slot, stack in enumerate(area.post):
        text.card(top(stack), pending=f"post{slot}" in places)
    text.add("  ").card(top(area.wood), CELL + 1, pending="wood" in places, empty="-")
    text.cell(f"x{len(area.wood)}" if area.wood else "", 4, "class:count")
    text.line(f"{area.hand}", "class:count")
    if area.stuck:
        text.line(" You called stuck: waiting for a centre play or a stalemate.", "class:hint")
    elif not area.active:
        # Only a node the others lost for a while sees this: it sits down again by itself.
        text.line(" You were away: sitting down again...", "class:hint")


# -- the scores --------------------------------------------------------------------------

MAX_ROUND_COLUMNS = 8


def scores_screen(state: ClientState) -> StyleAndTextTuples:
    snap = state.snap
    game = snap.game
    text = Text()
    last = game.results[-1].round if game.results else 0
    heading = f" Scores after round {last}" if last else " Scores"
    text.line(f"{heading}   (first to {game.target} wins)", "class:header")
    text.line()
    score_table(text, state)
    banner = flag_banner(snap.stable.flags, state.name_of, 78)
    if banner:
        text.line(f" {banner}", "class:flagged")
    if game.results:
        text.line(f" Round {last}: {blitz_said(state, game.results[-1].blitz_by)}")
    if game.phase == Phase.OVER and game.winner is not None:
        game_over_lines(text, state, game.winner)
    elif game.phase == Phase.DEALING:
        for line, style in countin.looking_lines(state):
            text.line(line, style)
    elif game.phase == Phase.PLAYING:
        text.line(f" Round {game.round} is on: press Tab or Space for the table.", "class:hint")
    return text.fragments


def score_table(text: Text, state: ClientState) -> None:
    """A row a player, best total first: the last rounds' scores (as many as the width
    holds) and the total; the winner stands out."""
    snap = state.snap
    game = snap.game
    room = (state.terminal.columns - MIN_COLUMNS) // 6
    results = game.results[-(MAX_ROUND_COLUMNS + max(0, room)) :]
    text.add("  ").cell("Player", 22, "class:header")
    for result in results:
        text.cell(f"R{result.round}", 6, "class:header")
    text.line(f"{'Total':>7}", "class:header")
    local_bots = {p.seat for p in snap.players if p.is_local_bot}
    for seat in sorted(game.players, key=lambda s: (-game.totals.get(s, 0), s)):
        tag = " (you)" if seat == snap.my_seat else ""
        style = "class:strong" if seat == game.winner else "class:name"
        name = shown_name(state.name_of(seat), seat in local_bots)
        text.add("  ").name(name, 22, style, tag=tag)
        for result in results:
            text.cell(f"{result.scores.get(seat, 0):+}", 6)
        text.line(f"{game.totals.get(seat, 0):>7}", style)
    text.line()


def blitz_said(state: ClientState, blitz_by: int | None) -> str:
    """Who ended the last round by calling Blitz, if anyone did."""
    if blitz_by is None:
        return "no Blitz"
    if blitz_by == state.snap.my_seat:
        return "You called Blitz!"
    return f"{state.name_of(blitz_by)} called Blitz!"


def game_over_lines(text: Text, state: ClientState, winner: int) -> None:
    """The winner, then the wait for the audit, or the offer of a rematch."""
    snap = state.snap
    # Your own win reads "You win", as the game-over notice says it.
    wins = "You win" if winner == snap.my_seat else f"{state.name_of(winner)} wins"
    text.line()
    points = snap.game.totals.get(winner, 0)
    text.line(f" GAME OVER: {wins} with {points} points!", "class:strong")
    if not snap.stable.audit_complete:
        text.line(" Waiting for every player's last reveal (the audit).", "class:hint")
    elif not state.late_key():  # offered once r no longer means a flip
        rematch_lines(text, state)


def rematch_lines(text: Text, state: ClientState) -> None:
    """The offer of a rematch (spec/rules.md R-49 to R-51), and who wants one so far."""
    me = state.me
    if me is not None and me.present:
        text.line(rematch_offer(me.ready), "class:strong")
    others = [p for p in state.snap.players if p.present and not p.is_me]
    keen = [p.name for p in others if p.ready]
    said = rematch_wishes(keen, [p.name for p in others if not p.ready])
    if said:
        text.line(" " + fit(said, 78).rstrip(), "class:hint")


def rematch_offer(wanted: bool) -> str:
    """The offer to a player at the table: take it, or take it back once taken."""
    if wanted:
        return f" You want a rematch: it starts once everyone does. {REMATCH}: changed my mind"
    return f" Again? {REMATCH}: rematch, same table and players, scores back to 0.  {QUIT}: leave"


def rematch_wishes(keen: list[str], waiting: list[str]) -> str:
    """Who else wants a rematch, and who is still deciding ("" when nobody else is here)."""
    parts = []
    if keen:
        parts.append(f"{'Wants' if len(keen) == 1 else 'Want'} a rematch: {', '.join(keen)}")
    if waiting:
        parts.append(f"{'still' if parts else 'Still'} deciding: {', '.join(waiting)}")
    return "; ".join(parts)


# -- a replay: a seat's face-down cards ---------------------------------------------------

CARDS_SHOWN = 11  # of a hidden pile, on one line of 80 columns


def hidden_lines(hidden: HiddenCards) -> StyleAndTextTuples:
    """A seat's view in a replay: that seat's face-down cards, as its reveal shows them."""
    text = Text()
    for label, cards in (
        ("Hand, top first:  ", hidden.hand),
        ("Under Blitz top:  ", hidden.blitz_below),
    ):
        text.add(f" {label}", "class:header")
        cards_line(text, tuple(card if isinstance(card, Card) else None for card in cards))
    return text.fragments


def cards_line(text: Text, cards: tuple[Slot, ...]) -> None:
    if not cards:
        text.line("-", "class:card.unknown")
        return
    for card in cards[:CARDS_SHOWN]:
        text.card(card, empty="?")
    text.line(f"+{len(cards) - CARDS_SHOWN}" if len(cards) > CARDS_SHOWN else "", "class:count")


# -- help ----------------------------------------------------------------------------------

KEY_WIDTH = 11
LEFT_WIDTH = 44


def help_screen(state: ClientState) -> StyleAndTextTuples:
    """The goal, how a round ends and the scoring first; then the keys and the cards."""
    left = [("At the table", keymap.TABLE_HELP)]
    right = [("In the lobby", LOBBY_HELP), ("After a game", OVER_HELP)]
    left_lines = list(help_lines(left))
    right_lines = list(help_lines(right))
    roomy = state.terminal.rows >= MIN_ROWS + 3
    text = Text()
    text.line(" How to play (? or Esc closes this)", "class:header")
    for line in guide.TEACHING:
        text.line(line)
    if roomy:
        text.line()
    blank: StyleAndTextTuples = [("", "")]
    for i in range(max(len(left_lines), len(right_lines))):
        row_left = left_lines[i] if i < len(left_lines) else blank
        row_right = right_lines[i] if i < len(right_lines) else blank
        text.add(" ")
        text.fragments.extend(pad_fragments(row_left, LEFT_WIDTH))
        text.fragments.extend(row_right)
        text.line()
    text.add(" ").add(HELP, "class:key").add(": this help    ")
    text.add(QUIT, "class:key").add(" or ").add("Ctrl-C", "class:key")
    text.line(": leave (during a game, it asks first)")
    if roomy:
        text.line()
    text.line(" Cards read 5R♂: value, colour (R B G Y), boy ♂ (red, blue), girl ♀ (green,")
    text.line(" yellow); ~ marks your move not final yet. Post stack: one lower, boy on girl.")
    return text.fragments


def help_lines(sections: Iterable[tuple[str, Sequence[KeyHelp]]]) -> Iterable[StyleAndTextTuples]:
    for title, rows in sections:
        yield [("class:header", title)]
        for row in rows:
            yield [("class:key", fit(row.keys, KEY_WIDTH)), ("", row.what)]


def pad_fragments(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    used = sum(len(t) for _, t, *_ in fragments)
    return [*fragments, ("", " " * max(0, width - used))]
