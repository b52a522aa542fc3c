"""``blitz-node`` with high card registered: ``python -m tests.games.highcard.node --game
highcard ...`` takes the arguments of blitz-node. A game outside the package makes
itself known to the node this way: it registers its rules, then runs the node's main."""

from __future__ import annotations

from dutchblitz.client.main import main
from dutchblitz.protocol.games.registry import register

from tests.games.highcard.rules import KNOCKING, RULES

if __name__ == "__main__":
    register(RULES)
    register(KNOCKING)
    raise SystemExit(main())
