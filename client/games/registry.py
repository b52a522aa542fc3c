"""The games' faces, by tag: the client draws a table with the face of the game it hosts.

Dutch Blitz's face is always here, and is the default; Dutch's and Blitz!'s are here too. A game
outside this package registers its face (``register``) before the client starts, as its
rules register with the protocol's registry (``protocol/games/registry.py``); ``unregister``
and ``registered`` (for a ``with`` block) forget it again, as there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..face import GameFace
from ..words import GameWords
from . import DEFAULT_GAME
from .blitz.face import FACE as BLITZ
from .dutch.face import FACE as DUTCH
from .faceoff.face import FACE as FACEOFF

_FACES: dict[str, GameFace] = {BLITZ.tag: BLITZ, DUTCH.tag: DUTCH, FACEOFF.tag: FACEOFF}


class UnknownFace(KeyError):
    """No face of that tag is registered."""


_BUILT_IN = frozenset(_FACES)


def register(face: GameFace) -> None:
    """Make a game's face known by its tag; registering the same tag again replaces it."""
    _FACES[face.tag] = face


def unregister(tag: str) -> None:
    """Forget the face registered under ``tag`` (UnknownFace if none is); the faces of this
    package stay (ValueError)."""
    if tag in _BUILT_IN:
        raise ValueError(f"{tag} is one of this package's faces")
    if _FACES.pop(tag, None) is None:
        raise UnknownFace(tag)


@contextmanager
def registered(face: GameFace) -> Iterator[GameFace]:
    """``face`` registered for the ``with`` block, and the registry as it was after it (a
    face it replaced comes back)."""
    before = _FACES.get(face.tag)
    _FACES[face.tag] = face
    try:
        yield face
    finally:
        if before is None:
            _FACES.pop(face.tag, None)
        else:
            _FACES[face.tag] = before


def face_for(tag: str = DEFAULT_GAME) -> GameFace:
    try:
        return _FACES[tag]
    except KeyError:
        raise UnknownFace(tag) from None


def words() -> dict[str, GameWords]:
    """What each game's face adds to the table's words, by tag, the default first."""
    return {tag: _FACES[tag].words for tag in tags()}


def tags() -> list[str]:
    """Every tag with a face, the default first."""
    return [DEFAULT_GAME, *sorted(tag for tag in _FACES if tag != DEFAULT_GAME)]
