"""The replica: one node's copy of the table's log. ``core.Replica`` takes bytes and timer
ticks and returns effects; its parts are the Lamport order and stability, the senders'
streams and their repair, membership and liveness (suspicion, agreed cuts, the withdrawal
flush), spectators, flood control, and the digest of the stable log."""
