"""The lobby screen and what the table's screens share of it: who sits there, who watches,
the table's option. Pure functions of the client state, like a game's screens."""

from __future__ import annotations

from collections.abc import Sequence

from dutchblitz.node.api import PlayerInfo, Snapshot
from prompt_toolkit.formatted_text import StyleAndTextTuples

from . import keymap, words
from .games import registry
from .presence import game_on_lines, shown_name, watchers_line
from .state import ClientState
from .text import Text


def length_words(length: tuple[int, int | None]) -> str:
    """A game's length: "to 75 points", or "5 rounds" (then only the rounds end it)."""
    target, rounds = length
    if rounds is not None:
        return f"{rounds} round{'s' if rounds > 1 else ''}"
    return f"to {target} points"


def stacking_word(snap: Snapshot, values: tuple[str, str] = ("on", "off")) -> str:
    """Post stacking at this table (R-19), or what the game's face calls that option: the
    lobby's choice, then the game's."""
    return values[0] if snap.option else values[1]


def peer_address(endpoint: str) -> str:
    """``tcp://192.0.2.2:5555`` as the HOST:PORT that ``--peer`` takes."""
    return endpoint.split("://", 1)[-1]


def lobby_screen(state: ClientState) -> StyleAndTextTuples:
    snap = state.snap
    text = Text()
    address = where_lines(text, snap)
    late = game_on_lines(snap)
    for style, line in late:  # we came during a game: say so instead of an empty lobby
        text.line(line, style)
    if late:
        return text.fragments
    if snap.watching and not snap.players:
        text.line(" Watching: waiting for the table's players to send the game...", "class:hint")
    players = sorted((p for p in snap.players if p.present), key=lambda p: p.seat)
    seat_rows(text, players, bool(registry.face_for(state.game).backs(len(players))))
    text.line()
    text.line(seated_line(state, players), "class:count")
    if len(players) < 2:
        for door in snap.unanswered:
            text.line(" " + words.unanswered_text(peer_address(door)), "class:strong")
    watchers_line(text, snap)
    if snap.watching:
        return text.fragments
    if len(players) < 2:
        text.line(
            f" Alone? {keymap.ADD_BOT} adds a bot, {keymap.READY} gets you ready, "
            f"{keymap.START} starts: you play at once.",
            "class:strong",
        )
    if state.alone():
        peer_hint(text, address)
    start_choices(text, state)
    return text.fragments


def where_lines(text: Text, snap: Snapshot) -> str:
    """The table, the address others join it at, the network, the TV view and the
    profile, at the top of the lobby; the address, as ``--peer`` takes it."""
    address = peer_address(snap.door or snap.endpoint)
    table = f"{snap.table} (private)" if snap.table and snap.private else snap.table
    text.add(" Table    ", "class:header").cell(table or "(none yet)", 24)
    text.add("Address  ", "class:header").line(address or "(not listening yet)")
    text.add(" Network  ", "class:header").line(snap.interface or "(finding...)")
    if snap.tv is not None:
        text.add(" TV       ", "class:header").line(words.tv_text(snap.tv))
    if snap.profile > 1:
        text.add(" Profile  ", "class:header").line(profile_line(snap.profile, snap.state_dir))
    text.line()
    return address


def seat_rows(text: Text, players: Sequence[PlayerInfo], backs: bool = True) -> None:
    """One row a seated player: seat, name, back (in a game with deck backs), ready and
    the key to compare aloud."""
    text.add("  #  ").cell("Player", 22, "class:header")
    if backs:
        text.cell("Back", 10, "class:header")
    text.cell("Ready", 11, "class:header").line("Key", "class:header")
    for player in players:
        name = shown_name(player.name, player.is_local_bot)
        tag = " (you)" if player.is_me else ""
        text.add(f"  {player.seat + 1:<3}").name(name, 22, "class:name", tag=tag)
        if backs:
            text.cell(player.back or "-", 10)
        text.cell(
            "ready" if player.ready else "not ready",
            11,
            "class:ready" if player.ready else "class:notready",
        )
        text.line(player.fingerprint, "class:count")
    if len(players) > 1:
        text.line(" Each Key must read the same on every player's screen: compare them aloud.")


def start_choices(text: Text, state: ClientState) -> None:
    """The choices a START from this node carries: whoever starts the game decides (R-19,
    P-237, P-241): the next bot, the game (g), its length (t), and Dutch Blitz's Post
    stacking (p); then whether it may start."""
    snap = state.snap
    text.add(" Next bot: ", "class:header").cell(state.bot_level, 11, "class:name")
    face = registry.face_for(state.game)
    game = f"{face.title}, {face.length_word or length_words(snap.length)}"
    text.add("Game: ", "class:header").cell(game, len(game) + 2, "class:name")
    if face.has_option:
        text.add(f"{face.option_name}: ", "class:header")
        text.add(stacking_word(snap, face.option_values), "class:name")
    text.line()
    if snap.can_start:  # else s says whom it waits for (the Ready column shows it too)
        text.line(f" Everyone is ready: press {keymap.START} to start!", "class:strong")


def seated_line(state: ClientState, players: Sequence[PlayerInfo]) -> str:
    """Who is seated, told apart ("3 players here: you, 1 bot of yours, 1 from another
    node"); while nobody else is, how long this node has looked for others."""
    if len(players) < 2:
        return f" Looking for other players: {int(state.seconds_waiting())} s"
    bots = sum(1 for p in players if p.is_local_bot)
    others = sum(1 for p in players if not p.is_local_bot and not p.is_me)
    parts = ["you"] if any(p.is_me for p in players) else []
    if bots:
        parts.append(f"{bots} bot{'s' if bots > 1 else ''} of yours")
    if others:
        parts.append(f"{others} from {'other nodes' if others > 1 else 'another node'}")
    return f" {len(players)} players here: {', '.join(parts)}"


def profile_line(profile: int, state_dir: str, width: int = 69) -> str:
    """Which profile this node took, and where: another node here holds the first."""
    taken = "profile 1 is" if profile == 2 else f"profiles 1-{profile - 1} are"
    for line in (f"{profile} ({taken} in use): {state_dir}",
                 f"{profile}: {state_dir}"):  # fmt: skip
        if len(line) <= width:
            return line
    return f"{profile}: ...{state_dir[-(width - 6) :]}"


def peer_hint(text: Text, address: str) -> None:
    text.line(" A friend not showing up? On their machine run:")
    text.line(f"     blitz-node --join --peer {address or 'HOST:PORT'}", "class:strong")
    text.line(" Still nothing? Check that the firewall lets that port in, and that the Wi-Fi")
    text.line(" has no 'client isolation' (guest networks often keep players apart).")
