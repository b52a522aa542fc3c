"""The table's masked deck: cards no node knows until they are opened (spec/dutch-deal.md).

``deck.py`` is the interface a game uses (``MaskedDeck``); ``group.py``, ``elgamal.py``,
``seal.py`` and ``checks.py`` are what it stands on. No game is imported here.
"""
