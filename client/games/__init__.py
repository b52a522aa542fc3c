"""The games' faces, one folder each; ``registry.py`` finds one by its game's tag."""

DEFAULT_GAME = "blitz"  # Dutch Blitz's tag: the protocol's registry's default game too
