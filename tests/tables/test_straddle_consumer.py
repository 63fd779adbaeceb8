"""The `straddle` socket message end to end: a private choice answered to its sender, the
straddle posted under the gun in the next hand and seen by everyone (docs/protocol.md)."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables import services
from tests.tables.ws import Client, seated

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]


async def test_the_player_under_the_gun_straddles_from_the_next_hand(make_table, make_player):
    table = await sync_to_async(make_table)(name="Oak", structure="NL", lower_stake=2,
                                            max_seats=6, straddle_allowed=True,
                                            hand_pause_seconds=0)
    users = [await sync_to_async(make_player)(name) for name in ("ann", "ben", "cat")]
    ann, ben, cat = await seated(table, *users)  # button ann, blinds ben and cat: ann is UTG
    watcher = await Client.open(table.pk)
    assert watcher.frames[0]["table"]["straddle_allowed"] is True
    await ann.drain()
    version = ann.version
    await ann.send(type="straddle", on=True)
    await ann.until(lambda: any(f["type"] == "straddle" for f in ann.frames), what="the answer")
    assert [f for f in ann.frames if f["type"] == "straddle"] == [{"type": "straddle", "on": True}]
    await ben.drain()
    await ann.drain()
    assert not any(f["type"] == "straddle" for f in ben.frames) and ann.version == version
    assert (await ann.request(type="straddle", on="yes"))["code"] == "bad_request"
    await sync_to_async(services.hand_start)(table_id=table.pk, force=True)
    for c in (ann, ben, cat, watcher):
        await c.until(lambda c=c: any(e["type"] == "turn" for e in c.events()), what="a turn")
    posts = [(e["seat"], e["kind"], e["amount"]) for e in watcher.events("posted_blind")]
    assert posts == [(2, "sb", 1), (3, "bb", 2), (1, "straddle", 4)]
    assert watcher.events("turn")[0]["seat"] == 2  # left of the straddler
    snap = await Client.open(table.pk, users[0])
    assert snap.frames[0]["you"]["straddle"] is True
    for c in (ann, ben, cat, watcher, snap):
        await c.close()


async def test_a_table_without_straddles_refuses_the_message(play_table, make_player):
    ann = await sync_to_async(make_player)("ann")
    (client,) = await seated(play_table, ann)
    error = await client.request(type="straddle", on=True)
    assert error["code"] == "no_straddle" and "straddle" in error["message"]
    await client.close()
