"""The game layer of spec/protocol.md section 24 (P-161 to P-181), as tables of cases.

Each case applies events to a fresh ``Game`` and checks the outcome codes, in the order
the section lists them, and what an accepted event changed.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from dutchblitz.protocol.games.blitz.cards import post_count
from dutchblitz.protocol.games.blitz.game import deck_order
from dutchblitz.protocol.games.blitz.state import visible_codes
from dutchblitz.protocol.replica.digest import canonical_bytes
from dutchblitz.protocol.table.fairdeal import secret_hash, share_hash
from dutchblitz.protocol.table.state import Flag, FlagKind, Game, Phase
from dutchblitz.protocol.wire.messages import (
    Admit,
    Backdated,
    Body,
    Bye,
    Commit,
    Cut,
    Deal,
    Play,
    Profile,
    Ready,
    Reveal,
    Share,
    Start,
    Suspect,
    Unsuspect,
)

A, B, C, D = (bytes([n]) * 16 for n in range(1, 5))
SECRETS = {node: (bytes([n]) * 32, bytes([n + 100]) * 32) for n, node in enumerate((A, B, C))}


def lobby(*nodes: bytes) -> Game:
    """A table founded by the first node, the others admitted by it."""
    game = Game()
    for node in nodes:
        assert game.apply(nodes[0], Admit(node, 1)).accepted
    return game


def started(*nodes: bytes) -> Game:
    game = lobby(*nodes)
    for node in nodes:
        game.apply(node, Ready(True))
    assert game.apply(nodes[0], Start(75, True)).accepted
    return game


def commit(game: Game, node: bytes, round_number: int = 1) -> str | None:
    secret, share = SECRETS[node]
    body = Commit(
        round_number, secret_hash(node, round_number, secret), share_hash(node, round_number, share)
    )
    return game.apply(node, body).refusal


def share(game: Game, node: bytes, round_number: int = 1) -> str | None:
    return game.apply(node, Share(round_number, SECRETS[node][1])).refusal


def deal(game: Game, node: bytes, round_number: int = 1) -> str | None:
    assert game.joint is not None
    seat = game.seat_of(node)
    assert seat is not None
    order = deck_order(seat, SECRETS[node][0], game.joint)
    body = Deal(round_number, visible_codes(order, len(game.players)), b"")
    return game.apply(node, body).refusal


def playing(*nodes: bytes) -> Game:
    game = started(*nodes)
    for step in (commit, share, deal):
        for node in nodes:
            assert step(game, node) is None
    assert game.phase == Phase.PLAYING
    return game


def run(game: Game, events: Sequence[tuple[bytes, Body]]) -> list[str | None]:
    return [game.apply(sender, body).refusal for sender, body in events]


# -- 19.2 applying an event --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "refusals"),
    [
        pytest.param([(C, Profile("Cy", "pump"))], ["not_member"], id="P-161 a stranger"),
        pytest.param([(B, Bye()), (B, Ready(True))], [None, "not_present"], id="P-161 gone"),
        pytest.param([(A, Commit(1, bytes(32), bytes(32)))], ["not_in_lobby"], id="P-161 lobby"),
        pytest.param([(A, Play(0, 3, 0, 0, -1, -1, 0))], ["not_in_lobby"], id="P-161 a play"),
        pytest.param([(C, Commit(1, bytes(32), bytes(32)))], ["not_member"], id="P-161 order"),
    ],
)
def test_phase_gate_in_the_lobby(events: list[tuple[bytes, Body]], refusals: list[object]) -> None:
    assert run(lobby(A, B), events) == refusals


def test_phase_gate_while_dealing_and_playing() -> None:
    """P-161: not_in_dealing, not_in_playing; P-169: READY while dealing is "seen" (P-147),
    refused in a game's first round; a START while dealing with nobody away is refused."""
    game = started(A, B)
    assert run(game, [(A, Profile("Ann", "pump")), (A, Ready(False))]) == [
        "not_in_dealing",
        "nothing_to_see",
    ]
    assert run(game, [(A, Start(75, True))]) == ["nobody_away"]
    game = playing(A, B)
    assert run(game, [(A, Start(75, True)), (B, Ready(True))]) == ["not_in_playing"] * 2


