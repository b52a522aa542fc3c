"""A seat's decisions without IO: what it owes the table next (``duties``), the fair deal
(``deal_duties``) and its game's own round (``game_duties``), finding the table and the
lobby merge (``finding``), its pace between rounds (``pace``), and a spectator's
``Follower``."""
