"""The games' faces, by tag: the client draws a table with the face of the game it hosts.

Dutch Blitz's face is always here, and is the default; Dutch's and Blitz!'s are here too. A game
outside this package registers its face (``register``) before the client starts, as its
rules register with the protocol's registry (``protocol/games/registry.py``); ``unregister``
and ``registered`` (for a ``with`` block) forget it again, as there.
"""

from __future__ import annotations

from dutchblitz.protocol.games.tagged import Registry

from ..face import GameFace
from ..words import GameWords
from . import DEFAULT_GAME
from .blitz.face import FACE as BLITZ
from .dutch.face import FACE as DUTCH
from .faceoff.face import FACE as FACEOFF


class UnknownFace(KeyError):
    """No face of that tag is registered."""


_FACES: Registry[GameFace] = Registry((BLITZ, DUTCH, FACEOFF), DEFAULT_GAME, "faces", UnknownFace)
register = _FACES.register
unregister = _FACES.unregister
registered = _FACES.registered
tags = _FACES.tags


def face_for(tag: str = DEFAULT_GAME) -> GameFace:
    return _FACES[tag]


def words() -> dict[str, GameWords]:
    """What each game's face adds to the table's words, by tag, the default first."""
    return {face.tag: face.words for face in _FACES.values()}
