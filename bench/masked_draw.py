"""The cost of Blitz!'s draw piles on the table's masked deck (docs/masked-draw.md), in
processor time, against the table's openings they would replace (protocol/table/openings.py).

    python bench/masked_draw.py [--players 4 5 6] [--cards 58] [--repeat 5]

For each table size, through ``MaskedDeck`` only, the median over ``repeat`` runs of:

- the baseline: one opening as Blitz! makes it now, on one node: every seat's link checked
  against its last one and the opening hashed (F-48);
- the deal, on one node: every seat's key proof checked, its own shuffle of the deck, every
  published deck checked (M-7, M-10, M-12); and the same summed over all the nodes;
- one card turned, on one node: its own share of the card (M-13), every seat's share
  checked and the card opened (M-14, M-15);
- the audit after the game, on one node: every shuffle replayed (M-21);
- a whole game's openings (every card turned once), on one node.

Bodies per card turned are the same as now: one from each seat (a share instead of a link).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable

from dutchblitz.protocol.table import openings
from dutchblitz.protocol.table.masked.checks import AuditMessage, ShuffleMessage
from dutchblitz.protocol.table.masked.deck import MaskedDeck, key_context, opening_context
from dutchblitz.protocol.table.masked.elgamal import Deck

TABLE = bytes(16)
ROUND = 1
SHARE_BODY = 4 + 1 + 1 + 32 + 32 + 32  # round, kind, token, the share's point, e, s
LINK_BODY = 4 + 1 + 2 + 32  # F-46: round, kind, the opening's number, the link


def _seed(tag: str, n: int) -> bytes:
    return hashlib.blake2b(f"{tag}{n}".encode(), digest_size=32).digest()


def _cpu(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def figures(players: int, cards: int, repeat: int) -> dict[str, float]:
    """Each figure's median processor time in milliseconds."""
    deck = MaskedDeck(cards)
    secrets = [deck.secret(_seed("key", s)) for s in range(players)]
    publics = [deck.public(x) for x in secrets]
    proofs = [deck.prove_key(x, key_context(TABLE, ROUND, s)) for s, x in enumerate(secrets)]
    joint = deck.joint(publics)
    seeds = [_seed("shuffle", s) for s in range(players)]
    shuffles: list[ShuffleMessage] = []
    cards_now: Deck = deck.initial()
    for seat, seed in enumerate(seeds):
        cards_now = deck.shuffle(cards_now, joint, seed).deck
        shuffles.append(ShuffleMessage(seat, cards_now))
    reveals = [AuditMessage(s, *deck.revealed(seed)) for s, seed in enumerate(seeds)]
    chains = [openings.chain(_seed("chain", s)) for s in range(players)]

    def baseline() -> None:
        links = {s: chains[s][1] for s in range(players)}
        assert all(openings.follows(links[s], chains[s][0]) for s in range(players))
        openings.opened(1, links, range(players))

    def keys_and_checks() -> None:
        for seat in range(players):
            assert deck.check_key(publics[seat], proofs[seat], key_context(TABLE, ROUND, seat))
        for step in shuffles:
            assert deck.check_deck(step.deck) is None

    def own_shuffle() -> None:
        deck.shuffle(shuffles[0].deck, joint, seeds[1])

    def turn(token: int = 0) -> None:
        context = opening_context(TABLE, ROUND, token)
        card = cards_now[token]
        shares = [deck.share(x, card, context) for x in secrets]  # each seat's own, once
        assert all(deck.check_share(publics[s], card, shares[s], context) for s in range(players))
        assert deck.open(card, [share.point for share in shares]) is not None

    def one_share() -> None:
        deck.share(secrets[0], cards_now[0], opening_context(TABLE, ROUND, 0))

    def audit() -> None:
        assert deck.audit(joint, shuffles, reveals) == []

    share_ms = _cpu(one_share, repeat)
    # One node makes one share and checks all; ``turn`` makes every seat's share, so the
    # other seats' are taken off again.
    turn_ms = _cpu(turn, repeat) - (players - 1) * share_ms
    check_ms, shuffle_ms = _cpu(keys_and_checks, repeat), _cpu(own_shuffle, repeat)
    seconds = {
        "baseline_ms": _cpu(baseline, repeat),
        "deal_one_node_ms": check_ms + shuffle_ms,
        "deal_all_ms": players * (check_ms + shuffle_ms),
        "turn_one_node_ms": turn_ms,
        "audit_one_node_ms": _cpu(audit, repeat),
        "game_turns_one_node_ms": cards * turn_ms,
    }
    return {name: value * 1000 for name, value in seconds.items()}


LINES = (
    ("baseline_ms", "baseline: one opening on the links, one node"),
    ("deal_one_node_ms", "deal: keys, own shuffle, decks checked, one node"),
    ("deal_all_ms", "  the same, summed over all the nodes"),
    ("turn_one_node_ms", "one card turned: own share, all checked, one node"),
    ("audit_one_node_ms", "audit after the game, one node"),
    ("game_turns_one_node_ms", "every card turned once, one node"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5, 6])
    parser.add_argument("--cards", type=int, default=58)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for players in args.players:
        found = figures(players, args.cards, args.repeat)
        baseline = found["baseline_ms"]
        print(f"{players} players, {args.cards} cards, median of {args.repeat} (processor time)")
        for key, what in LINES:
            print(f"  {what:<52} {found[key]:9.3f} ms  {found[key] / baseline:8.0f} x baseline")
        per_turn = players * (players - 1)
        print(
            f"  bodies per card turned: {players} (one per seat), {per_turn} deliveries;"
            f" {SHARE_BODY} bytes each against a link's {LINK_BODY}"
        )


if __name__ == "__main__":
    main()
