"""Socket input can never crash a consumer, and a consumer that ends leaves the hub: the table
and lobby sockets answer bad input with an error and stay open (docs/protocol.md, "Limits")."""
from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from tables import consumers, fanout
from tables.groups import table_group
from tests.tables.ws import Client, application

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]

NESTED = "[" * 1000 + "]" * 1000  # 2 KB that make json.loads raise RecursionError


async def answer(comm: WebsocketCommunicator, text: str) -> dict:
    await comm.send_to(text_data=text)
    return await comm.receive_json_from(timeout=5)


async def test_nested_input_gets_bad_json_and_the_table_socket_stays_open(play_table):
    watcher = await Client.open(play_table.pk)
    await watcher.drain()
    await watcher.send_raw(NESTED)
    await watcher.until(lambda: bool(watcher.errors()), what="an error")
    assert watcher.errors()[-1]["code"] == "bad_json"
    await watcher.send(type="ping")
    await watcher.until(lambda: watcher.frames[-1]["type"] == "pong", what="pong")
    await watcher.close()
    assert table_group(play_table.pk) not in fanout.hub().members  # closed: gone from the hub


async def test_nested_input_gets_bad_json_and_the_lobby_socket_stays_open(play_table):
    lobby = WebsocketCommunicator(application, "/ws/lobby/")
    assert (await lobby.connect(timeout=5))[0]
    assert (await lobby.receive_json_from(timeout=5))["type"] == "lobby"
    assert (await answer(lobby, NESTED))["code"] == "bad_json"
    assert (await answer(lobby, '"just a string"'))["code"] == "bad_json"
    assert (await answer(lobby, '{"type": "x", "pad": "' + "x" * 5000 + '"}'))["code"] == \
        "too_large"
    assert (await answer(lobby, '{"type": "refresh"}'))["type"] == "lobby"  # still open
    await lobby.disconnect()


async def test_the_lobby_socket_is_rate_limited_like_the_table_socket(play_table):
    lobby = WebsocketCommunicator(application, "/ws/lobby/")
    assert (await lobby.connect(timeout=5))[0]
    await lobby.receive_json_from(timeout=5)
    for _ in range(30):
        await lobby.send_to(text_data='{"type": "bogus"}')
    codes = [(await lobby.receive_json_from(timeout=5))["code"] for _ in range(30)]
    assert codes.count("unknown_type") >= 20 and "rate_limited" in codes
    await lobby.disconnect()


async def test_a_consumer_that_fails_is_removed_from_the_hub(play_table, monkeypatch):
    """A bug while connecting ends the consumer (the server closes the socket with 1011);
    it must not stay subscribed, receiving the table's broadcasts for nobody."""
    def broken(**kwargs):
        raise RuntimeError("a bug in the snapshot")

    monkeypatch.setattr(consumers, "table_snapshot", broken)
    comm = WebsocketCommunicator(application, f"/ws/tables/{play_table.pk}/")
    await comm.connect(timeout=5)
    with pytest.raises(RuntimeError, match="a bug in the snapshot"):
        await comm.wait(timeout=5)
    assert table_group(play_table.pk) not in fanout.hub().members



def test_nesting_is_counted_outside_strings_only():
    assert consumers.decode('{"chat": "' + "[" * 100 + '"}') == {"chat": "[" * 100}
    assert consumers.decode('{"a": [[[[1]]]]}') == {"a": [[[[1]]]]}
    with pytest.raises(consumers.BadRequest) as refused:
        consumers.decode('{"a": ' + "[" * 17 + "]" * 17 + "}")
    assert refused.value.code == "bad_json" and "nested" in refused.value.message


async def test_the_receive_loop_keeps_to_channels_consumer_contract(play_table):
    """`RoomConsumer.__call__` replaces Channels' own loop (docs in its docstring). It relies
    on Channels' public contract: ASGI messages dispatched by `get_handler_name` to the
    `websocket_*` handlers of AsyncWebsocketConsumer, whose disconnect raises StopConsumer.
    A Channels upgrade that changes any of it fails here."""
    from channels.consumer import get_handler_name
    from channels.exceptions import StopConsumer
    from channels.generic.websocket import AsyncWebsocketConsumer

    assert get_handler_name({"type": "websocket.receive"}) == "websocket_receive"
    for handler in ("websocket_connect", "websocket_receive", "websocket_disconnect"):
        assert getattr(consumers.RoomConsumer, handler) is getattr(AsyncWebsocketConsumer, handler)
    consumer = consumers.LobbyConsumer()
    consumer.base_send = None
    with pytest.raises(StopConsumer):
        await consumer.websocket_disconnect({"type": "websocket.disconnect", "code": 1000})
    ended = []

    class Counted(consumers.LobbyConsumer):
        async def ended(self) -> None:
            ended.append(True)

    comm = WebsocketCommunicator(Counted.as_asgi(), "/ws/lobby/")
    assert (await comm.connect(timeout=5))[0]
    assert (await comm.receive_json_from(timeout=5))["type"] == "lobby"
    assert (await answer(comm, '{"type": "refresh"}'))["type"] == "lobby"
    await comm.disconnect()
    assert ended == [True]
