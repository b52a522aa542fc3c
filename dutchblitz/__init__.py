"""Dutch Blitz on the LAN: ``dutchblitz.protocol`` (pure core), ``dutchblitz.node``
(IO shell) and ``dutchblitz.client`` (terminal face)."""

__version__ = "0.1.0"
