"""Anonymous sockets are capped per address and per process, and requests that read more cost
more rate tokens (tables/admission.py, docs/protocol.md "Limits"). Over a cap or a limit the
socket gets an error frame naming it, and nothing is half done."""
from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from tables import admission, consumers, fanout
from tables.groups import table_group
from tests.tables.ws import application

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]

HOME, OFFICE = "203.0.113.5", "198.51.100.9"


@pytest.fixture(autouse=True)
def no_refill(monkeypatch):
    """Buckets that do not refill while a test runs: what a socket spent is exactly counted."""
    bucket = consumers.TokenBucket
    monkeypatch.setattr(consumers, "TokenBucket", lambda: bucket(rate=0.0))


async def opened(path: str, address: str = HOME, user=None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path)
    comm.scope["user"] = user or AnonymousUser()
    comm.scope["client"] = [address, 50_000]
    assert (await comm.connect(timeout=5))[0]
    return comm


async def first_frame(comm: WebsocketCommunicator) -> dict:
    return await comm.receive_json_from(timeout=5)


async def refused(comm: WebsocketCommunicator, code: str) -> None:
    """An error frame naming the cap, then the close (4429)."""
    frame = await first_frame(comm)
    assert frame["type"] == "error" and frame["code"] == code, frame
    assert frame["message"]
    closing = await comm.receive_output(timeout=5)
    assert closing == {"type": "websocket.close", "code": 4429, "reason": code}


async def test_anonymous_sockets_from_one_address_are_capped_with_a_clear_error(
        play_table, settings, make_player):
    settings.ROOM_WS_ANONYMOUS_PER_ADDRESS = 2
    table = f"/ws/tables/{play_table.pk}/"
    first, lobby = await opened(table), await opened("/ws/lobby/")
    assert (await first_frame(first))["type"] == "snapshot"
    assert (await first_frame(lobby))["type"] == "lobby"

    third = await opened(table)
    await refused(third, "too_many_sockets")
    assert admission.ANONYMOUS.by_network[HOME] == 2  # the refused one counted nothing

    # Another address, and a logged-in player at the same address, are let in.
    office = await opened(table, address=OFFICE)
    assert (await first_frame(office))["type"] == "snapshot"
    alice = await sync_make(make_player, "alice")
    player = await opened(table, user=alice)
    assert (await first_frame(player))["type"] == "snapshot"

    # A socket that closes makes room again.
    await first.disconnect()
    again = await opened(table)
    assert (await first_frame(again))["type"] == "snapshot"
    for comm in (lobby, third, office, player, again):
        await comm.disconnect()
    assert admission.ANONYMOUS.total == 0 and not admission.ANONYMOUS.by_network


async def test_anonymous_sockets_are_capped_in_all(play_table, settings):
    settings.ROOM_WS_ANONYMOUS_MAX = 2
    table = f"/ws/tables/{play_table.pk}/"
    one, two = await opened(table, "203.0.113.1"), await opened(table, "203.0.113.2")

    three = await opened(table, "203.0.113.3")

    await refused(three, "server_busy")
    for comm in (one, two, three):
        await comm.disconnect()


async def test_a_refused_socket_never_joins_the_table(play_table, settings):
    settings.ROOM_WS_ANONYMOUS_PER_ADDRESS = 0
    comm = await opened(f"/ws/tables/{play_table.pk}/")

    await refused(comm, "too_many_sockets")

    assert table_group(play_table.pk) not in fanout.hub().members
    await comm.disconnect()
    assert admission.ANONYMOUS.total == 0


