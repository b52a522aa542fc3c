"""``blitz-node`` flags: a wrong flag or value is one clear line and exit code 2."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import zmq
import zmq.asyncio
from dutchblitz.node.api import Session
from dutchblitz.node.cli import main as cli
from dutchblitz.node.cli import phrase
from dutchblitz.node.net.door import DoorRefused, knock
from dutchblitz.node.runtime import Node, Options, StartError, listen_error, resolve_peer
from dutchblitz.protocol.door.codec import Card
from dutchblitz.protocol.wire.auth import Signer

from tests.netns_helpers import Process, child_env

pytestmark = pytest.mark.timeout(60)

HEADLESS = ["--join", "--bot", "--headless"]

BAD = [
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["--port", "70000"], "--port: must be from 0 to 65535, got 70000"),
    (["--port", "x"], "--port: expected a whole number, got 'x'"),
    (["--players", "1"], "--players: must be from 2 to 8, got 1"),
    (["--players", "9"], "--players: must be from 2 to 8, got 9"),
    (["--target", "0"], "--target: must be from 1 to 1000, got 0"),
    (["--peer", "nohost"], "--peer: expected HOST:PORT, got 'nohost'"),
    (["--peer", "host:0"], "--peer: expected HOST:PORT, got 'host:0'"),
    (["--peer", ":5555"], "--peer: expected HOST:PORT, got ':5555'"),
    (["--table", " "], "--table: a table name is 1 to 32 bytes, got ' '"),
    (["--name", "x" * 33], "--name: a name is 1 to 32 bytes"),
    (["--bot-level", "warp"], "--bot-level: invalid choice: 'warp'"),
    (["--suspect-after", "0"], "--suspect-after: must be from 0.2 to 600 seconds, got 0"),
    (["--seed", "-1"], "--seed: must be from 0 to"),
    (["--web", "tv"], "--web: expected PORT or HOST:PORT, got 'tv'"),
    (["--web", "70000"], "--web: expected PORT or HOST:PORT, with a port from 0 to 65535"),
    (["--web", ":8080"], "--web: expected PORT or HOST:PORT, got ':8080'"),
    (["--join", "--headless"], "--headless needs --bot"),
    (["--join", "--players", "3"], "--players goes with --headless"),
    (["--join", "--watch"], "--join plays and --watch only watches: give one of them"),
    (["--watch", "--bot"], "--watch plays nothing: leave out --bot and --players"),
    (["--watch", "--headless", "--players", "3"], "--watch plays nothing"),
]


def test_watch_needs_no_join_and_headless_watch_needs_no_bot() -> None:
    options = cli.parse_options(["--watch", "--table", "den", "--headless"])
    assert options is not None and options.watch and options.table == "den"
    assert not options.bot


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[" ".join(a)[:30] for a, _ in BAD])
def test_a_wrong_flag_or_value_is_one_line_and_exit_code_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("blitz-node: error: ") and message in err


def test_the_console_script_says_the_same(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dutchblitz.client.main", "--join", "--port", "-3"],
        capture_output=True,
        text=True,
        timeout=30,
        env=child_env(),
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("blitz-node: error: argument --port")
    assert done.stderr.count("\n") == 1


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--version"])
    assert caught.value.code == 0 and "blitz-node" in capsys.readouterr().out
    with pytest.raises(SystemExit) as caught:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert caught.value.code == 0
    for flag in ("--join", "--table", "--peer", "--players", "--summary-json", "--no-discovery"):
        assert flag in out
    assert cli.main([]) == 0  # no --join: the help, and nothing else


def test_flags_become_options() -> None:
    options = cli.parse_options(
        [
            *HEADLESS, "--table", "kitchen", "--name", "Ada", "--peer", "127.0.0.1:5555",
            "--peer", "localhost:5556", "--interface", "lo", "--port", "0", "--players", "3",
            "--target", "20", "--seed", "7", "--state-dir", "/tmp/x", "--summary-json", "/tmp/s",
            "--suspect-after", "1.5", "--no-discovery", "--bot-level", "flat-out",
        ]
    )  # fmt: skip
    assert options == Options(
        table="kitchen", name="Ada", peers=("127.0.0.1:5555", "localhost:5556"),
        interface="lo", port=0, bot=True, bot_level="flat-out", headless=True, players=3,
        target=20, seed=7, state_dir=Path("/tmp/x"), summary_json=Path("/tmp/s"),
        suspect_after=1.5, discovery=False,
    )  # fmt: skip


def run_node(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dutchblitz.client.main", *HEADLESS, "--no-discovery", *argv],
        capture_output=True,
        text=True,
        timeout=30,
        env=child_env(),
    )


def test_an_unknown_interface_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    done = run_node("--interface", "nosuch0", "--state-dir", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("blitz-node: no interface named or addressed 'nosuch0'")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_port_in_use_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_node(
            "--interface", "127.0.0.1", "--port", str(port), "--state-dir", str(tmp_path)
        )
    assert done.returncode == 2
    assert done.stderr == (
        f"blitz-node: port {port} is taken: pick another with --port, or 0 for any\n"
    )


def test_an_unusable_state_dir_stops_the_node_with_one_line_and_exit_code_1(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    done = run_node("--interface", "127.0.0.1", "--state-dir", str(blocker / "state"))
    assert done.returncode == 1
    assert done.stderr.startswith("blitz-node: cannot create the state directory")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_private_takes_the_passphrase_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(phrase.PASSPHRASE_ENV, "blue heron")
    options = cli.parse_options([*HEADLESS, "--private"])
    assert options is not None and options.passphrase == "blue heron"


def test_private_asks_at_a_hidden_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(phrase.PASSPHRASE_ENV, raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    asked: list[str] = []
    monkeypatch.setattr(phrase.getpass, "getpass", lambda prompt: asked.append(prompt) or "heron")
    options = cli.parse_options(["--join", "--table", "kitchen", "--private"])
    assert options is not None and options.passphrase == "heron"
    assert asked == ["Passphrase for table 'kitchen': "]


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["--private"], None, "--private asks for the passphrase on a terminal, or set"),
        (["--private"], "", "--private: a passphrase is 1 to 256 bytes"),
        (["--private", "--passphrase", "x"], None, "give --passphrase PHRASE or --private"),
    ],
)
def test_private_without_a_phrase_is_one_line_and_exit_code_2(
    argv: list[str],
    env: str | None,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv(phrase.PASSPHRASE_ENV, raising=False)
    if env is not None:
        monkeypatch.setenv(phrase.PASSPHRASE_ENV, env)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    with pytest.raises(SystemExit) as caught:
        cli.main([*HEADLESS, *argv])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_the_private_prompt_is_real_and_hides_the_phrase(tmp_path: Path) -> None:
    """On a real terminal: the prompt shows, the typed phrase does not echo."""
    import pty

    leader, follower = pty.openpty()
    env = child_env()
    env.pop(phrase.PASSPHRASE_ENV, None)
    node = subprocess.Popen(
        [sys.executable, "-m", "dutchblitz.client.main", *HEADLESS, "--private",
         "--no-discovery", "--state-dir", str(tmp_path)],
        stdin=follower, stdout=follower, stderr=follower, env=env, start_new_session=True,
    )  # fmt: skip
    os.close(follower)
    seen = b""
    try:
        while b"Passphrase for table 'blitz': " not in seen:
            seen += os.read(leader, 1024)
        os.write(leader, b"\x01" * 300 + b"\n")  # too long: refused once read
        while node.poll() is None or b"\n" not in seen.rpartition(b"Passphrase")[2]:
            try:
                seen += os.read(leader, 1024)
            except OSError:
                break
        assert node.wait(20) == 2
    finally:
        if node.poll() is None:
            node.kill()
        os.close(leader)
    assert b"\x01" not in seen  # nothing typed was echoed
    assert b"--private: a passphrase is 1 to 256 bytes" in seen


def _typed(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[str]:
    """The hidden prompt answers ``answers`` in turn; returns the prompts it showed."""
    monkeypatch.delenv(phrase.PASSPHRASE_ENV, raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    asked: list[str] = []
    typing = iter(answers)
    answer = lambda prompt: asked.append(prompt) or next(typing)  # noqa: E731
    monkeypatch.setattr(phrase.getpass, "getpass", answer)
    return asked


async def _knocks_in(session: Session, phrase: str) -> bool:
    """Whether the session's door lets in a knock with ``phrase``."""
    stranger = Signer(bytes([7]) * 32)
    mine = Card(stranger.node_id, stranger.public_key, "tcp://127.0.0.1:9", "eve")
    context = zmq.asyncio.Context()
    try:
        await knock(context, session.snapshot().door, signer=stranger, table="blitz",
                    passphrase=phrase, mine=mine)  # fmt: skip
        return True
    except DoorRefused:
        return False
    finally:
        context.destroy(linger=0)


