"""The table socket end to end over the real Redis channel layer (docs/protocol.md)."""
from __future__ import annotations

import datetime
import random

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables import services
from tables.models import Hand, TableState
from tests.tables.ws import Client, play_hand, seated

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]


@sync_to_async
def start(table) -> Hand | None:
    return services.hand_start(table_id=table.pk, force=True)


@sync_to_async
def table_state(table) -> tuple[int, dict | None]:
    ts = TableState.objects.select_related("hand").get(pk=table.pk)
    return ts.version, (ts.hand.state if ts.hand else None)


async def test_spectator_gets_a_snapshot_with_the_table(play_table):
    watcher = await Client.open(play_table.pk)
    await watcher.until(lambda: bool(watcher.frames), what="snapshot")
    snap = watcher.frames[0]
    assert snap["type"] == "snapshot" and snap["version"] == 0
    assert snap["table"]["big_blind"] == 2 and snap["table"]["small_blind"] == 1
    assert snap["seats"] == [] and snap["hand"] is None and snap["you"]["seat"] is None
    await watcher.close()


async def test_unknown_table_is_refused(db):
    from channels.testing import WebsocketCommunicator

    from tests.tables.ws import application

    comm = WebsocketCommunicator(application, "/ws/tables/999999/")
    connected, code = await comm.connect()
    assert not connected and code == 4404


