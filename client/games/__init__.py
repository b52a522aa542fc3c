"""The games' faces, one folder each."""
