"""Section 26: what a member accepts from a spectator, what it refuses, and what it feeds.

A spectator subscribes with WATCH; a member feeds it the stable log (signed events, in
the order they became final) and nothing else; anything else a spectator sends is refused
and counted, and never enters anyone's order. ``Follower`` is the spectator's side.
"""

from __future__ import annotations

from dutchblitz.protocol.limits import MAX_SPECTATORS
from dutchblitz.protocol.replica.effects import Delivered, Send, SpectatorSeen
from dutchblitz.protocol.replica.spectators import LEASE_S, PRESENCE
from dutchblitz.protocol.seat.follower import RENEW_S, SILENT_S, Follower
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Envelope, Event, Hello, Profile, Watch, WatchOp
from dutchblitz.protocol.wire.signing import sign_encoded

from .replicas import EPOCH, NODE_IDS, SIGNERS, TABLE, Net

WATCHER = SIGNERS[8]
AT = "tcp://192.0.2.9:5555"


def playing_net() -> Net:
    net = Net(3)
    net.open_table()
    net.lobby(names=True)
    net.deal()
    assert net.replica(0).stable.phase == Phase.PLAYING
    return net


def follower(name: str = "sam", node: bytes = WATCHER.node_id) -> Follower:
    return Follower(TABLE, node, name, AT)


def feed_all(net: Net, index: int, watcher: Follower, effects: list) -> list:
    """Hand the FEEDs among ``effects`` to ``watcher``; returns what it delivered."""
    delivered = []
    for effect in effects:
        if isinstance(effect, Send) and effect.to == watcher.node:
            delivered += watcher.receive(net[index].node_id, effect.data, net.now)
    return delivered


def subscribe(net: Net, index: int, watcher: Follower) -> list:
    (send,) = watcher.subscribe([net[index].node_id], net.now)
    return net.replica(index).receive(send.data, net.now, via=watcher.node)


def test_a_spectator_subscribes_and_is_fed_the_whole_stable_log() -> None:
    """P-217, P-220: the feed is the stable log from the index asked, signed events."""
    net = playing_net()
    watcher = follower()
    effects = subscribe(net, 0, watcher)
    assert SpectatorSeen(watcher.node, AT) in effects
    delivered = feed_all(net, 0, watcher, effects)
    assert all(isinstance(d, Delivered) for d in delivered)
    assert len(watcher.log) == len(net.replica(0).log)
    assert watcher.game.public_form() == net.replica(1).stable.public_form()
    assert watcher.digest() == net.replica(1).digest()
    assert net.replica(0).spectators.names() == ("sam",)
    assert watcher.watchers(net.now) == ("sam",)


def test_a_spectator_follows_live_and_never_holds_up_stability() -> None:
    """P-218, P-219: final events are fed as they become final; nobody waits for a spectator."""
    net = playing_net()
    watcher = follower()
    feed_all(net, 0, watcher, subscribe(net, 0, watcher))
    before = len(net.replica(0).log)
    net.submit(1, Profile("renamed", "pump"))  # refused in play, but an event all the same
    sent: list = []
    for _ in range(40):
        net.tick_all()
        sent += [e for e in net[0].effects if isinstance(e, Send) and e.to == watcher.node]
        net[0].effects.clear()
        net.settle()
    assert len(net.replica(0).log) > before
    for send in sent:
        watcher.receive(net[0].node_id, send.data, net.now)
    assert len(watcher.log) == len(net.replica(0).log)
    assert watcher.node not in {m.node for m in net.replica(0).stable.members.values()}


def test_every_other_message_from_a_spectator_is_refused_and_counted() -> None:
    """P-212: a spectator's events and HELLOs are refused; nothing enters the order."""
    net = playing_net()
    watcher = follower()
    subscribe(net, 0, watcher)
    replica = net.replica(0)
    event = Envelope(TABLE, watcher.node, 5, 1, Event(Profile("sam", "pump")))
    hello = Hello("sam", "pump", AT, (), EPOCH, 9)
    signed = sign_encoded(WATCHER, encode(event))
    for message in (signed, encode(Envelope(TABLE, watcher.node, 5, 0, hello))):
        replica.receive(message, net.now, via=watcher.node)
    assert replica.counters.dropped["from_spectator"] == 2
    assert watcher.node not in replica.streams
    assert not any(send for send in replica.pending if send[1] == watcher.node)


