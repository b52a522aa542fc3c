"""Write the digest vectors, spec/vectors/digests.json, from a whole game of the harness.

    python -m tests.protocol.export_digest_vectors            # from the repository root

Two players found a table, hold a lobby, and play rounds on ``replicas.Net`` with the
real codec, signatures and fair deal until the game is over and every round is
revealed. Every event of the stable log is kept, in log order, and at chosen places
(the lobby, dealing, playing, between rounds, after the game) the chain, the public
state's bytes and the digest are written down (spec/protocol.md section 13). Each
point is checked here against the digests the members really sent in their
HEARTBEATs, so the file says what a live node says. The committed JSON, not this
script, is what other implementations run; test_digest_vectors checks the two agree.

When the game's public state gains a field, run this again and commit the new file.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dutchblitz.protocol.conformance.digest_vectors import replay
from dutchblitz.protocol.games.blitz.moves import CentrePlay, PostPlay, StuckCall
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Bye, Commit, Heartbeat, Profile, Ready, Start, Suspect

from tests.protocol.replicas import NODE_IDS, TABLE, Net

TARGET = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "digests.json"
GAME_TARGET = 20  # low, so that the game ends after two rounds
ABOUT = (
    "Digest conformance vectors for spec/protocol.md section 13 (P-95 to P-97, P-157 "
    "on): see protocol/conformance/digest_vectors.py for the format. Each run is the stable log of "
    "one table as a list of EVENT messages (hex) in log order; each point gives, after "
    "the first index events of the log, the phase, the chain, the canonical bytes of the "
    "public state and the digest. Regenerate with python -m tests.protocol.export_digest_vectors."
)


def _choose(moves: list[Any], idle: int, rng: random.Random) -> Any:
    """A plain player: the centre first, then the Post, then the Wood, then a stuck call."""
    for kind in (CentrePlay, PostPlay):
        found = [m for m in moves if isinstance(m, kind)]
        if found:
            return rng.choice(found)
    stuck = [m for m in moves if isinstance(m, StuckCall)]
    if stuck and (idle > 20 or len(stuck) == len(moves)):
        return stuck[0]
    return rng.choice([m for m in moves if not isinstance(m, StuckCall)])


def watched_net(count: int) -> Net:
    """A harness whose every settle also asks each replica for its digest (``_look``)."""
    net = Net(count)
    net.seen_digests = {}  # type: ignore[attr-defined]
    settle = net.settle

    def settle_and_look(*args: Any, **kwargs: Any) -> None:
        settle(*args, **kwargs)
        _look(net)

    net.settle = settle_and_look  # type: ignore[method-assign]
    return net


def play_game(target: int = GAME_TARGET, seed: int = 17) -> Net:
    """A whole game of two players, with one refused event in each phase of play."""
    rng = random.Random(seed)
    idle: dict[int, int] = {}  # moves since each player's last centre play or stuck call
    net = watched_net(2)
    net.found()
    net.settle()
    net.submit(0, Profile("Ann", "pump"))  # alone in the lobby, named
    net.settle()
    net.join(1)
    net.submit(1, Profile("Bob", "pump"))  # refused: the back is taken
    net.submit(1, Profile("Bob", "wagon"))
    net.settle()
    net.lobby(target=target, post_stacking=True)
    net.submit(1, Ready(False))  # refused: READY while dealing
    net.settle()
    for _ in range(400):
        game = net.replica(0).stable
        if game.phase == Phase.OVER and game.audit_complete():
            return net
        if game.phase == Phase.PLAYING:
            _play_once(net, rng, idle)
        else:
            net.deal()
            _owe_reveals(net)
    raise AssertionError("the game did not end")


def _play_once(net: Net, rng: random.Random, idle: dict[int, int]) -> None:
    for index in net.player_indexes():
        view = net.replica(index).optimistic()
        if view.phase != Phase.PLAYING or view.table is None:
            continue
        moves = legal_moves(view.table, net.seat(index))
        if not moves:
            continue
        move = _choose(moves, idle.get(index, 0), rng)
        idle[index] = 0 if isinstance(move, CentrePlay | StuckCall) else idle.get(index, 0) + 1
        net.play(index, move)
    net.settle()


def _owe_reveals(net: Net) -> None:
    for index in net.player_indexes():
        for body in net.deal_duties(index):
            net.submit(index, body)
    net.settle()


# -- the points -------------------------------------------------------------------------------


def _sent_digests(net: Net) -> dict[int, bytes]:
    """Every (digest-index, digest) the members put in their HEARTBEATs or computed."""
    found: dict[int, bytes] = dict(net.seen_digests)  # type: ignore[attr-defined]
    for flight in net.log_of_sends:
        envelope = decode(flight.data)
        beat = envelope.payload
        if isinstance(beat, Heartbeat) and beat.digest:
            old = found.setdefault(beat.digest_index, beat.digest)
            assert old == beat.digest, f"two digests for index {beat.digest_index}"
    return found


def _look(net: Net) -> None:
    """Ask each replica for its digest now, as its next HEARTBEAT would carry it."""
    seen: dict[int, bytes] = net.seen_digests  # type: ignore[attr-defined]
    for node in net.nodes:
        replica = node.replica
        if replica.log:
            digest = replica.digest()
            old = seen.setdefault(len(replica.log), digest)
            assert old == digest, f"two digests for index {len(replica.log)}"


Pick = Callable[[list[dict[str, Any]], int], bool]


def points(
    events: list[bytes], sent: dict[int, bytes], also: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    """The places worth a vector: each phase, every phase change, and each refusal (and
    the places ``also`` names)."""
    steps = list(replay(events))
    chosen: set[int] = {1, len(steps), *also}
    for index in range(1, len(steps)):
        before, after = steps[index - 1], steps[index]
        if before.phase != after.phase or before.round != after.round:
            chosen |= {index, index + 1}
        if after.refused != before.refused or after.public[:3] != before.public[:3]:
            chosen.add(index + 1)  # a refusal, or the public state gains or loses a field
    in_play = [s.index for s in steps if s.phase == Phase.PLAYING.value]
    if in_play:
        chosen.add(in_play[len(in_play) // 2])
    heard = [s for s in steps if s.index in sent]
    for step in heard:
        assert sent[step.index] == step.digest, f"index {step.index}: the nodes sent another"
    assert len(heard) >= len(steps) // 4, f"only {len(heard)} of {len(steps)} digests were sent"
    found: list[dict[str, Any]] = []
    for step in steps:
        if step.index not in chosen:
            continue
        found.append(
            {
                "index": step.index,
                "phase": step.phase,
                "round": step.round,
                "chain": step.chain.hex(),
                "public": step.public.hex(),
                "digest": step.digest.hex(),
            }
        )
    return found


def run_vector() -> dict[str, Any]:
    net = play_game()
    replica = net.replica(0)
    events = [replica.order.stable_raws[(entry.sender, entry.seq)] for entry in replica.log]
    assert [bytes(e) for e in events] == [
        net.replica(1).order.stable_raws[(e.sender, e.seq)] for e in net.replica(1).log
    ]
    return {
        "spec": ["P-96", "P-157", "P-158", "P-159", "P-160"],
        "name": "a whole game of two players, to its end and its audit",
        "table": TABLE,
        "members": [node.hex() for node in NODE_IDS[:2]],
        "events": [e.hex() for e in events],
        "points": points(events, _sent_digests(net)),
    }


def away_game() -> Net:
    """Three players; one is removed while the deal waits, so it is away (R-56), and comes
    back: the public state's optional last field comes and goes."""
    net = watched_net(3)
    net.open_table()
    net.lobby(target=GAME_TARGET)
    for index in (0, 1, 2):
        for body in net.deal_duties(index):
            if isinstance(body, Commit):
                net.submit(index, body)
    net.settle()
    gone = NODE_IDS[2]
    net.submit(0, Suspect(gone, net.replica(0).streams[gone].held))
    net.settle()
    _look(net)
    return net


