"""Conformance: the vectors of spec/vectors, the module that reads each file into cases
(``*_vectors.py``, and each game's and the door's own beside their code), and the runner
(``runner.py``) that runs them all: ``python -m dutchblitz.protocol.conformance``."""
