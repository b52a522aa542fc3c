"""Every limit of the table in one place: sizes on the wire, names, seats and scores.

Each limit is defined here once; the codec, the game, the door and the node's command line
all read it from here, so a limit never drifts between the layer that checks it and the
layer that explains it to a player. spec/protocol.md section 15 gives the normative bounds.
"""

from __future__ import annotations

from typing import Final

# Identifiers and hashes (spec/protocol.md sections 4, 13 and 16).
NODE_ID_SIZE: Final = 16  # BLAKE2b-128 of the node's public key; also a table epoch
DIGEST_SIZE: Final = 16  # the public digest of a table's log
HASH_SIZE: Final = 32  # a commitment or a share of the fair deal
SECRET_SIZE: Final = 32  # the round secret an honest node draws
MAX_SECRET: Final = 64  # the largest secret the wire carries

# Text (UTF-8 bytes).
MAX_NAME: Final = 32  # a player's or a table's name
MAX_ENDPOINT: Final = 128  # "tcp://198.18.0.2:5555"
MAX_PASSPHRASE: Final = 256  # a private table's passphrase, as typed

# A game's own message inside a table event (spec/protocol.md section 7.11).
MAX_GAME_ID: Final = 255  # game ids are 1..255; each game's folder names its own
MAX_GAME_PAYLOAD: Final = 8192  # bytes: a whole masked deck of Dutch is about 3.7 KiB

# Seats and scores.
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
# The codes of one seat's deck on the wire (a DEAL's, a REVEAL's, a PLAY's cards): seat s
# holds the codes 40s to 40s + 39 (spec/protocol.md, card-or-no).
DECK_CODES: Final = 40
MAX_TARGET: Final = 1000  # the largest score a game can be played to
MAX_GAME_ROUNDS: Final = 100  # the most rounds a game can be played for (P-237)
DEFAULT_TARGET: Final = 75  # the score a game is played to unless its START names another

# The TV view in the browser (node/tv): read-only, so only its cost to the node is bounded.
MAX_TV_VIEWERS: Final = 32  # pages open on the live table at once; one more is turned away

# A finished game's file (spec/replay.md).
MAX_GAME_FILE: Final = 64 << 20  # bytes: far above a long evening's log

# Spectators (spec/protocol.md section 26).
MAX_SPECTATORS: Final = 16  # the spectators one member feeds at once
