"""The IO shell around the pure core: discovery, ZeroMQ transport, membership,
timers, persistence and the ``blitz-node`` command."""
