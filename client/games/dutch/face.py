"""Dutch's face at a real table, as the client's registry knows it.

The node's snapshot carries what this seat may see of the round (``SeatView``, read only
here): the screens draw it in the frame, between its title bar and its notices and key
bar. A key goes through ``keys.press`` with the command half-typed so far; a move it makes
goes to the session (``Session.play``), which has the game build and check its body, and
a refusal or a hint comes back as a notice.
"""

from __future__ import annotations

import functools

from dutchblitz.node.api import HiddenCards, Notice, NoticeKind, Snapshot
from dutchblitz.protocol.games.dutch.moves import CallDutch
from dutchblitz.protocol.games.dutch.views import Phase, RoundView, SeatView
from dutchblitz.protocol.views import Phase as TablePhase
from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings

from ...face import GameFace
from ...gamescreen import bind_every_key, frame_size
from ...keymap import (
    ADD_BOT,
    BOT_LEVEL,
    GAME,
    HELP,
    NAME,
    QUIT,
    READY,
    REMATCH,
    REMOVE_BOT,
    START,
    KeyHelp,
)
from ...state import ClientState
from ...text import Text, bar
from . import words
from .keys import bar as dutch_bar
from .keys import help_lines, press
from .screens import DutchTable, render

# A key's data as keys.press names it.
SPECIAL_KEYS = {" ": "space", "\r": "enter", "\n": "enter", "\x1b": "escape"}
# The keys a player may miss first when the key bar is too long for the terminal.
LESS_NEEDED = ("Esc", "?")
# The lobby's keys, in the help's one line (no deck backs or Post stacking in Dutch).
LOBBY_KEYS = (
    KeyHelp(NAME, "name"),
    KeyHelp(READY, "ready"),
    KeyHelp(START, "start"),
    KeyHelp(f"{ADD_BOT}/{REMOVE_BOT}", "bot"),
    KeyHelp(BOT_LEVEL, "level (forgetful, careful)"),
    KeyHelp(GAME, "game"),
)


def seat_view(state: ClientState) -> SeatView | None:
    view = state.snap.seat_view
    return view if isinstance(view, SeatView) else None


def dutch_table(state: ClientState, view: SeatView) -> DutchTable | None:
    """The screens' table for this seat's view, with the game around it; None before the
    cards are dealt."""
    shown = view.round
    if shown is None:
        return None
    snap = state.snap
    bots = {p.seat for p in snap.players if p.is_local_bot}
    totals = _totals_before_round(snap, view, shown)
    over = snap.game.phase == TablePhase.OVER
    return DutchTable(
        view=shown,
        names=tuple(state.name_of(seat) for seat in view.seats),
        totals=tuple(totals),
        bots=frozenset(i for i, seat in enumerate(view.seats) if seat in bots),
        round_number=snap.game.round,
        target=snap.game.target,
        news=view.news,
        typed=state.typed,
        game_over=over,
        winners=_lowest_totals(totals, shown) if over and _scored(snap) else (),
        sits_later=shown.watching and not snap.watching and _seated_not_dealt(snap),
    )


def _scored(snap: Snapshot) -> bool:
    """Whether a round of this game was scored: when every one was void, nobody won (R-61)."""
    return any(not result.void for result in snap.game.results)


def _totals_before_round(snap: Snapshot, view: SeatView, shown: RoundView) -> list[int]:
    """Each seat's total before the round shown (the table adds a round once it is done)."""
    totals = [snap.game.totals.get(seat, 0) for seat in view.seats]
    if view.stage == "done" and shown.score is not None:
        totals = [t - s for t, s in zip(totals, shown.score.scores, strict=True)]
    return totals


def _lowest_totals(totals: list[int], shown: RoundView) -> tuple[int, ...]:
    """The winners of the game: those with the lowest total once the round shown is in."""
    final = [t + (shown.score.scores[i] if shown.score else 0) for i, t in enumerate(totals)]
    best = min(final) if final else 0
    return tuple(i for i, total in enumerate(final) if total == best)


def _seated_not_dealt(snap: Snapshot) -> bool:
    """This node's person sits at the table, and was not dealt in (not a replay's view)."""
    return snap.my_seat is not None and snap.my_seat not in snap.game.players


def _dealing(state: ClientState, view: SeatView | None) -> StyleAndTextTuples:
    text = Text().line()
    snap = state.snap
    seated = snap.watching or snap.my_seat in snap.game.players  # a spectator sits nowhere
    dealt = snap.game.phase != TablePhase.PLAYING or seated
    stage = view.stage if view is not None and snap.game.phase == TablePhase.PLAYING else ""
    text.line(" " + words.dutch_dealing(stage, dealt), "class:strong")
    text.line()
    text.line(" Nobody deals: every node masks and shuffles the deck, and a card is turned")
    text.line(" over only with a share from every other player.")
    return text.fragments


