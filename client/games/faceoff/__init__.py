"""Blitz!'s face (word face-offs): its screens and the words its player reads."""