def test_a_member_is_not_a_spectator_and_a_member_is_not_fed() -> None:
    """P-213: a member's SUBSCRIBE is refused; a FEED sent to a member is refused."""
    net = playing_net()
    member = follower("p1", net[1].node_id)
    effects = subscribe(net, 0, member)
    assert not any(isinstance(e, Send) for e in effects)
    assert net.replica(0).counters.dropped["member_watching"] == 1
    feed = Watch(WatchOp.FEED, EPOCH, 0, "p1", AT)
    net.replica(0).receive(encode(Envelope(TABLE, net[2].node_id, 1, 0, feed)), net.now)
    assert net.replica(0).counters.dropped["feed_to_member"] == 1


def test_a_lease_not_renewed_ends_and_an_end_ends_at_once() -> None:
    """P-214: a lease lasts 6 s after the latest SUBSCRIBE; an END ends it at once."""
    net = playing_net()
    watcher = follower()
    subscribe(net, 0, watcher)
    replica = net.replica(0)
    assert replica.spectators.is_watching(watcher.node)
    replica.tick(net.now + LEASE_S + 0.1)
    assert not replica.spectators.is_watching(watcher.node)
    subscribe(net, 0, follower())
    assert replica.spectators.is_watching(watcher.node)
    (end,) = watcher.end()
    replica.receive(end.data, net.now, via=watcher.node)
    assert not replica.spectators.is_watching(watcher.node)


def test_a_table_feeds_at_least_eight_spectators_and_counts_the_rest_over_its_room() -> None:
    """P-215: room for MAX_SPECTATORS (at least 8); one more is refused and counted."""
    assert MAX_SPECTATORS >= 8
    net = playing_net()
    replica = net.replica(0)
    for n in range(MAX_SPECTATORS + 1):
        node = bytes([0xEE, n]) + bytes(14)
        subscribe(net, 0, follower(f"w{n}", node))
    assert len(replica.spectators.watching) == MAX_SPECTATORS
    assert replica.counters.dropped["too_many_spectators"] == 1


def test_a_spectator_renews_no_faster_than_it_should_and_asks_from_where_it_is() -> None:
    net = playing_net()
    watcher = follower()
    feed_all(net, 0, watcher, subscribe(net, 0, watcher))
    assert watcher.subscribe([net[0].node_id], net.now + RENEW_S / 2) == []
    (again,) = watcher.subscribe([net[0].node_id], net.now + RENEW_S)
    watch = decode(again.data).payload
    assert isinstance(watch, Watch) and watch.index == len(watcher.log)


def test_two_members_feeding_one_index_differently_is_refused_and_counted() -> None:
    """P-220: an index is taken once; another event fed at it is not taken."""
    net = playing_net()
    watcher = follower()
    feed_all(net, 0, watcher, subscribe(net, 0, watcher))
    taken = len(watcher.log)
    raws = net.replica(0).order.stable_raws
    second = raws[(net.replica(0).log[1].sender, net.replica(0).log[1].seq)]
    feed = Watch(WatchOp.FEED, EPOCH, 0, "p1", AT, (), (second,))
    watcher.receive(net[1].node_id, encode(Envelope(TABLE, net[1].node_id, 1, 0, feed)), net.now)
    assert len(watcher.log) == taken and watcher.dropped["fed_differently"] == 1


def test_a_fed_event_with_a_bad_signature_is_not_applied() -> None:
    """P-220: every fed event is checked against its origin's key."""
    net = playing_net()
    watcher = follower()
    first = net.replica(0).order.stable_raws[(net[0].node_id, 1)]
    forged = first[:-1] + bytes([first[-1] ^ 1])
    feed = Watch(WatchOp.FEED, EPOCH, 0, "p0", AT, (), (forged,))
    data = encode(Envelope(TABLE, net[0].node_id, 1, 0, feed))
    watcher.receive(net[0].node_id, data, net.now)
    assert watcher.log == [] and watcher.dropped["bad_signature"] == 1


def test_a_spectator_moves_with_a_lobby_merge_and_never_back() -> None:
    """P-221: in the lobby a smaller epoch is taken up; a game on, or a log left, is not."""
    watcher = follower()
    small, large = bytes(16), b"\xff" * 16

    def feed(epoch: bytes) -> bytes:
        watch = Watch(WatchOp.FEED, epoch, 0, "p0", AT)
        return encode(Envelope(TABLE, NODE_IDS[0], 1, 0, watch))

    watcher.receive(NODE_IDS[0], feed(large), 0.0)
    assert watcher.epoch == large
    watcher.receive(NODE_IDS[0], feed(small), 0.0)
    assert watcher.epoch == small
    watcher.receive(NODE_IDS[0], feed(large), 0.0)
    assert watcher.epoch == small and watcher.dropped["other_epoch"] == 1


