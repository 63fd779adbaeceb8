"""One Redis subscriber per server process for the table groups: the hub hands each broadcast
to the sockets of this process that watch that table (each sends the private copies that are
its user's, and the public frames of the rest).

A subscription per socket would cost, for each broadcast, a decode and a queue per socket. The
hub subscribes to a group's channel once (redis-py's PubSub, on the channels `groups.py`
publishes to), decodes each broadcast once and hands it to the sockets' consumers in turn
(`TableConsumer.take`, which only sends frames: it never waits for the database, and a
consumer busy with a resync keeps the events for when it is done).
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Protocol

from redis.exceptions import ConnectionError as RedisConnectionError

from observability import metrics
from observability.loop_lag import loop_lags
from tables.groups import async_client, channel_of
from tables.services import presence

logger = logging.getLogger(__name__)
RECONNECT_SECONDS = 1.0
LAG_SAMPLE_SECONDS = 0.25


class Member(Protocol):
    async def take(self, message: dict[str, Any]) -> None: ...


class Hub:
    """The groups this process's sockets are in, on one event loop."""

    def __init__(self) -> None:
        self.members: dict[str, set[Member]] = {}
        self.subscribed: dict[str, asyncio.Future] = {}  # done once Redis confirmed it
        self.groups: dict[str, str] = {}  # Redis channel → group, for the groups subscribed
        self.pubsub: Any = None
        # One (un)subscribe at a time: redis-py's PubSub opens its connection on first use,
        # and two first uses at once open two, leaving the other's subscriptions unread.
        self.commands = asyncio.Lock()
        self.reader: asyncio.Task | None = None
        self.heartbeat = asyncio.get_running_loop().create_task(self.beat())
        self.lag = asyncio.get_running_loop().create_task(self.lag_sample())

    async def join(self, group: str, member: Member) -> None:
        """Add `member` to `group`; returns once Redis delivers the group's messages to us."""
        self.members.setdefault(group, set()).add(member)
        ready = self.subscribed.get(group)
        if ready is None:
            ready = self.subscribed[group] = asyncio.get_running_loop().create_future()
            self.groups[channel_of(group)] = group
            try:
                async with self.commands:
                    if self.pubsub is None:
                        self.pubsub = async_client().pubsub()
                    await self.pubsub.subscribe(channel_of(group))
            except BaseException as e:
                del self.subscribed[group], self.groups[channel_of(group)]
                ready.set_exception(e)
                ready.exception()  # retrieved: nobody else may be waiting for it
                self.members[group].discard(member)
                raise
            if self.reader is None or self.reader.done():
                self.reader = asyncio.get_running_loop().create_task(self.read())
        await asyncio.shield(ready)

    async def leave(self, group: str, member: Member) -> None:
        members = self.members.get(group)
        if members is None:
            return
        members.discard(member)
        if not members:
            del self.members[group]
            ready = self.subscribed.pop(group, None)
            self.groups.pop(channel_of(group), None)
            if ready is not None and self.pubsub is not None:
                async with self.commands:
                    await self.pubsub.unsubscribe(channel_of(group))

    async def beat(self) -> None:
        """Keep this process's liveness key in Redis (tables/services/presence.py): sockets it
        counted stop counting soon after it dies."""
        key = presence.server_key(presence.SERVER)
        while True:
            try:
                await async_client().set(key, 1, ex=presence.SERVER_TTL)
            except RedisConnectionError:
                logger.warning("presence heartbeat: Redis unreachable")
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)

    async def lag_sample(self) -> None:
        """room_loop_lag_seconds: every frame the process sends waits as long behind whatever
        holds the loop or the GIL."""
        async for lag in loop_lags(LAG_SAMPLE_SECONDS):
            metrics.LOOP_LAG_SECONDS.observe(lag)

    async def read(self) -> None:
        """Hand each message to its group's members; confirm subscriptions. redis-py
        re-subscribes by itself after a lost connection; messages sent meanwhile are gaps
        that the sockets fill from the database."""
        while self.subscribed:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except RedisConnectionError:
                logger.warning("table broadcasts: Redis connection lost; reconnecting")
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            if message is None or message["type"] not in ("subscribe", "message"):
                continue  # also pongs of the connection's health checks
            group = self.groups.get(message["channel"].decode())
            if group is None:  # left meanwhile
                continue
            if message["type"] == "subscribe":
                ready = self.subscribed.get(group)
                if ready is not None and not ready.done():
                    ready.set_result(None)
            elif message["type"] == "message":
                await self.deliver(group, json.loads(message["data"]))

    async def deliver(self, group: str, message: dict[str, Any]) -> None:
        for member in list(self.members.get(group, ())):
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
