"""A seat this process plays: the person's own or a local bot's (``local.LocalSeat``), the
table it sits at (``tables``), what it does with its replica's effects (``carrier``), its
timers and tasks, the end of its games, and a spectator's seat (``spectator``,
``watching``)."""