def away_vector() -> dict[str, Any]:
    net = away_game()
    replica = net.replica(0)
    events = [replica.order.stable_raws[(entry.sender, entry.seq)] for entry in replica.log]
    found = points(events, _sent_digests(net))
    assert any(p["public"].startswith("dc0013") for p in found), "nobody was away"
    return {
        "spec": ["P-96", "P-157", "P-158", "P-159", "P-160"],
        "name": "three players: one removed while the deal waits (away), and back",
        "table": TABLE,
        "members": [node.hex() for node in NODE_IDS[:3]],
        "events": [e.hex() for e in events],
        "points": found,
    }


def _until_round(net: Net, done: Callable[[Any], bool], seed: int) -> None:
    """Play and deal, every seat honest, until ``done`` holds of replica 0's stable game."""
    rng = random.Random(seed)
    idle: dict[int, int] = {}
    for _ in range(400):
        game = net.replica(0).stable
        if done(game):
            return
        if game.phase == Phase.PLAYING:
            _play_once(net, rng, idle)
        else:
            net.deal()
            _owe_reveals(net)
    raise AssertionError("the game did not get there")


def over_game() -> Net:
    """Three players, one round to the game's end; seat 2 keeps its reveal back, so a
    rematch is refused `audit_open`; its BYE flags the round `withheld`, which completes the
    audit and marks its seat inactive on the finished table; it comes back (active again,
    not ready), and the rematch is refused, then taken (P-250, P-251, P-252)."""
    net = watched_net(3)
    net.open_table()
    net.lobby(target=1)
    _until_round(net, lambda game: game.phase == Phase.OVER, seed=4)
    for index in (0, 1):
        for body in net.deal_duties(index):
            net.submit(index, body)
    net.settle()
    for index in range(3):
        net.submit(index, Ready(True))
    net.settle()
    net.submit(
        0, Start(1, True)
    )  # refused audit_open: seat 2's deck is neither revealed nor flagged
    net.settle()
    net.submit(2, Bye())
    net.settle()
    net.join(2)
    net.submit(0, Start(1, True))  # refused not_all_ready: seat 2 is back, not ready
    net.settle()
    net.submit(2, Ready(True))
    net.settle()
    net.submit(0, Start(1, True))
    net.settle()
    game = net.replica(0).stable
    assert game.phase == Phase.DEALING and [f.kind.value for f in game.flags] == ["withheld"]
    return net


