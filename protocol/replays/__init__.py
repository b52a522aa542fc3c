"""Finished games kept and played again: the sealed game file (``gamefile``) and the
checked replay's stops (``steps``)."""
