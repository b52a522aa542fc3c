"""Dutch Blitz: its cards, moves, rules, scoring, bots and the quick play queue."""