def test_a_refused_event_changes_only_the_counters() -> None:
    """P-162: the public state after a refusal differs only in `refused`."""
    game = lobby(A, B)
    before = game.public_form()
    assert game.apply(B, Profile("Bob", "pump")).refusal == "back_taken"
    after = game.public_form()
    assert after[12] == before[12] + 1
    assert after[:12] + after[13:] == before[:12] + before[13:]


# -- 19.3 membership -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "refusals"),
    [
        pytest.param([(A, Admit(B, 1))], ["not_member"], id="P-163 first admits another"),
        pytest.param([(A, Admit(A, 1)), (A, Admit(A, 1))], [None, "already_member"], id="P-163"),
        pytest.param([(A, Admit(A, 1)), (B, Admit(C, 1))], [None, "not_member"], id="P-163 guest"),
        pytest.param(
            [(A, Admit(A, 1)), (A, Admit(B, 1)), (B, Bye()), (B, Admit(B, 9))],
            [None, None, None, "not_member"],
            id="P-163 a node that left cannot admit itself",
        ),
    ],
)
def test_admit(events: list[tuple[bytes, Body]], refusals: list[object]) -> None:
    assert run(Game(), events) == refusals


def test_admit_outside_the_lobby_and_a_return() -> None:
    """P-163: a new node is refused in_play; a member that left comes back to its seat."""
    game = playing(A, B, C)
    assert game.apply(A, Admit(D, 1)).refusal == "in_play"
    assert game.apply(A, Suspect(C, 0)).accepted
    assert game.table is not None and not game.table.areas[2].active
    assert game.apply(A, Admit(C, 7)).accepted
    member = game.members[C]
    assert (member.seat, member.present, member.since) == (2, True, 7)
    assert game.table.areas[2].active


def test_a_new_member_gets_seat_name_and_back() -> None:
    """P-164: the next seat, `player N`, and the first back no present member holds."""
    game = lobby(A, B)
    assert game.apply(A, Profile("Ann", "plow")).accepted
    assert game.apply(A, Admit(C, 3)).accepted
    member = game.members[C]
    assert (member.seat, member.name, member.back, member.ready, member.since) == (
        2,
        "player 3",
        "pump",
        False,
        3,
    )
    crowd = [bytes([n]) * 16 for n in range(10, 20)]
    game = lobby(A, *crowd[:8])
    assert [m.back for m in game.seated()][-1] == ""


def test_bye_suspect_and_cut() -> None:
    """P-165 BYE is accepted; P-166 SUSPECT not_present and stale; P-167 CUT and P-229
    UNSUSPECT change nothing."""
    game = lobby(A, B, C)
    before = game.public_form()
    assert game.apply(A, Cut(B, 4)).accepted
    assert canonical_bytes(game.public_form()) == canonical_bytes(before)
    assert game.apply(A, Unsuspect(B)).accepted, "P-229: an UNSUSPECT is always accepted"
    assert game.apply(A, Unsuspect(D)).accepted
    assert canonical_bytes(game.public_form()) == canonical_bytes(before)
    assert game.apply(B, Bye()).accepted
    assert game.apply(A, Suspect(B, 0)).refusal == "not_present"
    assert game.apply(A, Suspect(D, 0)).refusal == "not_present"
    assert game.apply(A, Admit(B, 10)).accepted
    assert game.apply(A, Suspect(B, 8)).refusal == "stale"
    assert game.apply(A, Suspect(B, 9)).accepted
    assert not game.members[B].present


# -- 19.4 the lobby and the start --------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "refusal", "name"),
    [
        pytest.param(Profile(" \u3000 ", "pump"), "bad_name", None, id="P-168 white space only"),
        pytest.param(Profile("x" * 31 + "\u00e9", "pump"), "bad_name", None, id="P-168 33 bytes"),
        pytest.param(Profile("Bob", "pump"), "back_taken", None, id="P-168 back taken"),
        pytest.param(Profile("\x1c Bob\u2028", "tractor"), None, "Bob", id="P-168 stripped"),
    ],
)
def test_profile(profile: Profile, refusal: str | None, name: str | None) -> None:
    game = lobby(A, B)
    assert game.apply(B, profile).refusal == refusal
    if name is not None:
        assert (game.members[B].name, game.members[B].back) == (name, profile.back)


