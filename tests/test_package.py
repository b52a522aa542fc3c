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
