"""The player's face: the prompt_toolkit table, key bindings and screens."""
