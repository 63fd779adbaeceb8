"""The hub: one subscription per group and process, every local member gets each broadcast."""
from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from tables import fanout


class Member:
    def __init__(self) -> None:
        self.got: list[dict] = []

    async def take(self, message: dict) -> None:
        self.got.append(message)


async def until(predicate, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_members_of_a_group_share_one_subscription_and_each_get_every_message():
    hub, layer = fanout.hub(), get_channel_layer()
    first, second, elsewhere = Member(), Member(), Member()
    await hub.join("table-41", first)
    await hub.join("table-41", second)
    await hub.join("table-42", elsewhere)
    inner = layer._get_layer()
    assert inner.groups[inner._get_group_channel_name("table-41")] == {hub.channel}  # the hub
    await layer.group_send("table-41", {"type": "table.events", "group": "table-41", "n": 1})
    await until(lambda: first.got and second.got)
    assert first.got == second.got == [{"type": "table.events", "group": "table-41", "n": 1}]
    assert elsewhere.got == []


async def test_the_last_member_leaving_unsubscribes_the_group():
    hub, layer = fanout.hub(), get_channel_layer()
    one, two = Member(), Member()
    await hub.join("table-43", one)
    await hub.join("table-43", two)
    inner = layer._get_layer()
    name = inner._get_group_channel_name("table-43")
    await hub.leave("table-43", one)
    assert name in inner.groups
    await hub.leave("table-43", two)
    assert name not in inner.groups and "table-43" not in hub.members


async def test_a_member_that_fails_does_not_stop_the_others():
    hub, layer = fanout.hub(), get_channel_layer()

    class Broken(Member):
        async def take(self, message: dict) -> None:
            raise RuntimeError("a bug")

    working = Member()
    await hub.join("table-44", Broken())
    await hub.join("table-44", working)
    for n in range(2):
        await layer.group_send("table-44", {"type": "table.events", "group": "table-44", "n": n})
    await until(lambda: len(working.got) == 2)
