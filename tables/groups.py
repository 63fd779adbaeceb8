"""Table broadcast groups and the after-commit broadcast of recorded events, over Redis
pub/sub (redis-py's public API, on channels this module and the hub own: fanout.py).

A broadcast only wakes clients up: every message carries events already stored in HandEvent,
already redacted and already encoded as the `event` frame a socket sends, so consumers neither
query the database nor encode JSON per event and per socket. Redis keeps nothing for a
subscriber that is not listening; a socket that misses a message sees a version gap and
reads it from the database."""
from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import Any

import redis
import redis.asyncio
from django.conf import settings

logger = logging.getLogger(__name__)
_server_loop: asyncio.AbstractEventLoop | None = None


def channel_of(group: str) -> str:
    """The Redis pub/sub channel of a group (rooms sharing one Redis use other prefixes)."""
    return f"{settings.ROOM_CHANNEL_PREFIX}:{group}"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def tournament_group(tournament_id: int) -> str:
    """A tournament's own group: its event log's broadcasts (tables/tournaments/)."""
    return f"tournament-{tournament_id}"


def server_loop_use(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called by the consumers: broadcasts from this process's service threads are handed to
    the server's event loop without waiting for them (see `events_broadcast`)."""
    global _server_loop
    _server_loop = loop


def events_broadcast(*, table_id: int, items: list[dict[str, Any]]) -> None:
    """Send a committed batch of recorded events to the table's group as one message.

    `items`: [{"version", "event", "private_for", "private"}]. An event with a private copy
    travels with it (`private_frame`): the hub hands the message to the table's consumers,
    and only the consumer whose user is `private_for` sends that copy (tables/consumers.py).
    One message per commit, so a private copy can neither go missing apart from its batch
    nor arrive out of order with it, and a server parses one message per action instead of
    two (every `turn` carries the player's legal actions).

    In the server (daphne) the batch is queued for the event loop and the calling service
    thread goes back to work at once: a thread waiting for the loop, which is busy delivering
    other tables' events, would hold up the next action. One task on the loop sends the queued
    batches one after the other, in the order they were committed: sent side by side, a batch
    could be overtaken by the next commit's batch at the same table, and its sockets then saw a
    gap and read the events from the database. Elsewhere (Celery, commands) the sends complete
    before this returns."""
    group_events_broadcast(group=table_group(table_id), items=items)


def group_events_broadcast(*, group: str, items: list[dict[str, Any]]) -> None:
    """`events_broadcast` to any group (a table's, a tournament's): the same message, the
    same order of sending."""
    if not items:
        return
    loop = _server_loop
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(_outbox_put, group, items)
    else:
        sync_client().publish(channel_of(group), json.dumps(_message(group, items)[1]))


_outbox: deque[tuple[str, dict[str, Any]]] = deque()
_outbox_task: asyncio.Task | None = None


def _outbox_put(group: str, items: list[dict[str, Any]]) -> None:
    """On the server's loop: queue a batch's message, and start the sender unless it runs."""
    global _outbox_task
    _outbox.append(_message(group, items))
    loop = asyncio.get_running_loop()
    # A sender left behind by a loop that stopped (tests run one loop per test) never ends.
    if _outbox_task is None or _outbox_task.done() or _outbox_task.get_loop() is not loop:
        _outbox_task = loop.create_task(_outbox_send())


async def _outbox_send() -> None:
    """Publish whatever is queued, in order, in one round trip; again while more came."""
    while _outbox:
        messages = list(_outbox)
        _outbox.clear()
        try:
            await _publish(messages)
        except Exception:  # a lost broadcast is a gap the sockets fill from the database
            logger.exception("broadcast failed (clients will resync from the database)")


def event_frame(version: int, event: dict[str, Any]) -> str:
    """The `event` message of docs/protocol.md, as sent on a socket."""
    return json.dumps({"type": "event", "version": version, "event": event})


def batch_frame(frames: list[str]) -> str | None:
    """Consecutive `event` frames as one socket message: the frame itself when alone, else
    the `events` message of docs/protocol.md (built by joining the encoded frames: one
    frame per socket and broadcast, and no JSON encoding per socket). None when empty."""
    if len(frames) < 2:
        return frames[0] if frames else None
    return '{"type": "events", "events": [' + ", ".join(frames) + "]}"


def _message(group: str, items: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """(group, message) of a batch: its events as encoded frames, with the private copy of an
    event beside its public frame. The message names its group (one subscriber per process
    reads them all: tables/fanout.py)."""
    events = []
    for item in items:
        encoded = {"version": item["version"], "frame": event_frame(item["version"], item["event"])}
        if item.get("private_for") is not None:
            encoded["private_for"] = item["private_for"]
            encoded["private_frame"] = event_frame(item["version"], item["private"])
        events.append(encoded)
    return group, {"type": "table.events", "group": group, "events": events}


async def _publish(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Publish `messages` in order, as one pipeline of PUBLISH commands (one round trip). One
    sender task per process calls this, so nothing it publishes can come between them."""
    async with async_client().pipeline(transaction=False) as pipe:
        for group, message in messages:
            pipe.publish(channel_of(group), json.dumps(message))
        await pipe.execute()


_sync: redis.Redis | None = None
_async: dict[asyncio.AbstractEventLoop, redis.asyncio.Redis] = {}


def sync_client() -> redis.Redis:
    """Publishing from threads without the server's loop (Celery, commands, tests)."""
    global _sync
    if _sync is None:
        _sync = redis.Redis.from_url(settings.REDIS_URL)
    return _sync


HEALTH_CHECK_SECONDS = 30  # an idle connection is pinged before its next use after this long


def async_client() -> redis.asyncio.Redis:
    """This event loop's client (a server has one loop; tests start one per test). Reads never
    time out: an idle table's subscription stays open."""
    loop = asyncio.get_running_loop()
    found = _async.get(loop)
    if found is None:
        for old in [old for old in _async if old.is_closed()]:
            del _async[old]
        found = _async[loop] = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_timeout=None, health_check_interval=HEALTH_CHECK_SECONDS)
    return found