def table_screen(state: ClientState) -> StyleAndTextTuples:
    view = seat_view(state)
    playing = state.snap.game.phase == TablePhase.PLAYING
    table = dutch_table(state, view) if view is not None and playing else None
    if table is None:
        return _dealing(state, view)
    width, height = frame_size(state)
    return render(table, width, height, framed=True)


def scores_screen(state: ClientState) -> StyleAndTextTuples:
    view = seat_view(state)
    table = dutch_table(state, view) if view is not None else None
    if table is None or table.view.phase is not Phase.OVER:
        return (
            Text()
            .line()
            .line(" Scores: waiting for the round's reveal...", "class:strong")
            .fragments
        )
    width, height = frame_size(state)
    return render(table, width, height, framed=True)


def help_screen(state: ClientState) -> StyleAndTextTuples:
    """The goal and the scoring, then the keys: 18 lines, for the frame's 20 at 80 x 24."""
    text = Text().line(" How to play Dutch (? or Esc closes this)", "class:header")
    text.line(" Lowest hand wins. Call Dutch just after your turn when yours is lowest.")
    text.line(" Points: A 1, 2-10 their number, J 11, Q 12, red K 0, black K 13, Joker -1.")
    text.line(" Discard a J (swap two cards), a Q (look at one) or an A (give one) to use it.")
    text.line(" ## face down   (7d) a card you remember   7d face up to all")
    text.line(" At the table", "class:header")
    for line in help_lines()[:-1]:  # the frame says what a key does after the scores
        text.add(f"   {line.keys:<14}", "class:key").line(line.what)
    lobby = "  ".join(f"{line.keys} {line.what}" for line in LOBBY_KEYS)
    text.add(" Lobby ", "class:header").line(lobby)
    text.add(" After a game ", "class:header").add(f"{REMATCH} rematch   ")
    text.add("Always ", "class:header").line(f"{HELP} help  {QUIT} leave (asks in a game)")
    return text.fragments


def table_keybar(state: ClientState) -> StyleAndTextTuples:
    view = seat_view(state)
    if view is None or view.round is None or view.round.phase is Phase.OVER:
        return bar(("?", "help"), ("q", "leave"))  # the frame's keys go on to the next round
    items = dutch_bar(view.round, state.snap.game.phase == TablePhase.OVER)
    width = state.terminal.columns
    for key in LESS_NEEDED:
        if sum(len(k) + len(w) + 2 for k, w in items) <= width:
            break
        items = [item for item in items if item[0] != key]
    return bar(*items)


def key(state: ClientState, pressed_key: str) -> None:
    """One key at the table: a move for the session, a half-typed command, or a hint."""
    if state.scores_visible:
        state.hide_scores()
        return
    view = seat_view(state)
    shown = None if view is None else view.round
    if shown is None or shown.phase is Phase.OVER:
        if pressed_key not in ("escape",):
            state.flash(Notice(NoticeKind.INFO, "wait: the round is not being played yet"))
        return
    if shown.watching:  # nobody at the table: a spectator, or a seat not dealt in
        if pressed_key not in ("escape",):
            state.flash(Notice(NoticeKind.INFO, words.dutch_not_dealt(state.snap.watching)))
        return
    pressed = press(shown, state.typed, pressed_key)
    state.typed = pressed.typed
    if pressed.hint:
        state.flash(Notice(NoticeKind.INFO, words.DUTCH_HINTS[pressed.hint]))
    if pressed.move is not None:
        # The command is whole: what its first keys asked for ("now the other card") is done.
        state.board.forget(set(words.DUTCH_HINTS.values()))
        refused = state.session.play(pressed.move)
        if refused is not None:
            calling = isinstance(pressed.move, CallDutch)
            said = words.dutch_refused(refused, shown.phase.value, calling)
            state.flash(Notice(NoticeKind.REFUSED, said))
        state.refresh()


def bind_table_keys(bindings: KeyBindings, state: ClientState, playing: Filter) -> None:
    pressed = functools.partial(key, state)
    bind_every_key(bindings, playing, pressed, SPECIAL_KEYS, ("escape", "enter", "space"))


def hidden_lines(hidden: HiddenCards) -> StyleAndTextTuples:
    return [("class:hint", " A replay shows no Dutch cards: they stay hidden.")]


FACE = GameFace(
    tag="dutch",
    title="Dutch",
    table_screen=table_screen,
    scores_screen=scores_screen,
    help_screen=help_screen,
    table_keybar=table_keybar,
    bind_table_keys=bind_table_keys,
    hidden_lines=hidden_lines,
    has_option=False,
    words=words.WORDS,
    lengths=((75, None), (100, None), (50, None), (75, 3), (75, 5), (75, 10)),
)
