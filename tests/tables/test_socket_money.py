"""Money over the socket is idempotent: `sit`, `top_up` and `leave` carry a client-made
`request_id`, and the same message resent after a reconnect moves money once."""
from __future__ import annotations

import uuid

import pytest
from asgiref.sync import sync_to_async

from cashier.money import Currency
from cashier.selectors import balances_for
from tables.models import Seat
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]


@sync_to_async
def wallet(user) -> int:
    return balances_for(user=user)[Currency.PLAY]


@sync_to_async
def seat_of(table, user) -> Seat | None:
    return Seat.objects.filter(table=table, player=user).first()


async def send_and_wait_done(client: Client, **message) -> dict:
    count = len(client.frames)
    await client.send(**message)
    await client.until(lambda: any(f["type"] in ("done", "error")
                                   for f in client.frames[count:]), what="an answer")
    return next(f for f in client.frames[count:] if f["type"] in ("done", "error"))


async def resent_after_reconnect(table, user, message: dict) -> tuple[dict, dict]:
    """Send `message`, drop the socket, reconnect and send it again: both answers."""
    first_socket = await Client.open(table.pk, user)
    await first_socket.drain()
    first = await send_and_wait_done(first_socket, **message)
    await first_socket.close()
    again = await Client.open(table.pk, user, query=f"?last_version={first_socket.version}")
    await again.drain()
    second = await send_and_wait_done(again, **message)
    await again.close()
    return first, second


async def test_a_resent_sit_buys_in_once(play_table, make_player):
    alice = await sync_to_async(make_player)("alice")
    before = await wallet(alice)
    sit = {"type": "sit", "seat": 1, "amount": 200, "request_id": uuid.uuid4().hex}

    first, second = await resent_after_reconnect(play_table, alice, sit)

    assert first == second == {"type": "done", "request_id": sit["request_id"]}
    assert await wallet(alice) == before - 200
    assert (await seat_of(play_table, alice)).chips == 200


async def test_a_resent_top_up_moves_money_once(play_table, make_player, sit):
    alice = await sync_to_async(make_player)("alice")
    await sync_to_async(sit)(play_table, alice, 1, amount=100)
    before = await wallet(alice)
    top_up = {"type": "top_up", "amount": 50, "request_id": uuid.uuid4().hex}

    first, second = await resent_after_reconnect(play_table, alice, top_up)

    assert first["type"] == second["type"] == "done"
    assert await wallet(alice) == before - 50
    # a new request (a new id) is a new top-up
    c = await Client.open(play_table.pk, alice)
    await c.drain()
    assert (await send_and_wait_done(c, type="top_up", amount=25))["type"] == "done"
    await c.close()
    assert await wallet(alice) == before - 75


async def test_a_resent_leave_cashes_out_once(play_table, make_player, sit):
    alice = await sync_to_async(make_player)("alice")
    await sync_to_async(sit)(play_table, alice, 1)
    before = await wallet(alice)
    leave = {"type": "leave", "request_id": uuid.uuid4().hex}

    first, second = await resent_after_reconnect(play_table, alice, leave)

    assert first["type"] == second["type"] == "done"  # not "not_seated": it was done
    assert await wallet(alice) == before + 200
    assert await seat_of(play_table, alice) is None


async def test_money_messages_without_a_request_id_are_refused(play_table, make_player):
    alice = await sync_to_async(make_player)("alice")
    c = await Client.open(play_table.pk, alice)
    await c.drain()
    for request_id in (None, 7, "short", "x" * 65, "spaces are bad here"):
        await c.comm.send_json_to({"type": "sit", "seat": 1, "amount": 200,
                                   **({"request_id": request_id} if request_id else {})})
        error = await c.comm.receive_json_from(timeout=5)
        assert error["code"] == "bad_request" and "request_id" in error["message"]
    await c.close()
    assert await seat_of(play_table, alice) is None