ADA = ["--join", "--private", "--no-discovery", "--interface", "127.0.0.1", "--name", "Ada"]


def test_a_node_that_founds_a_private_table_asks_the_phrase_twice_until_they_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = _typed(monkeypatch, ["heron", "herron", "red fox", "red fox"])
    options = cli.parse_options([*ADA, "--state-dir", str(tmp_path)])
    assert options is not None and options.typed
    let_in: list[bool] = []

    async def table(session: Session) -> None:
        let_in.extend([await _knocks_in(session, "red fox"), await _knocks_in(session, "heron")])

    assert asyncio.run(cli.run_node(options, attach_ui=table)) == cli.EXIT_OK
    first, again = "Passphrase for table 'blitz': ", phrase.AGAIN.format(table="blitz")
    assert asked == [first, again, first, again]
    assert capsys.readouterr().err == f"blitz-node: {phrase.DIFFER}\n"
    assert let_in == [True, False], "the door takes the phrase typed twice alike"


def test_a_node_that_joins_a_private_table_asks_the_phrase_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _typed(monkeypatch, ["heron"])

    async def scenario() -> None:
        host = Node(Options(name="Bo", interface="127.0.0.1", discovery=False,
                            state_dir=tmp_path / "bo", passphrase="heron"))  # fmt: skip
        await host.start()
        try:
            assert host.door is not None and host.main is not None and host.main.seating.founded
            door = host.door.endpoint.split("://", 1)[1]
            argv = [*ADA, "--state-dir", str(tmp_path / "ada"), "--peer", door]
            options = cli.parse_options(argv)
            assert options is not None

            async def table(session: Session) -> None:
                assert session.snapshot().private

            assert await cli.run_node(options, attach_ui=table) == cli.EXIT_OK
        finally:
            await host.stop(goodbye=False)

    asyncio.run(scenario())
    assert asked == ["Passphrase for table 'blitz': "]


