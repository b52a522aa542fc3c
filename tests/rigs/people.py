"""The seeded simulator with people at the table, not only bots.

Each of 3 to 5 nodes is a person who, at drawn times and in whatever phase the table is in
(lobby, count-in, play, scores, game over, rematch, after a switch of game), does one of:
rename itself (a PROFILE), change the lobby's options (an OPTIONS, P-261, which may offer
another game: P-241), take its ready mark back, leave (BYE) and come back later on the same
disk (its kept log, P-204 and P-257), crash and restart, and add a bot (a fresh node that
joins) and remove one (it says BYE and stops; one still joining sits down first, as a real
node's does) within a second of each other. Between those,
each person plays as the simulator's bots do: it readies, starts a game once every seated
player is ready, plays, and asks for rematches. The seed's network faults (``--faults
single`` of tests/rigs/sim.py) run as well.

Once nobody acts any more (``QUIET_AT``) and every fault has healed, the people take their
seats and play one game to its end, and the run checks, beside every invariant of the plain
simulator (tests/rigs/watch.py):

- every node that is up and a member reaches the same phase as the others within
  ``PHASE_BOUND`` virtual seconds, and the game ends within ``FINISH_BOUND``;
- every seat present in the stable log belongs to a node of the simulation that is still at
  the table (no ghost seats): a bot removed, or a person gone, holds none at the end.

    python -m tests.rigs.people --seeds 200 --workers 1
    python -m tests.rigs.people --seed 17 -v            # replay one seed, with its trace
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from dutchblitz.protocol.games.registry import DEFAULT_GAME, game_for
from dutchblitz.protocol.seat.duties import can_start
from dutchblitz.protocol.seat.finding import AskAgain, Seating, TableFinder
from dutchblitz.protocol.table.state import FlagKind, Game, Phase
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.messages import Bye, Options, Profile, Ready, Start

from tests.rigs.sim import Disk, InvariantViolated, Scenario, SimNode, Simulation
from tests.rigs.toygroup import toy_group
from tests.rigs.watch import DIVERGED, STALLED, Diverged, Stalled

ACTIONS = ("rename", "options", "unready", "leave", "crash", "bots")
ACT_FROM, ACT_UNTIL = 1.0, 22.0  # when people act, in virtual seconds
AWAY = (0.5, 8.0)  # how long a person who left, or crashed, stays away
QUIET_AT = 31.0  # nobody acts from here on, everyone is back, every fault has healed
PHASE_BOUND = 60.0  # virtual seconds, once quiet, for every member to reach the others' phase
FINISH_BOUND = 120.0  # virtual seconds, once quiet, for the last game to end everywhere
CONSIDER_EVERY = 0.25  # how often a restored seat's finder looks at its table
SIT_DOWN_S = 10.0  # a bot taken away while it joins waits this long to sit down: node/seat/local.py
MAX_NODES = 6  # nodes at the table at once, people and bots
GAMES = (DEFAULT_GAME, "dutch")  # the games a person may offer (P-241)
TARGETS = (3, 5, 8)  # short games: the run plays several


@dataclass(slots=True)
class Person:
    """What a person at a node has chosen: its name, and until when it is not ready."""

    name: str
    renames: int = 0
    hold_until: float = 0.0  # it took its ready mark back: no READY of its own before this
    away: bool = False  # it left (BYE), or crashed: its node is down until it comes back


@dataclass(slots=True)
class Acts:
    """What the people did in one run, for its summary."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ACTIONS, 0))
    bots_added: int = 0
    bots_removed: int = 0


