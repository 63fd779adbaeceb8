"""Channel-layer group names and the on-commit broadcast of recorded events.

The channel layer only wakes clients up: every message carries events already stored in
HandEvent, already redacted and already encoded as the `event` frame a socket sends, so
consumers neither query the database nor encode JSON per event and per socket."""
from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
_server_loop: asyncio.AbstractEventLoop | None = None


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


def server_loop_use(loop: asyncio.AbstractEventLoop) -> None:
    """Called by the consumers: broadcasts from this process's service threads are handed to
    the server's event loop without waiting for them (see `events_broadcast`)."""
    global _server_loop
    _server_loop = loop


def events_broadcast(*, table_id: int, items: list[dict[str, Any]]) -> None:
    """Send recorded events: private copies to their owners first, then the public batch.

    `items`: [{"version", "event", "private_for", "private"}]; a consumer whose user is
    `private_for` uses the private copy it received just before instead of the public one.

    In the server (daphne) the sends are queued on its event loop and the calling service
    thread goes back to work at once: a thread waiting for the loop, which is busy delivering
    other tables' events, would hold up the next action. Elsewhere (Celery, commands) the
    sends complete before this returns."""
    if not items:
        return
    loop = _server_loop
    if loop is not None and loop.is_running():
        future = asyncio.run_coroutine_threadsafe(_send(table_id, items), loop)
        future.add_done_callback(_log_failure)
    else:
        async_to_sync(_send)(table_id, items)


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


async def _send(table_id: int, items: list[dict[str, Any]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    private: dict[int, list[dict[str, Any]]] = {}
    for item in items:
        if item.get("private_for") is not None:
            private.setdefault(item["private_for"], []).append(
                {"version": item["version"], "frame": event_frame(item["version"], item["private"])})
    for user_id, frames in private.items():
        await layer.group_send(user_group(table_id, user_id),
                               {"type": "table.private", "events": frames})
    await layer.group_send(table_group(table_id), {"type": "table.events", "events": [
        {"version": i["version"], "frame": event_frame(i["version"], i["event"]),
         "private_for": i.get("private_for")}
        for i in items
    ]})


def _log_failure(future: Future) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("broadcast failed (clients will resync from the database)",
                     exc_info=future.exception())
