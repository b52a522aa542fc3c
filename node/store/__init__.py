"""What the node keeps on disk: the state directory and its durable log (``state``), the
table's log records (``tablelog``), the archive of finished games, and the lock that
keeps one node per state directory."""