async def test_two_players_sit_and_play_a_hand_to_showdown(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    watcher = await Client.open(play_table.pk)
    players = await seated(play_table, alice, bob)
    await start(play_table)
    await play_hand(players, [watcher], passive=True)
    for c in [*players, watcher]:
        kinds = [e["type"] for e in c.events()]
        assert kinds.count("hand_start") == 1 and "board" in kinds and kinds[-2:] == [
            "hand_end", "stacks"]
        end = c.events("hand_end")[-1]
        assert "seed" not in end and len(end["result"]["board"]) == 5  # checked to showdown
    # each player saw his own hole cards, nobody else's before the showdown
    for c in players:
        mine = [e for e in c.events("hole_cards") if "cards" in e]
        assert [e["seat"] for e in mine] == [c.seat]
    assert all("cards" not in e for e in watcher.events("hole_cards"))
    for c in [*players, watcher]:
        await c.close()


async def test_each_act_is_timed_from_its_arrival_to_its_step(play_table, make_player):
    """`room_act_seconds` (the server's share of action -> every socket) and its wait for a
    database thread (`room_act_wait_seconds`) count each `act` message once."""
    from prometheus_client import REGISTRY

    def timed() -> tuple[float, float]:
        return tuple(REGISTRY.get_sample_value(f"room_act{part}_seconds_count") or 0.0
                     for part in ("", "_wait"))

    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(play_table, alice, bob)
    await start(play_table)
    before = timed()
    await play_hand(players, [], passive=True)
    sent = sum(1 for c in players for f in c.sent if f.get("type") == "act")

    assert sent > 0 and [n - b for n, b in zip(timed(), before, strict=True)] == [sent, sent]
    for c in players:
        await c.close()


async def test_one_step_reaches_each_socket_as_one_frame(play_table, make_player):
    """An action and the turn it passes on are recorded together and arrive as one `events`
    frame, with the next player's private copy of the turn (his legal actions) inside his."""
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    watcher = await Client.open(play_table.pk)
    players = await seated(play_table, alice, bob)
    await start(play_table)
    for c in [*players, watcher]:
        await c.drain()
    actor = next(c for c in players if c.my_turn())
    other = next(c for c in players if c is not actor)
    marks = {c.name: len(c.wire) for c in [*players, watcher]}
    await actor.send(type="act", action="call", version=actor.version)
    for c in [*players, watcher]:
        await c.until(lambda c=c: len(c.wire) > marks[c.name], what="the step")
        [frame] = c.wire[marks[c.name]:]
        assert frame["type"] == "events"
        kinds = [one["event"]["type"] for one in frame["events"]]
        versions = [one["version"] for one in frame["events"]]
        assert kinds == ["action", "turn"] and versions[1] == versions[0] + 1
        assert ("legal" in frame["events"][1]["event"]) == (c is other)
    for c in [*players, watcher]:
        await c.close()


async def test_snapshot_shows_own_cards_and_legal_actions_only_to_the_actor(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(play_table, alice, bob)
    hand = await start(play_table)
    for c in players:
        await c.drain()
    watcher = await Client.open(play_table.pk)
    fresh = [await Client.open(play_table.pk, u) for u in (alice, bob)]
    for c in [watcher, *fresh]:
        await c.until(lambda c=c: bool(c.frames), what="snapshot")
    w = watcher.frames[0]
    assert w["hand"]["id"] == hand.pk and w["hand"]["commitment"] == hand.commitment
    assert all(s["cards"] is None for s in w["seats"]) and w["you"]["legal"] is None
    for c in fresh:
        snap = c.frames[0]
        cards = {s["seat"]: s["cards"] for s in snap["seats"]}
        me = snap["you"]["seat"]
        assert len(cards[me]) == 2 and all(v is None for k, v in cards.items() if k != me)
        to_act = snap["hand"]["to_act"]
        assert (snap["you"]["legal"] is not None) == (to_act == me)
        assert snap["hand"]["seconds_left"] > 0 and snap["hand"]["deadline"]
    for c in [watcher, *fresh, *players]:
        await c.close()


async def test_bad_messages_get_errors_and_change_nothing(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(play_table, alice, bob)
    await start(play_table)
    for c in players:
        await c.drain()
    before = await table_state(play_table)
    actor = next(c for c in players if c.my_turn())
    other = next(c for c in players if c is not actor)
    watcher = await Client.open(play_table.pk)
    await watcher.drain()

    async def error_of(client: Client, raw: str | None = None, **message) -> str:
        count = len(client.frames)
        if raw is not None:
            await client.send_raw(raw)
        else:
            await client.send(**message)
        await client.until(lambda: any(f["type"] == "error" for f in client.frames[count:]),
                           what="an error")
        frame = next(f for f in client.frames[count:] if f["type"] == "error")
        assert frame["message"]
        return frame["code"]

    assert await error_of(actor, raw="{not json") == "bad_json"
    assert await error_of(actor, raw="[1, 2]") == "bad_json"
    assert await error_of(actor, raw='{"type": "act", "pad": "' + "x" * 5000 + '"}') == "too_large"
    assert await error_of(actor, type="dance") == "unknown_type"
    assert await error_of(actor, action="call") == "unknown_type"  # no type at all
    assert await error_of(actor, type="act", action="call") == "bad_request"  # no version
    assert await error_of(actor, type="act", action="call", version="7") == "bad_request"
    assert await error_of(actor, type="act", action="raise", amount=4.5,
                          version=actor.version) == "bad_request"
    assert await error_of(actor, type="act", action="call", version=actor.version - 1) == \
        "stale_version"
    assert await error_of(other, type="act", action="call", version=other.version) == \
        "not_your_turn"
    assert await error_of(actor, type="act", action="raise", amount=3,
                          version=actor.version) == "below_min_raise"
    assert await error_of(actor, type="act", action="raise", amount=10_000,
                          version=actor.version) == "above_stack"
    assert await error_of(actor, type="act", action="check", version=actor.version) == \
        "cannot_check"
    assert await error_of(actor, type="act", action="teleport", version=actor.version) == \
        "unknown_action"
    assert await error_of(actor, type="show") == "not_at_showdown"
    assert await error_of(actor, type="sit", seat=4, amount=200) == "already_seated"
    assert await error_of(watcher, type="act", action="fold", version=watcher.version) == \
        "login_required"
    assert await error_of(watcher, type="sit", seat=3, amount=200) == "login_required"
    assert await table_state(play_table) == before
    ref = await actor.request(type="act", action="check", version=actor.version, ref="c-1")
    assert ref["ref"] == "c-1"
    for c in [*players, watcher]:
        await c.close()


async def test_a_logged_in_spectator_who_acts_is_refused_and_nothing_changes(
        play_table, make_player):
    """Carol is logged in and watches; she is not seated. Her `act` (whatever the version,
    whoever's turn it is) gets a clear error and moves nothing: no event, no new version."""
    alice, bob, carol = [await sync_to_async(make_player)(name)
                         for name in ("alice", "bob", "carol")]
    players = await seated(play_table, alice, bob)
    carol_socket = await Client.open(play_table.pk, carol)
    await start(play_table)
    for c in [*players, carol_socket]:
        await c.drain()
    before = await table_state(play_table)
    heard = [len(c.frames) for c in players]
    legal = next(c.my_turn() for c in players if c.my_turn())
    assert legal["call"]  # what carol sends would be legal for the player to act

    refused = await carol_socket.request(type="act", action="call", version=carol_socket.version,
                                         ref="carol-1")
    assert (refused["code"], refused["ref"]) == ("not_in_hand", "carol-1")
    assert refused["message"] == "You are not in this hand."
    refused = await carol_socket.request(type="act", action="fold", version=carol_socket.version)
    assert refused["code"] == "not_in_hand"

    assert await table_state(play_table) == before
    for c in players:
        await c.drain()
    assert [len(c.frames) for c in players] == heard  # the players heard nothing of it
    assert [f["type"] for f in carol_socket.frames[-2:]] == ["error", "error"]
    for c in [*players, carol_socket]:
        await c.close()


async def test_rate_limit(play_table):
    watcher = await Client.open(play_table.pk)
    await watcher.drain()
    for _ in range(30):
        await watcher.send(type="ping")
    await watcher.until(lambda: len([f for f in watcher.frames if f["type"] in ("pong", "error")])
                        >= 30, what="30 answers")
    answers = [f.get("code", f["type"]) for f in watcher.frames if f["type"] in ("pong", "error")]
    assert answers.count("pong") >= 20 and "rate_limited" in answers
    await watcher.close()


async def test_the_same_act_twice_and_two_players_at_once(play_table, make_player):
    users = [await sync_to_async(make_player)(n) for n in ("alice", "bob", "carol")]
    players = await seated(play_table, *users)
    await start(play_table)
    for c in players:
        await c.drain()
    actor = next(c for c in players if c.my_turn())
    others = [c for c in players if c is not actor]
    version = actor.version
    # the actor sends his call twice, the others try to act on the same version at once
    await actor.send(type="act", action="call", version=version)
    await actor.send(type="act", action="call", version=version)
    for c in others:
        await c.send(type="act", action="call", version=version)
    for c in players:
        await c.until(lambda c=c: c.version is not None and c.version > version, what="events")
    await actor.until(lambda: bool(actor.errors()), what="the duplicate's error")
    assert actor.errors()[0]["code"] in ("stale_version", "not_your_turn")
    actions = [e for e in players[0].events("action")]
    assert len(actions) == 1 and actions[0]["seat"] == actor.seat
    for c in players:
        await c.close()


async def test_someone_sitting_down_does_not_cost_the_actor_his_action(play_table, make_player):
    alice, bob, carol = [await sync_to_async(make_player)(n) for n in ("alice", "bob", "carol")]
    players = await seated(play_table, alice, bob)
    await start(play_table)
    for c in players:
        await c.drain()
    actor = next(c for c in players if c.my_turn())
    decided_on = actor.version  # the actor looks at his cards ...
    newcomer = await Client.open(play_table.pk, carol)  # ... while carol sits down
    await newcomer.drain()
    await newcomer.send(type="sit", seat=3, amount=200)
    await newcomer.until(lambda: newcomer.seat is not None, what="seat_taken")
    await actor.until(lambda: actor.version > decided_on, what="carol's seat_taken")
    assert actor.events()[-1]["type"] == "seat_taken"
    await actor.send(type="act", action="call", version=decided_on)
    await actor.until(lambda: any(e["seat"] == actor.seat for e in actor.events("action"))
                      or bool(actor.errors()), what="his call")
    assert actor.errors() == []
    for c in [*players, newcomer]:
        await c.close()


async def test_reconnect_gets_missed_events_or_a_snapshot(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(play_table, alice, bob)
    await start(play_table)
    for c in players:
        await c.drain()
    alice_c = next(c for c in players if c.user == alice)
    last = alice_c.version
    await alice_c.close()
    bob_c = next(c for c in players if c.user == bob)
    # bob acts while alice is away (whoever is to act: alice's turn is acted by the service)
    await sync_to_async(_act_for_whoever)(play_table.pk)
    await bob_c.until(lambda: bob_c.version > last + 1, what="bob's events")
    back = await Client.open(play_table.pk, alice, query=f"?last_version={last}")
    back.version = last
    await back.until(lambda: back.version >= bob_c.version, what="the missed events")
    assert all(f["type"] == "event" for f in back.frames)
    assert [f["version"] for f in back.frames][:1] == [last + 1]
    far = await Client.open(play_table.pk, alice, query="?last_version=999999")
    await far.until(lambda: bool(far.frames), what="snapshot")
    assert far.frames[0]["type"] == "snapshot"
    # hello on an open socket behaves the same
    count = len(back.frames)
    await back.send(type="hello", last_version=last)
    back.version = last
    await back.until(lambda: len(back.frames) > count and back.version >= bob_c.version,
                     what="replayed events")
    for c in (back, far, bob_c):
        await c.close()


def _act_for_whoever(table_id: int) -> None:
    from tests.tables.helpers import live, to_act_user

    ts, _hand, _state = live(table_id)
    services.act(table_id=table_id, user_id=to_act_user(table_id), action="call",
                 expected_version=ts.version)


async def test_a_lost_broadcast_is_filled_from_the_event_log(play_table, make_player, monkeypatch):
    from tables.services import effects as log

    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(play_table, alice, bob)
    watcher = await Client.open(play_table.pk)
    await watcher.drain()
    real = log.events_broadcast
    dropped = []
    monkeypatch.setattr(log, "events_broadcast",
                        lambda **kw: dropped.append(kw) if not dropped else real(**kw))
    await start(play_table)  # its events are never sent
    await sync_to_async(_act_for_whoever)(play_table.pk)  # these are: the gap is noticed
    current, _ = await table_state(play_table)
    await watcher.until(lambda: watcher.version == current, what="the gap filled")
    kinds = [e["type"] for e in watcher.events()]
    assert "hand_start" in kinds and "action" in kinds
    for c in [*players, watcher]:
        await c.close()


async def test_broadcasts_that_swap_on_the_way_are_put_back_in_order(play_table, make_player,
                                                                     monkeypatch):
    """Two commits' broadcasts can arrive in the wrong order: the later batch waits a moment
    for the earlier one instead of sending the socket to the database."""
    from tables import consumers
    from tables.services import effects as log

    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(play_table, alice, bob)
    watcher = await Client.open(play_table.pk)
    await watcher.drain()
    real, held = log.events_broadcast, []
    monkeypatch.setattr(log, "events_broadcast", lambda **kw: held.append(kw))
    await start(play_table)
    await sync_to_async(_act_for_whoever)(play_table.pk)
    reads = []
    monkeypatch.setattr(consumers, "events_since", lambda **kw: reads.append(kw))
    before = watcher.version
    await sync_to_async(real)(**held[1])  # the action's batch first ...
    await sync_to_async(real)(**held[0])  # ... then the hand start it follows
    current, _ = await table_state(play_table)
    await watcher.until(lambda: watcher.version == current, what="both batches")
    versions = [m["version"] for m in watcher.frames if m.get("type") == "event"
                and m["version"] > before]
    assert versions == list(range(before + 1, current + 1))  # in order, none twice
    assert reads == []  # no trip to the database
    for c in [*players, watcher]:
        await c.close()


async def heads_up_first_turn(table, make_player) -> tuple[list[Client], Client]:
    """Alice and Bob seated and dealt in; (both clients, the one to act)."""
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    players = await seated(table, alice, bob)
    await start(table)
    for c in players:
        await c.drain()
    return players, next(c for c in players if c.my_turn())


async def test_reconnect_during_own_turn_adds_the_bonus_once(play_table, make_player):
    players, actor = await heads_up_first_turn(play_table, make_player)
    await actor.close()  # his only socket drops during his turn ...
    again = await Client.open(play_table.pk, actor.user)  # ... and he is back in time
    await again.until(lambda: bool(again.events("deadline_extended")), what="the bonus")
    third = await Client.open(play_table.pk, actor.user)  # a second tab: nothing
    await third.drain(0.3)
    assert not third.events("deadline_extended")
    await again.close()
    await third.close()
    fourth = await Client.open(play_table.pk, actor.user)  # dropped again: once per turn
    await fourth.drain(0.3)
    assert not fourth.events("deadline_extended")
    for c in (fourth, *[p for p in players if p is not actor]):
        await c.close()


async def test_a_second_tab_or_a_late_reconnect_gets_no_bonus(play_table, make_player):
    players, actor = await heads_up_first_turn(play_table, make_player)
    second_tab = await Client.open(play_table.pk, actor.user)  # while his first is open
    await second_tab.drain(0.3)
    assert not second_tab.events("deadline_extended")
    await actor.close()
    await second_tab.close()
    await sync_to_async(Hand.objects.filter(finished_at=None).update)(  # the turn ran out
        deadline=timezone.now() - datetime.timedelta(seconds=1))
    late = await Client.open(play_table.pk, actor.user)
    await late.drain(0.3)
    assert not late.events("deadline_extended")
    assert not (await sync_to_async(Hand.objects.get)(finished_at=None)).bonus_used
    for c in (late, *[p for p in players if p is not actor]):
        await c.close()


async def test_random_hands_over_the_socket(play_table, make_player):
    users = [await sync_to_async(make_player)(n) for n in ("alice", "bob", "carol")]
    players = await seated(play_table, *users)
    watcher = await Client.open(play_table.pk)
    rng = random.Random(3)
    for _ in range(3):
        if await start(play_table) is None:
            break
        await play_hand(players, [watcher], rng=rng, passive=False)
    assert len(watcher.events("hand_end")) >= 1
    for c in [*players, watcher]:
        await c.close()


async def test_three_players_all_in_make_side_pots_over_the_socket(make_table, make_player):
    table = await sync_to_async(make_table)(name="Deep", lower_stake=2, max_buy_in_bb=150,
                                            hand_pause_seconds=0)
    users = [await sync_to_async(make_player)(n) for n in ("a", "b", "c")]
    players = []
    for n, (user, amount) in enumerate(zip(users, (100, 200, 300), strict=True), start=1):
        c = await Client.open(table.pk, user)
        await c.drain()
        await c.send(type="sit", seat=n, amount=amount)
        await c.until(lambda c=c: c.seat is not None, what="seated")
        players.append(c)
    await start(table)
    while not players[0].events("hand_end"):
        for c in players:
            await c.drain(0.02)
            legal = c.my_turn()
            if legal:  # everyone shoves, or calls when he cannot raise any more
                move = {"action": "raise", "amount": legal["max_to"]} if legal["raise"] \
                    else {"action": "call"}
                await c.send(type="act", version=c.version, **move)
    end = players[0].events("hand_end")[0]
    pots = end["result"]["pots"]
    assert [p["amount"] for p in pots] == [300, 200]
    assert [sorted(p["eligible"]) for p in pots] == [[1, 2, 3], [2, 3]]
    # seat 3 could only call 200: nobody was left to raise against, his last 100 never played
    assert [e["action"] for e in players[0].events("action")] == ["raise", "raise", "call"]
    shown = {e["seat"] for e in players[0].events("shown")}
    assert shown == {1, 2, 3}  # all in with no betting left: every hand is shown
    for c in players:
        await c.close()


async def test_through_the_real_asgi_stack_cookies_identify_the_player(
        play_table, make_player, settings):
    from channels.testing import WebsocketCommunicator
    from django.test import Client as HttpClient

    from pokerroom.asgi import application

    alice = await sync_to_async(make_player)("alice")
    http = HttpClient()
    await sync_to_async(http.force_login)(alice)
    cookie = f"sessionid={http.cookies['sessionid'].value}".encode()
    path = f"/ws/tables/{play_table.pk}/"
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    logged_in = WebsocketCommunicator(application, path, headers=[*headers, (b"cookie", cookie)])
    assert (await logged_in.connect(timeout=5))[0]
    snap = await logged_in.receive_json_from(timeout=5)
    assert snap["you"]["user_id"] == alice.pk
    anonymous = WebsocketCommunicator(application, path, headers=headers)
    assert (await anonymous.connect(timeout=5))[0]
    assert (await anonymous.receive_json_from(timeout=5))["you"]["user_id"] is None
    await anonymous.send_json_to({"type": "sit", "seat": 1, "amount": 200})
    assert (await anonymous.receive_json_from(timeout=5))["code"] == "login_required"
    foreign = WebsocketCommunicator(application, path, headers=[
        (b"origin", b"http://evil.example"), (b"cookie", cookie)])
    assert not (await foreign.connect(timeout=5))[0]
    for comm in (logged_in, anonymous):
        await comm.disconnect()


async def test_an_event_or_a_reply_for_a_socket_that_just_closed_is_dropped_quietly():
    """A broadcast, or the `done` answering a money request, can reach a consumer after its
    socket closed but before the disconnect is handled: the server refuses the write; the
    consumer notes it and sends nothing more (no error logged, no crash of the socket's
    task)."""
    from tables.consumers import TableConsumer

    consumer = TableConsumer()
    consumer.table_id, consumer.closed = 1, False
    writes = []

    async def closed_socket(message):
        writes.append(message)
        raise RuntimeError("Attempt to send on a closed protocol")

    consumer.base_send = closed_socket
    await consumer.send_frame('{"type": "event", "version": 1, "event": {}}')
    await consumer.send_frame('{"type": "event", "version": 2, "event": {}}')
    await consumer.send_json({"type": "done", "request_id": "r-1"})

    assert consumer.closed
    assert writes == [{"type": "websocket.send", "text": '{"type": "event", "version": 1, "event": {}}'}]