def test_start() -> None:
    """P-170: not_all_ready, then bad_backs, and an accepted START deals round 1."""
    game = lobby(A)
    assert game.apply(A, Start(75, True)).refusal == "not_all_ready"
    game.apply(A, Ready(True))
    assert game.apply(A, Start(75, True)).refusal == "bad_backs"  # one player
    game = lobby(A, B)
    run(game, [(A, Ready(True)), (B, Ready(True)), (B, Profile("Bob", "tractor"))])
    assert game.apply(B, Start(75, True)).refusal == "bad_backs"
    run(game, [(B, Profile("Bob", "wagon")), (B, Ready(False))])
    assert game.apply(A, Start(75, True)).refusal == "not_all_ready"
    game.apply(B, Ready(True))
    assert game.apply(B, Start(40, False)).accepted  # any present member may start
    assert (game.phase, game.round, game.players) == (Phase.DEALING, 1, (0, 1))
    assert (game.target, game.post_stacking, game.totals) == (40, False, {0: 0, 1: 0})


# -- 19.5 rounds --------------------------------------------------------------------------


def test_commit() -> None:
    """P-171 codes in order; P-172 commitments close once every present player committed."""
    game = started(A, B)
    assert commit(game, A, 2) == "wrong_round"
    assert commit(game, A) is None
    assert commit(game, A) == "already_committed"
    assert not game.commits_closed
    assert commit(game, B) is None
    assert game.commits_closed
    game = started(A, B, C)
    commit(game, A)
    commit(game, B)
    assert game.apply(C, Bye()).accepted  # P-172: a leave closes them too
    assert game.commits_closed
    assert commit(game, C) == "not_present"


def test_a_late_member_is_not_a_player() -> None:
    """P-171 not_a_player, P-175 not_a_player: a member admitted after the start."""
    game = started(A, B)
    game.phase = Phase.LOBBY  # admit a spectator as the lobby would have
    game.apply(A, Admit(C, 1))
    game.phase = Phase.DEALING
    assert commit(game, C) == "not_a_player"
    assert game.apply(C, Deal(1, (80, 81, 82, 83, 84, 85), b"")).refusal == "not_a_player"


def test_share() -> None:
    """P-173 codes in order; P-174 the joint randomness is fixed when every share is in."""
    game = started(A, B, C)
    assert share(game, A, 2) == "wrong_round"
    assert share(game, A) == "not_committed"
    commit(game, A)
    assert share(game, A) == "commits_open"
    commit(game, B)
    commit(game, C)
    assert game.apply(B, Share(1, bytes(32))).refusal == "bad_share"
    assert [f.kind for f in game.flags] == [FlagKind.MISMATCH]
    assert share(game, A) is None
    assert share(game, A) == "already_shared"
    assert game.joint is None
    assert game.apply(B, Bye()).accepted
    assert game.joint is None  # C has still to share
    assert share(game, C) is None
    assert game.joint is not None and game.dealers == (0, 2)


def test_deal() -> None:
    """P-175 codes in order; P-176 play begins once every present dealer has dealt."""
    game = started(A, B)
    assert game.apply(A, Deal(2, (0, 1, 2, 3, 4, 5), b"")).refusal == "wrong_round"
    assert game.apply(A, Deal(1, (0, 1, 2, 3, 4, 5), b"")).refusal == "not_shared"
    commit(game, A)
    commit(game, B)
    share(game, A)
    share(game, B)
    posts = post_count(2)
    assert game.apply(A, Deal(1, tuple(range(posts)), b"")).refusal == "bad_deal"
    assert game.apply(A, Deal(1, (40, 1, 2, 3, 4, 5), b"")).refusal == "bad_deal"
    assert game.apply(A, Deal(1, (1, 1, 2, 3, 4, 5), b"")).refusal == "bad_deal"
    assert deal(game, A) is None
    assert deal(game, A) == "already_dealt"
    assert game.phase == Phase.DEALING
    assert deal(game, B) is None
    assert game.phase == Phase.PLAYING and game.table is not None
    assert game.table.seats == (0, 1)


