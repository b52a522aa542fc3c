"""Dutch: the pure rules of a round (spec/dutch.md) and its deal with no dealer, on the
table's masked deck (protocol/table/masked/)."""
