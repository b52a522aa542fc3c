"""Blitz! (word face-offs): the pure rules (spec/faceoff.md), its packs and their answers."""

from typing import Final

TAG: Final = "faceoff"
TITLE: Final = "Blitz! (word face-offs)"
