"""``python -m dutchblitz.protocol.conformance``: run every vector (see runner.py)."""

import sys

from .runner import main

sys.exit(main())
