"""An idle table keeps every socket open: a quiet minute on the real Redis channel layer, then
an event still reaches the player and the spectator (socket_timeout=None in settings)."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads"), pytest.mark.timeout(180)]

IDLE_SECONDS = 61


async def test_sockets_survive_an_idle_minute(play_table, make_player):
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    watcher = await Client.open(play_table.pk)
    player = await Client.open(play_table.pk, alice)
    await player.send(type="sit", seat=1, amount=200)
    await player.until(lambda: player.seat == 1, what="seated")
    await watcher.drain()
    await asyncio.sleep(IDLE_SECONDS)  # nothing at all happens at the table
    latecomer = await Client.open(play_table.pk, bob)
    await latecomer.send(type="sit", seat=2, amount=200)
    for c in (watcher, player, latecomer):
        await c.until(lambda c=c: any(e["player_id"] == bob.pk for e in c.events("seat_taken")),
                      what="bob's seat_taken after the idle minute")
    await player.send(type="ping")
    await player.until(lambda: player.frames[-1]["type"] == "pong", what="pong")
    for c in (watcher, player, latecomer):
        await c.close()