async def test_a_consumer_that_fails_gives_its_place_back(play_table, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("a bug in the snapshot")

    monkeypatch.setattr(consumers, "table_snapshot", broken)
    comm = await opened(f"/ws/tables/{play_table.pk}/")
    with pytest.raises(RuntimeError, match="a bug in the snapshot"):
        await comm.wait(timeout=5)

    assert admission.ANONYMOUS.total == 0


async def test_a_snapshot_costs_several_tokens_all_or_none(play_table):
    comm = await opened(f"/ws/tables/{play_table.pk}/")
    await first_frame(comm)
    assert admission.SNAPSHOT_TOKENS == 5 and consumers.RATE_BURST == 20

    for _ in range(3):  # 15 tokens
        await comm.send_json_to({"type": "snapshot"})
        assert (await first_frame(comm))["type"] == "snapshot"
    await comm.send_json_to({"type": "ping"})  # 16
    assert (await first_frame(comm))["type"] == "pong"
    await comm.send_json_to({"type": "snapshot", "ref": "one-too-many"})  # 17, and 4 more: no

    frame = await first_frame(comm)
    assert frame["type"] == "error" and frame["code"] == "rate_limited", frame
    assert frame["ref"] == "one-too-many" and "a snapshot 5" in frame["message"]
    # Nothing was read or sent for it, and only its message's own token was spent: 3 are left.
    for _ in range(3):
        await comm.send_json_to({"type": "ping"})
        assert (await first_frame(comm))["type"] == "pong"
    await comm.send_json_to({"type": "ping"})
    assert (await first_frame(comm))["code"] == "rate_limited"
    await comm.disconnect()


async def test_a_hello_costs_in_proportion_to_the_events_it_catches_up(
        play_table, make_player, sit, monkeypatch):
    from asgiref.sync import sync_to_async

    for n, name in enumerate(["alice", "bob", "carol"], start=1):
        await sync_to_async(sit)(play_table, await sync_make(make_player, name), n)
    comm = await opened(f"/ws/tables/{play_table.pk}/")
    version = (await first_frame(comm))["version"]
    assert version >= 3
    monkeypatch.setattr(admission, "EVENTS_PER_TOKEN", 1)
    cost = 1 + version  # from version 0: every event, one token each, and the message's own
    affordable = int(consumers.RATE_BURST // cost)

    for _ in range(affordable):
        await comm.send_json_to({"type": "hello", "last_version": 0})
        frames = [await first_frame(comm)]
        while frames[-1].get("version") != version:
            frames.append(await first_frame(comm))
        assert {f["type"] for f in frames} <= {"event", "events"}
    await comm.send_json_to({"type": "hello", "last_version": 0})

    frame = await first_frame(comm)
    assert frame["type"] == "error" and frame["code"] == "rate_limited", frame
    assert await comm.receive_nothing(timeout=0.2)  # nothing read, nothing sent
    await comm.disconnect()


async def test_a_too_large_message_spends_a_token(play_table):
    comm = await opened("/ws/lobby/")
    await first_frame(comm)
    too_large = '{"type": "refresh", "pad": "' + "x" * consumers.MAX_MESSAGE_BYTES + '"}'

    codes = []
    for _ in range(int(consumers.RATE_BURST) + 1):
        await comm.send_to(text_data=too_large)
        codes.append((await first_frame(comm))["code"])

    assert codes == ["too_large"] * int(consumers.RATE_BURST) + ["rate_limited"]
    await comm.disconnect()


def test_hello_costs():
    cost = admission.hello_cost
    per = admission.EVENTS_PER_TOKEN
    assert cost(last_version=40, current=40) == 1
    assert cost(last_version=40, current=41) == 2
    assert cost(last_version=0, current=per) == 2
    assert cost(last_version=0, current=per + 1) == 3
    limit = admission.RESYNC_LIMIT
    assert cost(last_version=0, current=limit) == 1 + limit // per <= consumers.RATE_BURST
    # Too far behind, from the future, or before any version: a snapshot is read instead.
    snapshot = admission.SNAPSHOT_TOKENS
    assert cost(last_version=0, current=limit + 1) == snapshot
    assert cost(last_version=50, current=40) == snapshot
    assert cost(last_version=-1, current=40) == snapshot
    assert cost(last_version=0, current=None) == snapshot


async def sync_make(make_player, name: str):
    from asgiref.sync import sync_to_async

    return await sync_to_async(make_player)(name)
