"""Dutch Blitz's face: its table, scores and help screens, its keys at the table."""
