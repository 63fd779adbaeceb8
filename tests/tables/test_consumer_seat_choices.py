"""The seat choices over the table socket (docs/protocol.md): `sit` with `post_bb`,
`sit_out_next_bb {on}`, and `leave` on one's turn folding at once."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables import services
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]


async def opened(table, *names: str, make_player) -> list[Client]:
    return [await Client.open(table.pk, await sync_to_async(make_player)(n)) for n in names]


async def sat(client: Client, seat: int, **extra) -> None:
    await client.send(type="sit", seat=seat, amount=200, **extra)
    await client.until(lambda: client.seat is not None, what="seat_taken")


async def test_sit_out_next_big_blind_over_the_socket(play_table, make_player):
    alice, bob, carol = await opened(play_table, "alice", "bob", "carol", make_player=make_player)
    for n, c in enumerate((alice, bob, carol), start=1):
        await sat(c, n)
    await alice.send(type="sit_out_next_bb", on=True)
    await bob.until(lambda: any(e.get("sit_out_next_bb") for e in bob.events("status")),
                    what="alice's status")
    assert bob.events("status")[-1] == {"type": "status", "seat": 1, "status": "playing",
                                        "post_bb": False, "missed_blinds": False,
                                        "sit_out_next_bb": True}
    assert (await alice.request(type="sit_out_next_bb", on="yes"))["code"] == "bad_request"
    assert (await alice.request(type="sit_out_next_bb"))["code"] == "bad_request"
    await carol.send(type="sit_out")
    await carol.until(lambda: any(e["status"] == "sitting_out" for e in carol.events("status")),
                      what="sitting out")
    refused = await carol.request(type="sit_out_next_bb", on=True)
    assert refused["code"] == "not_playing" and refused["message"]
    for c in (alice, bob, carol):
        await c.close()


async def test_sit_takes_post_bb_and_waits_for_the_big_blind_by_default(play_table, make_player):
    alice, bob, carol, dave = await opened(play_table, "alice", "bob", "carol", "dave",
                                           make_player=make_player)
    await sat(alice, 1)
    await sat(bob, 2)
    await sync_to_async(services.hand_start)(table_id=play_table.pk, force=True)
    await sat(carol, 3)  # no post_bb: waits for the big blind
    await sat(dave, 4, post_bb=True)
    await alice.until(lambda: len(alice.events("seat_taken")) == 4, what="both seated")
    taken = {e["seat"]: e["status"] for e in alice.events("seat_taken")}
    assert (taken[3], taken[4]) == ("waiting_bb", "playing")
    assert alice.events("status")[-1]["seat"] == 4 and alice.events("status")[-1]["post_bb"]
    bad = await alice.request(type="sit", seat=5, amount=200, post_bb=1)
    assert bad["code"] == "bad_request" and "post_bb" in bad["message"]
    for c in (alice, bob, carol, dave):
        await c.close()


async def test_leave_on_ones_turn_folds_at_once(play_table, make_player):
    alice, bob, carol = await opened(play_table, "alice", "bob", "carol", make_player=make_player)
    for n, c in enumerate((alice, bob, carol), start=1):
        await sat(c, n)
    await sync_to_async(services.hand_start)(table_id=play_table.pk, force=True)
    await alice.until(lambda: alice.my_turn() is not None, what="alice's turn")
    await alice.send(type="leave", request_id="leave-alice-1")
    await bob.until(lambda: any(e["seat"] == 2 for e in bob.events("turn")), what="bob's turn")
    tail = [(e["type"], e.get("seat"), e.get("action")) for e in bob.events()[-3:]]
    assert tail == [("leaving", 1, None), ("action", 1, "fold"), ("turn", 2, None)]
    await alice.until(lambda: any(f["type"] == "done" and f["request_id"] == "leave-alice-1"
                                  for f in alice.frames), what="the leave's answer")
    for c in (alice, bob, carol):
        await c.close()
