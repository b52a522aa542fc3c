"""The table's masked deck: cards no node knows until they are opened (spec/dutch-deal.md).

``deck.py`` is the interface a game uses (``MaskedDeck``) and ``record.py`` a round's record
of it from the order (``MaskedRecord``); ``group.py``, ``elgamal.py``, ``seal.py`` and
``checks.py`` are what they stand on. No game is imported here.
"""
