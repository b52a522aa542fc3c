"""The TV view: a read-only page in the browser that shows the public table live.

``public`` turns a node's ``Snapshot`` (node/api.py) into the page's data: only what
every player at the table sees. ``server`` serves the page and pushes that data over
server-sent events, on the node's own event loop. ``static/`` is the page itself.
"""
