"""Dutch: the pure rules of a round (spec/dutch.md) and the dealer-less deal (mental.py)."""