def test_not_a_dealer() -> None:
    """P-175: a player that did not share deals nothing; P-176 the table seats the dealers."""
    game = started(A, B, C)
    for node in (A, B, C):
        commit(game, node)
    share(game, A)
    share(game, B)
    game.apply(C, Bye())
    game.apply(A, Admit(C, 5))
    assert game.apply(C, Deal(1, (80, 81, 82, 83, 89), b"")).refusal == "not_a_dealer"
    deal(game, A)
    deal(game, B)
    assert game.table is not None and game.table.seats == (0, 1)
    assert len(game.table.areas[0].post) == post_count(3)  # the Post row of three players


# -- 19.6 and 19.7 ----------------------------------------------------------------------------


def test_play() -> None:
    """P-177: wrong_round, then bad_move (another deck's card), then the rules' codes."""
    game = playing(A, B)
    assert game.apply(A, Play(2, 4, 0, 0, -1, -1, -1)).refusal == "wrong_round"
    assert game.apply(A, Play(1, 1, 0, 0, 45, -1, -1)).refusal == "bad_move"
    assert game.apply(A, Play(1, 4, 0, 0, -1, -1, -1)).refusal == "hand_not_empty"


def test_reveal_and_backdated() -> None:
    """P-179 REVEAL codes; P-180 BACKDATED codes; P-181 a backdated flag per event."""
    game = playing(A, B)
    assert game.apply(A, Reveal(1, bytes(32), tuple(range(40)))).refusal == "nothing_to_reveal"
    notice = Backdated(B, 4, 10, 12)
    assert game.apply(A, Backdated(D, 4, 10, 12)).refusal == "bad_notice"
    assert game.apply(B, notice).refusal == "bad_notice"
    assert game.apply(A, Backdated(B, 4, 13, 12)).refusal == "bad_notice"
    assert game.apply(A, notice).accepted
    assert game.apply(A, notice).refusal == "already_flagged"
    flag = game.flags[-1]
    assert flag == Flag(
        1, 1, B, FlagKind.BACKDATED, "event 4 stamped 10 after announcing 12 (seen by player 1)"
    )


def test_the_end_of_a_round_and_the_game() -> None:
    """P-178, P-179: the digest vectors' game ends its rounds, then is audited."""
    from tests.protocol.test_digest_vectors import _games

    ends: list[int] = []
    results = 0
    for game in _games():
        if len(game.results) > results:
            results = len(game.results)
            ends.append(game.results[-1].round)
    assert ends == [1, 2]
    last = game
    assert last.phase == Phase.OVER and last.winner is not None
    assert last.audit_complete() and last.revealed == {(1, 0), (1, 1), (2, 0), (2, 1)}
    assert all(not m.ready for m in last.members.values())


def test_withheld_once_and_its_penalty() -> None:
    """P-171 and P-181: a COMMIT with a round unrevealed is withheld, once, and costs -20."""
    from tests.protocol.test_digest_vectors import _games

    for game in _games():
        if game.round == 2 and game.phase == Phase.DEALING:
            break
    else:
        raise AssertionError("no second round")
    game = game.copy()
    game.revealed = set()
    seat_b = 1
    node_b = game.node_of(seat_b)
    assert node_b is not None
    game.commits = {}
    body = Commit(2, bytes(32), bytes(32))
    before = game.totals[seat_b]
    score = game.results[0].scores[seat_b]
    assert game.apply(node_b, body).accepted
    withheld = [f for f in game.flags if f.kind == FlagKind.WITHHELD]
    assert [(f.round, f.seat, f.detail) for f in withheld] == [
        (1, seat_b, "committed to a new round without revealing")
    ]
    assert game.totals[seat_b] == before - score - 20
    assert game.results[0].scores[seat_b] == -20