class PeopleSimulation(Simulation):
    """One seeded run of a table of people (and the bots they add); ``run`` as the plain
    simulator's: a summary, or InvariantViolated."""

    # Whether the last present member may leave too: a table everyone has left seats none
    # of them again (tests/sim/test_people.py keeps a seed of it).
    everyone_may_leave = False
    # Whether a bot taken away while it joins first sits down, as a real node has it
    # (node/seat/local.py); False: it stops at once, as one whose process dies then.
    bots_sit_first = True

    def __init__(self, seed: int, trace: Callable[[str], None] | None = None) -> None:
        drawn = Scenario.draw(random.Random(seed), "single").players  # the seed's own size
        super().__init__(seed, "single", trace, players=max(3, drawn), rematches=10**6)
        self.people_rng = random.Random(seed * 1_000_003 + 7)
        self.think = replace(self.think, think=(0.05, 0.2))
        self.people: dict[int, Person] = {n.index: Person(f"bot{n.index}") for n in self.nodes}
        self.finders: dict[int, TableFinder] = {}  # each restored node's, from its restart
        self.removed: set[int] = set()  # nodes of bots taken off the table: gone for good
        self.acts = Acts()
        self.quiet = False
        self.start_after = self.people_rng.uniform(0.0, 15.0)  # the first game's start, at least
        self.apart_since: float | None = None  # when the members' phases last split, once quiet

    # -- the run ---------------------------------------------------------------------------

    def run(self, limit: float = QUIET_AT + FINISH_BOUND) -> dict[str, object]:
        self._schedule_people()
        self.at(QUIET_AT, self._go_quiet)
        summary = super().run(limit)
        summary.update(self._acts_summary())
        return summary

    def _schedule_people(self) -> None:
        rng = self.people_rng
        for node in list(self.nodes):
            for _ in range(rng.randint(2, 6)):
                when = rng.uniform(ACT_FROM, ACT_UNTIL)
                self.at(when, partial(self._act, node, rng.choice(ACTIONS)))

    def _go_quiet(self) -> None:
        """Nobody acts from now on: no more rematches, everyone plays one game to its end."""
        self.log("quiet: the people stop and play one game to its end")
        self.quiet = True
        self.rematches = 0

    def _live(self) -> list[SimNode]:
        """The nodes meant to be at the table: every person, and every bot not removed."""
        return [n for n in self.nodes if n.index not in self.removed]

    # -- what people do ----------------------------------------------------------------------

    def _act(self, node: SimNode, action: str) -> None:
        person = self.people[node.index]
        if self.quiet or person.away or not node.up or node.paused:
            return
        self.acts.counts[action] += 1
        self.log(f"person {node.index}: {action} in {node.replica.stable.phase.value}")
        if action == "leave":
            self._leave(node)
        elif action == "crash":
            person.away = True
            self._crash(node)
            self.at(self.now + self.people_rng.uniform(*AWAY), partial(self._come_back, node))
        elif action == "bots":
            self._bots(node)
        elif node.replica.can_play() and not node.replica.pending_own():
            self._say(node, action)

    def _say(self, node: SimNode, action: str) -> None:
        """A PROFILE, an OPTIONS or a READY(false), in whatever phase the table is in: the
        table refuses what its phase does not take, and the run goes on."""
        person = self.people[node.index]
        game = node.replica.optimistic()
        me = game.members.get(node.node_id)
        if me is None:
            return
        local = self._local_now(node)
        if action == "rename" and me.back:
            person.renames += 1
            person.name = f"p{node.index}n{person.renames}"
            self._submit(node, Profile(person.name, me.back), local)
        elif action == "options":
            self._submit(node, self._options(game), local)
        elif action == "unready":
            person.hold_until = self.now + self.people_rng.uniform(0.5, 5.0)
            self._submit(node, Ready(False), local)

    def _options(self, game: Game) -> Options:
        """Options a person picks: a target, Post stacking, and maybe another game."""
        rng = self.people_rng
        offered = rng.choice([None, *(tag for tag in GAMES if tag != game.rules.tag)])
        rules = game.rules if offered is None else game_for(offered)
        rounds = rng.choice((0, 1, 2)) if rules.rounds_option else 0
        return Options(rng.choice(TARGETS), rng.random() < 0.7, rounds, offered)

    def _leave(self, node: SimNode) -> None:
        """BYE, after the game's farewell (its reveals, Dutch's keys: M-37), and the node
        stops; it comes back later on the same disk."""
        person = self.people[node.index]
        if self._last_one(node):
            return
        person.away = True
        if node.replica.can_play():
            assert node.steward is not None
            node.steward.deal_duties(node.replica, reveals_only=True)
            self._submit(node, Bye(), self._local_now(node))
        self._crash(node)
        self.at(self.now + self.people_rng.uniform(*AWAY), partial(self._come_back, node))

    def _last_one(self, node: SimNode) -> bool:
        """Whether ``node`` sees no other present member: unless ``everyone_may_leave``, the
        last one stays (a table everyone has left can seat none of them again)."""
        if self.everyone_may_leave:
            return False
        members = node.replica.optimistic().members.values()
        return not any(m.present and m.node != node.node_id for m in members)

    def _come_back(self, node: SimNode) -> None:
        self.people[node.index].away = False
        self._restart(node)

    def _restart(self, node: SimNode) -> None:
        """A restart from the node's kept log (P-204, P-257); a node still up stops first, so
        that nothing sent to its old run reaches the new one."""
        if node.index in self.removed:
            return
        if node.up:
            self._crash(node)
        super()._restart(node)
        # The seat's own ``TableFinder`` (protocol/seat/finding.py) says when to ask again
        # to sit down: its own BYE, or its removal, may become final only after the restore.
        finder = TableFinder(self.settings.suspect_after, self.settings.heartbeat_every)
        finder.restored(self._local_now(node))
        self.finders[node.index] = finder
        self.at(self.now + CONSIDER_EVERY, partial(self._consider, node, node.incarnation))

    def _consider(self, node: SimNode, incarnation: int) -> None:
        """The finder's steps for a restored node; one table id here, always heard."""
        if not node.up or node.incarnation != incarnation:
            return
        finder, replica = self.finders[node.index], node.replica
        if not node.paused:
            stable, local = replica.stable, self._local_now(node)
            in_lobby = stable.phase == Phase.LOBBY == replica.optimistic().phase
            seating = Seating(self.epoch, in_lobby, replica.is_member(), replica.rejoining)
            for step in finder.consider(local, seating, [self.epoch]):
                if isinstance(step, AskAgain):
                    self.log(f"node {node.index} asks again to sit down")
                    self._effects(node, replica.ask_to_join(local))
        if finder.admission_due is not None:
            self.at(self.now + CONSIDER_EVERY, partial(self._consider, node, incarnation))

    def _bots(self, node: SimNode) -> None:
        """``+`` and, within a second, maybe ``-``: a fresh bot node asks to join, and one of
        the bots added so far leaves."""
        rng = self.people_rng
        if len(self._live()) < MAX_NODES:
            self._add_bot()
        bots = [n for n in self._live() if n.index not in self.people]
        if bots and rng.random() < 0.7:
            self.at(self.now + rng.uniform(0.0, 1.0), partial(self._remove_bot, rng.choice(bots)))

    def _add_bot(self) -> None:
        index = len(self.nodes)
        signer = Signer(hashlib.blake2b(f"key-{self.seed}-{index}".encode()).digest()[:32])
        self.signers[signer.node_id] = signer
        rng = random.Random(self.seed * 31 + index)
        node = SimNode(index, signer.node_id, self._replica(signer.node_id), Disk(), rng)
        node.steward = self._steward(node)
        self.nodes.append(node)
        skews = self.scenario.skews
        self.scenario = replace(self.scenario, skews=(*skews, skews[index % len(skews)]))
        self.acts.bots_added += 1
        self.log(f"bot node {index} is {node.node_id.hex()[:4]}: it asks to join")
        self._join(node)
        self.at(self.now, partial(self._tick, node))
        self.at(self.now + 0.05, partial(self._bot, node))

    def _remove_bot(self, node: SimNode, waited: float = 0.0) -> None:
        """``-``: the bot says BYE and stops. A real node first waits, up to ``SIT_DOWN_S``,
        for a bot taken away while it joins to sit down (node/seat/local.py): left with no
        goodbye, it would be admitted all the same, a member nobody answers for."""
        if node.index in self.removed:
            return
        joining = node.up and not node.replica.is_member()
        if joining and self.bots_sit_first and waited < SIT_DOWN_S:
            later = partial(self._remove_bot, node, waited + CONSIDER_EVERY)
            self.at(self.now + CONSIDER_EVERY, later)
            return
        self.log(f"bot node {node.index} is removed")
        self.acts.bots_removed += 1
        self.removed.add(node.index)
        if node.up and not node.paused and node.replica.can_play():
            assert node.steward is not None
            node.steward.deal_duties(node.replica, reveals_only=True)
            self._submit(node, Bye(), self._local_now(node))
        self._crash(node)

    # -- the bots' lobby, with people's names and second thoughts ---------------------------

    def _lobby_step(self, node: SimNode, game: Game, seat: int, local: float) -> None:
        member = game.members[node.node_id]
        if node.replica.pending_own():
            return
        person = self.people.get(node.index)
        name = f"bot{node.index}" if person is None else person.name
        if member.name != name and member.back:
            self._submit(node, Profile(name, member.back), local)
        elif person is not None and self.now < person.hold_until:
            return
        elif not member.ready:
            self._submit(node, Ready(True), local)
        elif game.seated()[0].node == node.node_id:
            self._first_seat(node, game, local)

    def _first_seat(self, node: SimNode, game: Game, local: float) -> None:
        """The first seat starts a game once every seated player is ready; once quiet, only
        with every node at the table, and offering the default game where the one offered
        cannot seat them all."""
        if game.target not in TARGETS:  # the founder's own options (P-261): a short game
            offered = GAMES[self.seed % len(GAMES)]  # every other seed offers Dutch at once
            offered = None if offered == game.rules.tag else offered
            options = Options(TARGETS[self.seed % len(TARGETS)], True, 0, offered)
            self._submit(node, options, local)
            return
        if self.quiet:
            seated = {m.node for m in game.seated()}
            if any(n.node_id not in seated for n in self._live()):
                return
        elif self.now < self.start_after:
            return  # the people talk in the lobby a while first
        if can_start(game, node.node_id, 2, game.offered):
            self._submit(
                node, Start(game.target, game.post_stacking, game.rounds, game.offered), local
            )
        elif self.quiet and all(m.ready for m in game.seated()) and game.offered is not None:
            self._submit(node, Options(game.target, game.post_stacking, 0, None), local)

    # -- invariants --------------------------------------------------------------------------

    def _check_cards(self, node: SimNode) -> None:
        if node.replica.stable.rules.tag == DEFAULT_GAME:
            super()._check_cards(node)  # Dutch Blitz's cards, whichever game the table began

    def _check_progress(self, when: float) -> None:
        """Once quiet and healed, the members' phases may differ for ``PHASE_BOUND`` at most."""
        if not self.quiet or when < self.scenario.heal_at:
            return
        members = [n for n in self._live() if n.up and not n.paused and n.replica.is_member()]
        phases = {(n.replica.stable.phase, n.replica.stable.game_number) for n in members}
        if len(phases) <= 1:
            self.apart_since = None
            return
        if self.apart_since is None:
            self.apart_since = when
        elif when - self.apart_since > PHASE_BOUND:
            self._stall(f"members' phases {sorted(phases)} apart for {PHASE_BOUND:.0f} s")

    def _finished(self) -> bool:
        if not self.quiet or self.now < self.scenario.heal_at:
            return False
        live = self._live()
        if not all(n.up and not n.paused and n.replica.can_play() for n in live):
            return False
        games = [n.replica.stable for n in live]
        if any(g.phase != Phase.OVER for g in games):
            return False
        if len({g.game_number for g in games}) != 1:
            return False
        for node, stable in zip(live, games, strict=True):
            end = node.replica.ended
            if end is None or end[2].game_number != stable.game_number:
                return False
            if node.replica.pending or set(node.submitted) - node.settled_seqs:
                return False
        return len({len(n.replica.log) for n in live}) == 1

    def _stall(self, why: str) -> None:
        live = self._live()
        phases = [(n.index, n.replica.stable.phase.value, n.up) for n in live]
        lengths = [len(n.replica.log) for n in live]
        raise Stalled(f"{why} by t={self.now:.1f}: nodes {phases}, log lengths {lengths}")

    def _check_final(self, limit: float) -> None:
        live = self._live()
        for node in self.nodes:
            log = [(e.sender, e.seq) for e in node.replica.log]
            if len(set(log)) != len(log):
                raise InvariantViolated(f"node {node.index} applied an event twice")
        if not self._finished():
            self._stall("the last game did not end everywhere")
        if len({n.replica.digest() for n in live}) != 1:
            raise Diverged("nodes with the same log have different digests")
        real = {n.node_id for n in live}
        for node in live:
            stable = node.replica.stable
            seated = {m.node for m in stable.members.values() if m.present}
            if seated != real:
                ghosts = sorted(s.hex()[:4] for s in seated - real)
                missing = sorted(s.hex()[:4] for s in real - seated)
                raise InvariantViolated(
                    f"node {node.index}: ghost seats {ghosts}, nodes without a seat {missing}"
                )
            flags = [f for f in stable.flags if f.kind != FlagKind.UNAUDITED]
            if flags:
                raise InvariantViolated(f"node {node.index}: honest players flagged: {flags}")

    def _acts_summary(self) -> dict[str, object]:
        return {
            "people": len(self.people),
            "acts": {kind: count for kind, count in self.acts.counts.items() if count},
            "bots": f"+{self.acts.bots_added} -{self.acts.bots_removed}",
            "game": self._live()[0].replica.stable.rules.tag,
        }