def test_a_name_set_at_the_table_is_the_next_starts_unless_name_is_given(tmp_path: Path) -> None:
    """``n`` in the lobby keeps the name in the state directory; ``--name`` still wins."""
    named: list[str] = []

    def sitting(rename: str | None) -> Callable[[Session], Coroutine[Any, Any, None]]:
        async def table(session: Session) -> None:
            while not any(p.is_me for p in session.snapshot().players):  # seated behind the lobby
                await asyncio.sleep(0.01)
            me = next(p for p in session.snapshot().players if p.is_me)
            named.append(me.name)
            if rename is not None:
                assert session.set_name(rename) is None

        return table

    base = ["--join", "--no-discovery", "--interface", "127.0.0.1", "--state-dir", str(tmp_path)]
    for extra, rename in [([], "Grace"), ([], None), (["--name", "Ada"], None), ([], None)]:
        options = cli.parse_options([*base, *extra])
        assert options is not None
        assert asyncio.run(cli.run_node(options, attach_ui=sitting(rename))) == cli.EXIT_OK
    assert named[1:] == ["Grace", "Ada", "Grace"]
    assert named[0] != "Grace"  # the login name, the first time


@pytest.mark.parametrize(
    ("code", "port", "said"),
    [
        (errno.EADDRINUSE, 47001, "port 47001 is taken: pick another with --port, or 0 for any"),
        (errno.EACCES, 80, "port 80 is reserved: pick one above 1023 with --port, or 0 for any"),
        (errno.EADDRNOTAVAIL, 0, "192.0.2.9 is not an address of this machine: pick one with"),
        (errno.EMFILE, 0, "cannot listen on 192.0.2.9:any port: Too many open files"),
    ],
)
def test_listening_errors_speak_player_words(code: int, port: int, said: str) -> None:
    error = zmq.ZMQError(code, f"{os.strerror(code)} (addr='tcp://192.0.2.9:{port}')")
    text = str(listen_error("192.0.2.9", port, error))
    assert text.startswith(said) and "addr=" not in text and "tcp://" not in text


def test_a_peer_that_cannot_be_found_is_said_in_player_words() -> None:
    with pytest.raises(StartError) as caught:
        resolve_peer("nosuch.invalid:5555")
    assert str(caught.value).startswith("--peer nosuch.invalid:5555: no machine named")
    assert "Errno" not in str(caught.value)


def test_with_no_terminal_the_table_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
         "--state-dir", str(tmp_path / "state")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30, env=child_env(),
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "blitz-node: the table needs a terminal, and this input is none: "
        "run blitz-node in one, or a bot with --headless --bot\n"
    )
    assert not (tmp_path / "state").exists(), "nothing was started"


def test_a_broken_table_is_one_line_exit_code_1_and_its_traceback_in_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def broken_table(session: object) -> None:
        raise RuntimeError("the screen fell over\nsecond line")

    options = Options(interface="127.0.0.1", discovery=False, state_dir=tmp_path)
    assert asyncio.run(cli.run_node(options, attach_ui=broken_table)) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    log_file = tmp_path / "node.log"
    assert err == (
        f"blitz-node: the table stopped: RuntimeError: the screen fell over "
        f"(details in {log_file})\n"
    )
    kept = log_file.read_text()
    assert "Traceback" in kept and "second line" in kept
    assert "listening on" in kept, "what the node said before the table began is kept too"


def test_a_hang_up_stops_the_node_with_exit_code_129(tmp_path: Path) -> None:
    node = Process(
        "ada",
        [sys.executable, "-m", "dutchblitz.client.main", *HEADLESS, "--no-discovery",
         "--interface", "127.0.0.1", "--players", "2", "--state-dir", str(tmp_path)],
    )  # fmt: skip
    try:
        node.wait_for_line(lambda lines: any("sat down" in line for line in lines), "a seat")
        node.process.send_signal(signal.SIGHUP)
        assert node.process.wait(20) == cli.EXIT_SIGNAL_BASE + signal.SIGHUP
        assert "Traceback" not in node.output()
    finally:
        node.stop()


def test_the_readme_lists_every_exit_code() -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "command-line.md"
    table = page.read_text(encoding="utf-8").split("## Exit codes", 1)[1].split("\n#", 1)[0]
    for code in (cli.EXIT_OK, cli.EXIT_FAILED, cli.EXIT_USAGE, 129, 130, 143):
        assert f"| {code} " in table, code
