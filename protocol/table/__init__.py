"""The table: lobby, rounds, the fair deal, the audit and scores across rounds.

It knows the game it hosts only through ``TableGame`` (``rules.py``, with the seat's
part in ``player.py``).
"""
