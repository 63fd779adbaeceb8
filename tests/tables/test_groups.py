"""Broadcasts over real Redis pub/sub: batches leave a server process in the order they were
committed, one message each with the private copies inside, and each socket gets one frame."""
from __future__ import annotations

import asyncio
import json

import pytest

from tables import groups
from tables.groups import async_client, channel_of


@pytest.fixture
async def listener():
    """A subscription to table 7's group."""
    pubsub = async_client().pubsub()
    await pubsub.subscribe(channel_of(groups.table_group(7)))
    await pubsub.get_message(timeout=5)  # the confirmation
    groups.server_loop_use(asyncio.get_running_loop())
    yield pubsub
    groups.server_loop_use(None)
    await pubsub.aclose()


async def received(pubsub) -> dict:
    while True:
        message = await pubsub.get_message(timeout=5)
        if message is not None and message["type"] == "message":
            return json.loads(message["data"])


def turn_for(user_id: int, version: int) -> dict:
    return {"version": version, "event": {"type": "turn", "seat": 2}, "private_for": user_id,
            "private": {"type": "turn", "seat": 2, "legal": {"check": True}}}


def action(version: int) -> dict:
    return {"version": version, "event": {"type": "action", "seat": 1}, "private_for": None,
            "private": None}


async def test_batches_from_service_threads_are_published_in_commit_order(listener):
    # Three commits in a row from service threads, the first and last with a private copy:
    # one message each, in commit order, the private copy beside its public frame.
    for batch in ([action(1), turn_for(3, 2)], [action(3)], [action(4), turn_for(3, 5)]):
        await asyncio.to_thread(groups.events_broadcast, table_id=7, items=batch)
    got = [await received(listener) for _ in range(3)]
    assert [[e["version"] for e in m["events"]] for m in got] == [[1, 2], [3], [4, 5]]
    turn = got[0]["events"][1]
    assert turn["private_for"] == 3
    assert '"legal"' in turn["private_frame"] and '"legal"' not in turn["frame"]
    assert "private_frame" not in got[0]["events"][0] and "private_for" not in got[1]["events"][0]


def test_consecutive_frames_are_joined_into_one_events_frame():
    one, two = groups.event_frame(1, {"type": "a"}), groups.event_frame(2, {"type": "b"})
    assert groups.batch_frame([]) is None
    assert groups.batch_frame([one]) == one
    assert json.loads(groups.batch_frame([one, two])) == {"type": "events", "events": [
        {"type": "event", "version": 1, "event": {"type": "a"}},
        {"type": "event", "version": 2, "event": {"type": "b"}}]}
