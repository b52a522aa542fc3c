"""The containers: a title bar, the current screen, the notices and a key bar.

The layout only reads the state (``Condition(lambda: ...)`` and text callables);
the lobby's words are in lobby.py, the game's screens in its face (``games/registry.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from dutchblitz.node.api import NoticeKind
from dutchblitz.protocol.views import Phase
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

from . import keymap
from .banner import flag_banner
from .games import registry
from .lobby import lobby_screen, stacking_word
from .presence import missing_line
from .size import size_needed, too_small
from .state import ClientState, Screen
from .text import bar

NOTICE_LINES = 2
TITLE_WIDTH = 80

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "keybar": "reverse",
        "keybar.key": "reverse bold",
        "header": "bold",
        "name": "bold",
        "key": "bold underline",
        "count": "",
        "hint": "italic",
        "countin": "bold ansibrightgreen",
        "strong": "bold",
        "ready": "bold",
        "notready": "",
        "status": "italic",
        "pending": "italic",
        "card.red": "ansired bold",
        "card.blue": "ansibrightblue bold",
        "card.green": "ansigreen bold",
        "card.yellow": "ansiyellow bold",
        "card.unknown": "",
        "notice": "bold",
        "notice.lost_race": "bold ansimagenta",
        "notice.refused": "bold ansired",
        "notice.blitz": "bold reverse",
        "notice.round_over": "bold",
        "notice.game_over": "bold reverse",
        "notice.alarm": "bold reverse ansired",
        "notice.waiting": "bold ansiyellow",
        "flagged": "bold ansired",
        "dialog": "reverse",
    }
)

NOTICE_MARKERS = {
    NoticeKind.LOST_RACE: "RACE LOST",
    NoticeKind.REFUSED: "NO",
    NoticeKind.BLITZ: "BLITZ!",
    NoticeKind.ROUND_OVER: "SCORES",  # "SCORES round 1: you +26, ...": no "ROUND round"
    NoticeKind.GAME_OVER: "GAME OVER",
    NoticeKind.JOINED: "+",
    NoticeKind.LEFT: "-",
    NoticeKind.ALARM: "ALARM",
}


def build_layout(state: ClientState) -> Layout:
    main = Window(FormattedTextControl(lambda: body_text(state), focusable=True), wrap_lines=False)
    name_editor = ConditionalContainer(
        VSplit(
            [
                Window(FormattedTextControl(" Your name: "), width=12, style="class:header"),
                Window(BufferControl(state.name_buffer), height=1),
                Window(
                    FormattedTextControl(" Enter keeps, Esc cancels "), width=27, style="class:hint"
                ),
            ]
        ),
        filter=Condition(lambda: state.editing_name),
    )
    small = Condition(lambda: too_small(state))
    table = HSplit(
        [
            Window(FormattedTextControl(lambda: title_text(state)), height=1, style="class:title"),
            main,
            name_editor,
            Window(
                FormattedTextControl(lambda: notices_text(state)),
                height=NOTICE_LINES,
                wrap_lines=False,
            ),
            Window(
                FormattedTextControl(lambda: keybar_text(state)), height=1, style="class:keybar"
            ),
        ]
    )
    # Below 80 x 24 the table would lose columns: say what size it needs instead.
    needed = Window(
        FormattedTextControl(lambda: [("class:strong", size_needed(state))]),
        wrap_lines=True,
    )
    root = HSplit(
        [ConditionalContainer(table, filter=~small), ConditionalContainer(needed, filter=small)]
    )
    asking = Condition(lambda: state.asking_quit)
    question = Frame(
        Window(FormattedTextControl(QUIT_QUESTION), width=len(QUIT_QUESTION[1][1]) + 2, height=3),
        title="Leave?",
        style="class:dialog",
    )
    floats = [Float(ConditionalContainer(question, filter=asking))]
    return Layout(FloatContainer(root, floats), focused_element=main)


QUIT_QUESTION: StyleAndTextTuples = [
    ("bold", " Leave the game?\n"),
    ("", " The others play on without you; your cards stay and still score.\n"),
    ("bold", " y / q / Enter: leave      n / Esc: stay"),
]


def sync_focus(layout: Layout, state: ClientState) -> None:
    """Give the name editor the focus exactly while the state says a name is being typed."""
    on_name = layout.has_focus(state.name_buffer)
    if state.editing_name and not on_name:
        layout.focus(state.name_buffer)
    elif not state.editing_name and on_name:
        main = next(
            w
            for w in layout.find_all_windows()
            if isinstance(w.content, FormattedTextControl) and w.content.is_focusable()
        )
        layout.focus(main)


def body_text(state: ClientState) -> StyleAndTextTuples:
    face = registry.face_for(state.game)
    if state.help_shown:
        return face.help_screen(state)
    render: Callable[[ClientState], StyleAndTextTuples] = {
        Screen.LOBBY: lobby_screen,
        Screen.TABLE: face.table_screen,
        Screen.SCORES: face.scores_screen,
    }[state.screen]
    return render(state)


def title_text(state: ClientState) -> StyleAndTextTuples:
    snap = state.snap
    parts = _title_parts(state)
    width = min(TITLE_WIDTH, state.terminal.columns) - 1
    title = fit_title(parts, "", width)
    room = TITLE_WIDTH - len(title) - 4
    banner = flag_banner(snap.stable.flags, state.name_of, room) if room > 12 else ""
    if not banner and not registry.face_for(state.game).has_option:
        return [("", title)]
    if not banner:
        # The table's option on every screen; a flag, rarer and graver, takes its place.
        face = registry.face_for(state.game)
        option = f"{face.option_name} {stacking_word(snap, face.option_values)}"
        return [("", fit_title(parts, option, width))]
    return [("", title), ("", "  "), ("class:flagged", f" {banner} ")]


def _title_parts(state: ClientState) -> list[str]:
    snap = state.snap
    game = snap.game
    parts = [" " + registry.face_for(state.game).title]
    if snap.table:
        parts.append(f"table {snap.table}")
    if snap.profile > 1:
        parts.append(f"profile {snap.profile}")
    if snap.watching:
        parts.append("watching")
    if game.phase == Phase.LOBBY:
        parts.append("lobby")
    elif game.phase == Phase.OVER:
        parts.append("game over")
    elif registry.face_for(state.game).length_word:  # a game of one length says it once
        parts.append(registry.face_for(state.game).length_word)
    elif game.rounds is not None:  # only the rounds end it (P-238)
        parts.append(f"round {_round_shown(state)} of {game.rounds}")
    else:
        parts += [f"round {_round_shown(state)}", f"to {game.target}"]
    return parts


def _round_shown(state: ClientState) -> int:
    """The round the screen is about: the scores show the last round scored, though the
    next one is being dealt behind them."""
    game = state.snap.game
    if state.screen == Screen.SCORES and game.phase != Phase.PLAYING and game.results:
        return game.results[-1].round
    return game.round


def fit_title(parts: list[str], option: str, width: int) -> str:
    """The title's parts and the table's option in ``width`` columns, never cut at the end:
    first narrower gaps, then the option's short words ("stacking on"), then the table's
    name cut with "…"."""
    short = option.removeprefix("Post ")
    for gap, said in (("  ·  ", option), (" · ", option), (" · ", short)):
        title = gap.join([*parts, *([said] if said else [])])
        if len(title) <= width:
            return title
    table = next((i for i, part in enumerate(parts) if part.startswith("table ")), None)
    if table is not None:
        name = parts[table].removeprefix("table ")
        keep = max(3, len(name) - (len(title) - width) - 1)
        parts = [*parts[:table], f"table {name[:keep]}…", *parts[table + 1 :]]
        title = " · ".join([*parts, *([short] if short else [])])
    return title


def notices_text(state: ClientState) -> StyleAndTextTuples:
    fragments: StyleAndTextTuples = []
    waiting = missing_line(state.snap.missing, state.clock() - state.snap_at)
    if waiting:  # who the table waits for comes first, and stays while it lasts
        fragments.append(("class:notice class:notice.waiting", f" {waiting}\n"))
    for notice in state.notices()[-(NOTICE_LINES - len(fragments)) :]:
        marker = NOTICE_MARKERS.get(notice.kind, "")
        if notice.kind == NoticeKind.BLITZ and state.words.call:
            marker = f"{state.words.call.upper()}!"
        style = f"class:notice class:notice.{notice.kind}"
        fragments.append((style, f" {marker} " if marker else " "))
        fragments.append(("class:notice", f" {notice.text}\n"))
    return fragments


def keybar_text(state: ClientState) -> StyleAndTextTuples:
    if state.asking_quit:
        return bar(("y", "leave"), ("n", "stay"))
    if state.help_shown:
        return bar(("?/Esc", "close help"))
    if state.editing_name:
        return bar(("Enter", "keep"), ("Esc", "cancel"))
    screen = state.screen
    if state.snap.watching:
        return bar(("Tab", "scores"), ("?", "help"), ("q", "leave"))
    if screen == Screen.LOBBY:
        face = registry.face_for(state.game)
        stacking, present = face.has_option, sum(p.present for p in state.snap.players)
        return bar(
            (keymap.NAME, "name"),
            *([(keymap.BACK, "back")] if face.backs(present) else []),
            (keymap.READY, "ready"),
            (keymap.START, "start"),
            (f"{keymap.ADD_BOT}/{keymap.REMOVE_BOT}", "bot"),
            (keymap.BOT_LEVEL, "level"),
            (keymap.GAME, "game"),
            # Dutch Blitz's p takes the room of t, which its help names.
            *(
                [(keymap.POST_STACKING, registry.face_for(state.game).option_key_word)]
                if stacking
                else [(keymap.LENGTH, "length")]
            ),
            ("?", "help"),
            ("q", "leave"),
        )
    if screen == Screen.SCORES:
        if state.phase == Phase.PLAYING:
            return bar(("Tab/Space", "back to the table"), ("?", "help"), ("q", "leave"))
        if state.late_key():  # keys do not count yet: offer nothing they would do
            return bar(("?", "help"), ("q", "leave"))
        if state.phase == Phase.OVER:
            return bar((keymap.REMATCH, "rematch"), ("?", "help"), ("q", "leave"))
        if state.phase == Phase.DEALING and state.snap.my_seat in state.snap.game.still_looking:
            return bar(("any key", "ready for the next round"), ("?", "help"), ("q", "leave"))
        return bar(("?", "help"), ("q", "leave"))
    return registry.face_for(state.game).table_keybar(state)
