"""The `run_twice` socket message end to end: both players all in preflop are asked (a
`run_twice_offer` event with its deadline reaches everyone), both answer twice and every
socket gets the second board (docs/protocol.md)."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables import services
from tests.tables.ws import seated

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]


async def test_both_all_in_answer_twice_over_the_socket(make_table, make_player):
    table = await sync_to_async(make_table)(name="Twice", structure="NL", lower_stake=2,
                                            max_seats=6, run_it_twice_allowed=True,
                                            hand_pause_seconds=30)
    users = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    clients = await seated(table, *users)
    await sync_to_async(services.hand_start)(table_id=table.pk, force=True)
    for c in clients:
        await c.until(lambda c=c: bool(c.my_turn()) or bool(c.events("turn")), what="a turn")
    first = next(c for c in clients if c.my_turn())
    other = next(c for c in clients if c is not first)
    await first.send(type="act", action="raise", amount=200, version=first.version)
    await other.until(lambda: bool(other.my_turn()), what="his turn")
    await other.send(type="act", action="call", version=other.version)
    for c in clients:
        await c.until(lambda c=c: bool(c.events("run_twice_offer")), what="the offer")
    offer = clients[0].events("run_twice_offer")[0]
    assert sorted(offer["seats"]) == [1, 2] and offer["deadline"]
    assert (await first.request(type="run_twice", twice="yes"))["code"] == "bad_request"
    for c in clients:
        await c.send(type="run_twice", twice=True)
    for c in clients:
        await c.until(lambda c=c: bool(c.events("hand_end")), what="the hand's end")
    assert [e["street"] for e in clients[0].events("second_board")] == ["flop", "turn", "river"]
    assert clients[1].events("run_twice_decided") == [{"type": "run_twice_decided", "runs": 2}]
    assert (await first.request(type="run_twice", twice=True))["code"] == "no_hand"
    for c in clients:
        await c.close()