def test_one_member_feeds_the_others_only_count_and_a_silent_feeder_is_replaced() -> None:
    """P-222: a SUBSCRIBE for no events is counted and answered with an empty FEED."""
    net = playing_net()
    watcher = follower()
    feed_all(net, 0, watcher, subscribe(net, 0, watcher))
    members = sorted(n.node_id for n in net.nodes)
    asked = {s.to: decode(s.data).payload for s in watcher.subscribe(members, net.now + RENEW_S)}
    feeder = watcher.feeder
    assert feeder in members
    for node, watch in asked.items():
        assert isinstance(watch, Watch)
        assert (watch.index == PRESENCE) == (node != feeder)
    quiet = next(n for n in members if n != feeder)
    index = [n.node_id for n in net.nodes].index(quiet)
    watch = asked[quiet]
    data = encode(Envelope(TABLE, watcher.node, 0, 0, watch))
    answers = net.replica(index).receive(data, net.now, via=watcher.node)
    fed = [decode(a.data).payload for a in answers if isinstance(a, Send)]
    assert fed and all(isinstance(f, Watch) and not f.events for f in fed)
    assert net.replica(index).spectators.names() == ("sam",)
    # The feeder falls silent: the next renewal asks the next member for events.
    later = watcher.subscribe(members, net.now + RENEW_S + SILENT_S + 1)
    assert watcher.feeder != feeder
    wanted = [s.to for s in later if decode(s.data).payload.index != PRESENCE]
    assert wanted == [watcher.feeder]


def watch_through(net: Net, watcher: Follower, now: float) -> None:
    """Renew ``watcher`` at every member, as a watching node does, and hand it the answers."""
    for send in watcher.subscribe([n.node_id for n in net.nodes], now):
        assert isinstance(send, Send) and send.to is not None
        index = net.index_of(send.to)
        answers = net.replica(index).receive(send.data, now, via=watcher.node)
        feed_all(net, index, watcher, answers)


def test_a_spectator_that_ended_renews_nowhere_and_the_other_stays_named() -> None:
    """P-236: after its END a spectator sends no SUBSCRIBE, so a member that counts it
    only (fed by another member) names the one still watching, and not it, at once.

    A node that leaves sends END and closes a moment later; a renewal that fell due in
    that moment put the spectator back on a member's list for a whole lease (the player's
    screen named someone who had left)."""
    net = playing_net()
    sam, tom = follower("sam"), follower("tom", bytes([0xEE, 1]) + bytes(14))
    for at in (net.now, net.now + RENEW_S):  # the second renewal knows the members
        watch_through(net, sam, at)
        watch_through(net, tom, at)
    for index in range(3):
        assert net.replica(index).spectators.names() == ("sam", "tom")
    now = net.now + RENEW_S + 0.5
    for end in sam.end():
        assert isinstance(end, Send) and end.to is not None
        net.replica(net.index_of(end.to)).receive(end.data, now, via=sam.node)
    for at in (now + RENEW_S, now + 2 * RENEW_S):
        watch_through(net, sam, at)  # its node still ticks until it has closed
        watch_through(net, tom, at)
        for index in range(3):
            net.replica(index).tick(at)
            assert net.replica(index).spectators.names() == ("tom",)


def test_a_spectator_hears_its_table_live_while_members_feed_it() -> None:
    """P-205 with section 26: members send a spectator only FEEDs; one within a lease says
    its log's table is alive (a node watching the table it asked to join keeps waiting)."""
    net = playing_net()
    watcher = follower()
    assert watcher.live_epoch(net.now) is None
    feed_all(net, 0, watcher, subscribe(net, 0, watcher))
    assert watcher.live_epoch(net.now + LEASE_S) == EPOCH
    assert watcher.live_epoch(net.now + LEASE_S + 0.1) is None


def test_a_member_lists_the_spectators_it_feeds_in_its_hello() -> None:
    """P-260: a member's HELLO lists the spectators it feeds, with their keys, after its
    peers: the other members let them in to watch, so that a spectator follows through one
    of them should this member leave (the node says this HELLO to its peers at once)."""
    net = playing_net()
    watcher = follower()
    net.replica(0).know_key(watcher.node, WATCHER.public_key)
    subscribe(net, 0, watcher)
    hello = decode(net.replica(0).hello(None)[0].data).payload
    assert isinstance(hello, Hello)
    listed = {peer.node: (peer.endpoint, peer.key) for peer in hello.peers}
    assert listed[watcher.node] == (AT, WATCHER.public_key)
    net.replica(0).receive(decode_end(watcher), net.now, via=watcher.node)
    hello = decode(net.replica(0).hello(None)[0].data).payload
    assert isinstance(hello, Hello)
    assert watcher.node not in {peer.node for peer in hello.peers}


def decode_end(watcher: Follower) -> bytes:
    (end,) = watcher.end()
    assert isinstance(end, Send)
    return end.data