def seen_game() -> Net:
    """Three players; in round 2 every deck is dealt while nobody has said they saw the
    scores; seat 2 is removed (away) and play begins once the two present have (P-253)."""
    net = watched_net(3)
    net.open_table()
    net.lobby(target=200)
    _until_round(net, lambda game: game.round == 2, seed=4)
    net.looking = {0, 1, 2}  # nobody has seen the scores yet: READY is held back
    net.deal()
    gone = NODE_IDS[2]
    net.cut_links |= {(2, 0), (2, 1), (0, 2), (1, 2)}
    net.submit(0, Suspect(gone, net.replica(0).streams[gone].held))
    net.settle(until=lambda: not net.replica(0).stable.members[gone].present)
    net.looking = set()
    for index in (0, 1):
        net.submit(index, Ready(True))
    net.settle(until=lambda: net.replica(0).stable.phase == Phase.PLAYING)
    net.run()
    game = net.replica(0).stable
    assert game.away == {2} and not game.members[gone].ready
    return net


def corner_vector(
    net: Net, members: list[int], name: str, spec: list[str], last: int
) -> dict[str, Any]:
    """The stable log the ``members`` agree on, as a run: every place worth a point, and
    each of its ``last`` events, where the corner is."""
    first = net.replica(members[0])
    events = [first.order.stable_raws[(entry.sender, entry.seq)] for entry in first.log]
    for index in members[1:]:
        other = net.replica(index)
        assert [other.order.stable_raws[(e.sender, e.seq)] for e in other.log] == events
    return {
        "spec": ["P-96", *spec],
        "name": name,
        "table": TABLE,
        "members": [node.hex() for node in NODE_IDS[: len(net.nodes)]],
        "events": [e.hex() for e in events],
        "points": points(
            events, _sent_digests(net), frozenset(range(len(events) - last, len(events) + 1))
        ),
    }


def build() -> dict[str, Any]:
    return {
        "about": ABOUT,
        "runs": [
            run_vector(),
            away_vector(),
            corner_vector(
                over_game(),
                [0, 1, 2],
                "after the game: a deck kept back, its owner's BYE and return, and the rematch",
                ["P-250", "P-251", "P-252"],
                last=14,
            ),
            corner_vector(
                seen_game(),
                [0, 1],
                "a player away does not hold up the scores seen: play begins without it",
                ["P-253"],
                last=20,
            ),
        ],
    }


def main() -> None:
    TARGET.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
