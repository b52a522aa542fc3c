import subprocess
import sys

from dutchblitz.protocol.version import GAME_VERSION


def test_console_script_prints_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "dutchblitz.client.main", "--version"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert GAME_VERSION in out.stdout


def test_no_top_level_node_or_client_installed() -> None:
    import importlib.util

    assert importlib.util.find_spec("dutchblitz.protocol") is not None
    for name in ("node", "client", "protocol"):
        spec = importlib.util.find_spec(name)
        assert spec is None or "site-packages" not in (spec.origin or ""), name


def test_no_test_rig_ships_in_the_package() -> None:
    """The simulator, self-play and the fault and flood rigs live in tests/rigs only."""
    import importlib.util

    for rig in ("sim", "selfplay", "botmatch", "faults", "flood"):
        assert importlib.util.find_spec(f"dutchblitz.node.{rig}") is None, rig


def test_the_node_reads_no_test_only_environment() -> None:
    from pathlib import Path

    import dutchblitz.node

    for folder in dutchblitz.node.__path__:
        for source in Path(folder).glob("*.py"):
            text = source.read_text(encoding="utf-8")
            for name in ("BLITZ_FAULTS", "BLITZ_FLOOD"):
                assert name not in text, (source.name, name)
