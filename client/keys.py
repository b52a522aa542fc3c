"""Every key binding, from one factory. Handlers are thin: the state does the work.

The map itself (which key does what) is data in keymap.py; the keys at the table are the
game's, bound by its face (``games/registry.py``).
"""

from __future__ import annotations

from dutchblitz.protocol.views import Phase
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from . import commands, keymap
from .games import registry
from .layout import sync_focus
from .state import ClientState, Screen


def create_key_bindings(state: ClientState) -> KeyBindings:
    bindings = KeyBindings()
    asking = Condition(lambda: state.asking_quit)
    helping = Condition(lambda: state.help_shown)
    editing = Condition(lambda: state.editing_name)
    free = ~asking & ~helping & ~editing
    playing = free & Condition(lambda: state.phase == Phase.PLAYING)
    lobby = free & Condition(lambda: state.screen == Screen.LOBBY)
    looking = free & Condition(lambda: state.looking_at_scores)
    bindings.add(Keys.Any, filter=looking)(lambda event: commands.seen_scores(state))
    for tag in registry.tags():  # each game's keys, while its face draws the table (P-241)
        drawn = Condition(lambda tag=tag: state.game == tag)  # type: ignore[misc]
        registry.face_for(tag).bind_table_keys(bindings, state, playing & drawn)
    _lobby_keys(bindings, state, lobby)
    over = free & Condition(lambda: state.phase == Phase.OVER)
    bindings.add(keymap.REMATCH, filter=over)(lambda event: commands.toggle_rematch(state))
    _name_keys(bindings, state, editing & ~asking)
    _help_and_quit_keys(bindings, state, asking, helping, editing)
    return bindings


def _lobby_keys(bindings: KeyBindings, state: ClientState, lobby: Filter) -> None:
    @bindings.add(keymap.NAME, filter=lobby)
    def _name(event: KeyPressEvent) -> None:
        commands.begin_name(state)
        sync_focus(event.app.layout, state)

    bindings.add(keymap.BACK, filter=lobby)(lambda event: commands.next_back(state))
    bindings.add(keymap.READY, filter=lobby)(lambda event: commands.toggle_ready(state))
    bindings.add(keymap.START, filter=lobby)(lambda event: commands.start(state))
    bindings.add("enter", filter=lobby)(lambda event: commands.start(state))
    bindings.add(keymap.ADD_BOT, filter=lobby)(lambda event: commands.add_bot(state))
    bindings.add("=", filter=lobby)(lambda event: commands.add_bot(state))  # "+" without Shift
    bindings.add(keymap.REMOVE_BOT, filter=lobby)(lambda event: commands.remove_bot(state))
    bindings.add(keymap.BOT_LEVEL, filter=lobby)(lambda event: commands.next_bot_level(state))
    bindings.add(keymap.WATCH, filter=lobby)(lambda event: commands.watch(state))
    bindings.add(keymap.GAME, filter=lobby)(lambda event: commands.next_game(state))
    bindings.add(keymap.LENGTH, filter=lobby)(lambda event: commands.next_length(state))
    bindings.add(keymap.POST_STACKING, filter=lobby)(lambda event: commands.toggle_option(state))


def _name_keys(bindings: KeyBindings, state: ClientState, editing: Filter) -> None:
    @bindings.add("enter", filter=editing)
    def _keep(event: KeyPressEvent) -> None:
        commands.commit_name(state)
        sync_focus(event.app.layout, state)

    @bindings.add("escape", filter=editing)
    def _cancel(event: KeyPressEvent) -> None:
        commands.cancel_name(state)
        sync_focus(event.app.layout, state)


def _help_and_quit_keys(
    bindings: KeyBindings, state: ClientState, asking: Filter, helping: Filter, editing: Filter
) -> None:
    def leave_if(wanted: bool, event: KeyPressEvent) -> None:
        if wanted and not event.app.is_done:
            event.app.exit()

    bindings.add(keymap.HELP, filter=~asking & ~editing)(lambda event: commands.toggle_help(state))
    for key in ("escape", "enter", "space", keymap.QUIT):
        bindings.add(key, filter=helping & ~asking)(lambda event: commands.toggle_help(state))

    @bindings.add(keymap.QUIT, filter=~asking & ~helping & ~editing)
    def _quit(event: KeyPressEvent) -> None:
        leave_if(commands.ask_quit(state), event)

    @bindings.add("c-c")
    @bindings.add(Keys.SIGINT)
    def _interrupt(event: KeyPressEvent) -> None:
        commands.cancel_name(state)
        sync_focus(event.app.layout, state)
        leave_if(commands.interrupt(state), event)

    for key in ("y", "Y", "enter", keymap.QUIT):
        bindings.add(key, filter=asking)(
            lambda event: leave_if(commands.confirm_quit(state), event)
        )
    for key in ("n", "N", "escape"):
        bindings.add(key, filter=asking)(lambda event: commands.cancel_quit(state))
