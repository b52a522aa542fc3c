"""Dutch's face: its screens, its keys, and a local table to play it on."""
