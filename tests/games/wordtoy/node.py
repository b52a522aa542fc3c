"""``blitz-node`` with word toy: ``python -m tests.games.wordtoy.node --game wordtoy
...`` takes the arguments of blitz-node. The game registers its rules with the
protocol's registry and its face with the client's, then runs the node's main."""

from __future__ import annotations

from dutchblitz.client.games.registry import register as register_face
from dutchblitz.client.main import main
from dutchblitz.protocol.games.registry import register

from tests.games.wordtoy.face import FACE
from tests.games.wordtoy.game import GAME

if __name__ == "__main__":
    register(GAME)
    register_face(FACE)
    raise SystemExit(main())
