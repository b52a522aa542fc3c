"""The games a table can play, each in a folder of its own."""
