"""The ``blitz-node`` command: its flags and run (``main``), the archive's commands, the
black-box check, and the node's conformance runner."""
