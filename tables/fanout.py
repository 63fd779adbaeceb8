"""One subscriber per server process for the table groups: the hub hands each broadcast to the
sockets of this process that watch that table (or are its private recipient).

Channels gives every socket a channel of its own on the channel layer: a Redis subscription
per socket, and for each broadcast a decode and a queue, a task and an `asyncio.wait` per
socket. The hub reads each broadcast once and hands it to the sockets' consumers in turn
(`TableConsumer.take`, which only sends frames: it never waits for the database, and a
consumer busy with a resync keeps the events for when it is done).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


class Member(Protocol):
    async def take(self, message: dict[str, Any]) -> None: ...


class Hub:
    """The groups this process's sockets are in, on one event loop."""

    def __init__(self) -> None:
        self.members: dict[str, set[Member]] = {}
        self.subscribed: dict[str, asyncio.Future] = {}  # done once the group is subscribed
        self.channel: str | None = None
        self.reader: asyncio.Task | None = None

    async def join(self, group: str, member: Member) -> None:
        """Add `member` to `group`; returns once the process receives the group's messages."""
        layer = get_channel_layer()
        if self.channel is None:
            self.channel = await layer.new_channel()
            self.reader = asyncio.get_running_loop().create_task(self.read(layer, self.channel))
        self.members.setdefault(group, set()).add(member)
        ready = self.subscribed.get(group)
        if ready is None:
            ready = self.subscribed[group] = asyncio.get_running_loop().create_future()
            try:
                await layer.group_add(group, self.channel)
            except BaseException as e:
                del self.subscribed[group]
                ready.set_exception(e)
                raise
            ready.set_result(None)
        await asyncio.shield(ready)

    async def leave(self, group: str, member: Member) -> None:
        members = self.members.get(group)
        if members is None:
            return
        members.discard(member)
        if not members:
            del self.members[group]
            ready = self.subscribed.pop(group, None)
            if ready is not None and ready.done() and ready.exception() is None:
                await get_channel_layer().group_discard(group, self.channel)

    async def read(self, layer: Any, channel: str) -> None:
        while True:
            message = await layer.receive(channel)
            for member in list(self.members.get(message.get("group", ""), ())):
                try:
                    await member.take(message)
                except Exception:  # one broken socket must not stop the others' events
                    logger.exception("a socket failed to take a broadcast")


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """This event loop's hub (a server has one loop; tests start one per test)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [old for old in _hubs if old.is_closed()]:
            del _hubs[old]
        found = _hubs[loop] = Hub()
    return found
