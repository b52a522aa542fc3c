"""The version of the game and of its wire protocol."""

GAME_VERSION = "0.1.0"
PROTOCOL_VERSION = 1
