"""The pure core of Dutch Blitz: cards, rules, events, Lamport order and codec.

Nothing in this package reads a clock, a socket or a random source; time and
randomness come in as arguments, so every function is deterministic.
"""