def run_seed(seed: int, verbose: bool = False) -> dict[str, object]:
    """One seed's run, on the stand-in group for Dutch (tests/rigs/toygroup.py)."""
    with toy_group():
        return PeopleSimulation(seed, print if verbose else None).run()


Outcome = tuple[int, str | None, dict[str, object] | None, str]  # seed, error, summary, kind


def _outcome(seed: int) -> Outcome:
    try:
        return seed, None, run_seed(seed), "held"
    except InvariantViolated as error:
        return seed, str(error), None, error.kind


def sweep_iter(seeds: Sequence[int], workers: int = 1) -> Iterator[Outcome]:
    """Every seed's outcome, in seed order, on ``workers`` processes."""
    if workers <= 1:
        yield from map(_outcome, seeds)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_outcome, seeds, chunksize=1)


def failures(seeds: Sequence[int], workers: int = 1) -> list[tuple[int, str]]:
    """The seeds that broke an invariant, with what they broke."""
    return [(s, e) for s, e, _, _ in sweep_iter(seeds, workers) if e is not None]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.rigs.people", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--seeds", type=int, default=50, help="how many seeds to sweep")
    parser.add_argument("--first", "--start", type=int, default=0, help="the first seed")
    parser.add_argument("--seed", type=int, help="replay this one seed")
    parser.add_argument("--workers", type=int, default=1, help="processes for a sweep")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the trace")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.seed is not None:
        try:
            print(run_seed(args.seed, verbose=args.verbose))
        except InvariantViolated as violation:
            print(f"seed {args.seed}: FAILED ({violation.kind}): {violation}")
            return 1
        return 0
    seeds = range(args.first, args.first + args.seeds)
    kinds = {"held": 0, STALLED: 0, DIVERGED: 0, "broken": 0}
    for seed, error, summary, kind in sweep_iter(seeds, args.workers):
        kinds[kind] = kinds.get(kind, 0) + 1
        if error is not None:
            print(f"seed {seed}: FAILED ({kind}): {error}")
            print(f"  replay: python -m tests.rigs.people --seed {seed} -v")
        elif args.verbose:
            print(summary)
        sys.stdout.flush()
    counts = " ".join(f"{kind}={count}" for kind, count in kinds.items())
    last = seeds.start + len(seeds) - 1
    elapsed = time.perf_counter() - started
    print(
        f"people seeds={seeds.start}..{last} workers={args.workers} {counts} seconds={elapsed:.0f}"
    )
    return 0 if kinds["held"] == len(seeds) else 1


if __name__ == "__main__":
    sys.exit(main())
