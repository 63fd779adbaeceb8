"""The hub: one Redis subscription per group and process; every local member gets each
broadcast; the last member leaving unsubscribes."""
from __future__ import annotations

import asyncio
import json
import time

from tables import fanout
from tables.groups import async_client, channel_of


class Member:
    def __init__(self) -> None:
        self.got: list[dict] = []

    async def take(self, message: dict) -> None:
        self.got.append(message)


async def until(predicate, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def publish(group: str, message: dict) -> None:
    await async_client().publish(channel_of(group), json.dumps(message))


async def subscribers(group: str) -> int:
    return dict(await async_client().pubsub_numsub(channel_of(group)))[channel_of(group).encode()]


async def test_members_of_a_group_share_one_subscription_and_each_get_every_message():
    hub = fanout.hub()
    first, second, elsewhere = Member(), Member(), Member()
    await hub.join("table-41", first)
    await hub.join("table-41", second)
    await hub.join("table-42", elsewhere)
    assert await subscribers("table-41") == 1  # the hub's, not one per socket
    await publish("table-41", {"type": "table.events", "group": "table-41", "n": 1})
    await until(lambda: first.got and second.got)
    assert first.got == second.got == [{"type": "table.events", "group": "table-41", "n": 1}]
    assert elsewhere.got == []
    for group, member in (("table-41", first), ("table-41", second), ("table-42", elsewhere)):
        await hub.leave(group, member)


async def test_the_last_member_leaving_unsubscribes_the_group():
    hub = fanout.hub()
    one, two = Member(), Member()
    await hub.join("table-43", one)
    await hub.join("table-43", two)
    await hub.leave("table-43", one)
    assert await subscribers("table-43") == 1
    await hub.leave("table-43", two)
    await until(lambda: "table-43" not in hub.members)
    async with asyncio.timeout(5):
        while await subscribers("table-43"):
            await asyncio.sleep(0.01)


async def test_a_member_that_fails_does_not_stop_the_others():
    hub = fanout.hub()

    class Broken(Member):
        async def take(self, message: dict) -> None:
            raise RuntimeError("a bug")

    working, broken = Member(), Broken()
    await hub.join("table-44", broken)
    await hub.join("table-44", working)
    for n in range(2):
        await publish("table-44", {"type": "table.events", "group": "table-44", "n": n})
    await until(lambda: len(working.got) == 2)
    await hub.leave("table-44", broken)
    await hub.leave("table-44", working)


async def test_many_sockets_joining_a_fresh_hub_at_once_all_get_their_groups():
    """A server that just started (or restarted) and a room full of players reconnecting: the
    first subscriptions all happen at once. They must share the hub's one Redis connection
    (redis-py's PubSub opens it on first use, and two first uses at once used to open two,
    stranding the subscriptions made on the other: those sockets never got their events and
    their handshakes timed out)."""
    hub = fanout.Hub()
    members = {f"table-{500 + n}": Member() for n in range(40)}
    async with asyncio.timeout(10):
        await asyncio.gather(*(hub.join(group, m) for group, m in members.items()))
    for group in members:
        await publish(group, {"type": "table.events", "group": group})
    await until(lambda: all(m.got for m in members.values()))
    for group, member in members.items():
        await hub.leave(group, member)


async def test_the_hub_times_how_late_its_event_loop_wakes():
    """room_loop_lag_seconds: a loop held by blocking work shows as a late wake-up."""
    from prometheus_client import REGISTRY

    def samples(le: str) -> float:
        return REGISTRY.get_sample_value("room_loop_lag_seconds_bucket", {"le": le}) or 0.0

    fanout.hub()
    await asyncio.sleep(fanout.LAG_SAMPLE_SECONDS / 2)  # the sampler is asleep now
    late_before, all_before = samples("0.05"), samples("+Inf")
    time.sleep(fanout.LAG_SAMPLE_SECONDS + 0.2)  # blocks the loop past the sampler's wake-up
    await until(lambda: samples("+Inf") > all_before)
    assert samples("+Inf") - samples("0.05") > all_before - late_before  # one sample was > 50 ms
