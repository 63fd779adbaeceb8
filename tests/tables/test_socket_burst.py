"""Sockets that connect at once are served at once: their database reads run in any thread of
the pool, not queued behind the process's one shared thread (tables/consumers.py `in_thread`).
A daphne's tables come back together when it restarts; queued, the last of them passed
daphne's handshake timeout and were reset."""
from __future__ import annotations

import asyncio
import threading

import pytest

from tables import consumers
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]

AT_ONCE = 3


async def test_sockets_connecting_together_read_their_snapshots_side_by_side(
        play_table, monkeypatch):
    # Each snapshot read waits until all three are being read: one thread for all of them
    # would never get there, and the barrier breaks.
    meet = threading.Barrier(AT_ONCE, timeout=5)
    read = consumers.table_snapshot

    def read_together(**kwargs):
        meet.wait()
        return read(**kwargs)

    monkeypatch.setattr(consumers, "table_snapshot", read_together)

    clients = await asyncio.gather(*(Client.open(play_table.pk, name=f"viewer {n}")
                                     for n in range(AT_ONCE)))

    assert not meet.broken
    assert [c.frames[0]["type"] for c in clients] == ["snapshot"] * AT_ONCE
    for client in clients:
        await client.close()
