"""The door: how a node that knows only HOST:PORT joins a table, with or without a passphrase.

A second protocol beside the table's, sans-IO like it (spec/protocol.md section 17):

``codec``      the door's messages and cards, parsed strictly (P-121, P-123)
``handshake``  SPAKE2 on the passphrase, the transcript, its signatures and MACs
``guesses``    how fast a private door takes guesses (P-133), with the time as input
``keeper``     the door's side of the exchange: bytes and time in, effects out
``knocker``    the knocker's side of the exchange

Randomness (nonces, SPAKE2 scalars) and time come in from the caller; the sockets are
in ``node/net/door.py``.
"""
