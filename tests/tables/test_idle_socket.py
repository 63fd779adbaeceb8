"""An idle table keeps every socket open: a quiet spell on the real Redis channel layer, then
an event still reaches the player and the spectator. Reads on the hub's connection never time
out (`socket_timeout=None`), and the connection's health checks (every 30 s in the room,
every 2 s here, so that the spell spans several) do not disturb the subscription."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tables import groups
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads"), pytest.mark.timeout(60)]

HEALTH_CHECK_SECONDS = 2
IDLE_SECONDS = 7


async def test_sockets_survive_an_idle_spell(play_table, make_player, monkeypatch):
    monkeypatch.setattr(groups, "HEALTH_CHECK_SECONDS", HEALTH_CHECK_SECONDS)
    alice, bob = await sync_to_async(make_player)("alice"), await sync_to_async(make_player)("bob")
    watcher = await Client.open(play_table.pk)
    player = await Client.open(play_table.pk, alice)
    await player.send(type="sit", seat=1, amount=200)
    await player.until(lambda: player.seat == 1, what="seated")
    await watcher.drain()
    await asyncio.sleep(IDLE_SECONDS)  # nothing at all happens at the table
    kwargs = groups.async_client().connection_pool.connection_kwargs  # the hub's connection
    assert (kwargs["health_check_interval"], kwargs["socket_timeout"]) == (HEALTH_CHECK_SECONDS,
                                                                           None)
    latecomer = await Client.open(play_table.pk, bob)
    await latecomer.send(type="sit", seat=2, amount=200)
    for c in (watcher, player, latecomer):
        await c.until(lambda c=c: any(e["player_id"] == bob.pk for e in c.events("seat_taken")),
                      what="bob's seat_taken after the idle spell")
    await player.send(type="ping")
    await player.until(lambda: player.frames[-1]["type"] == "pong", what="pong")
    for c in (watcher, player, latecomer):
        await c.close()
