"""The ASGI app accepts WebSockets only from allowed origins, and runs HTTP's middlewares sync."""
from __future__ import annotations

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.utils.deprecation import MiddlewareMixin

from pokerroom.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(origin: bytes) -> tuple[bool, WebsocketCommunicator]:
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", origin)])
    connected, _ = await communicator.connect()
    return connected, communicator


async def test_a_socket_from_the_room_itself_is_accepted_and_served():
    connected, communicator = await connect(b"http://127.0.0.1:8000")

    assert connected
    message = await communicator.receive_json_from()
    assert message["type"] == "lobby"
    await communicator.send_json_to({"type": "nonsense"})
    error = await communicator.receive_json_from()
    assert error["type"] == "error" and error["code"] == "unknown_type"
    await communicator.disconnect()


async def test_a_socket_from_another_origin_is_refused():
    connected, communicator = await connect(b"https://evil.example.com")

    assert not connected
    await communicator.disconnect()


async def test_http_requests_run_the_middlewares_sync_without_a_thread_hop_each(monkeypatch):
    """WhiteNoise, the one sync-only middleware, is innermost (settings.py), so Django runs the
    others sync; one left async would hop to a thread and back for its hooks on every request."""
    ran_async = []
    acall = MiddlewareMixin.__acall__

    async def recorded(self, request):
        ran_async.append(type(self).__name__)
        return await acall(self, request)

    monkeypatch.setattr(MiddlewareMixin, "__acall__", recorded)
    response = await HttpCommunicator(application, "GET", "/healthz",
                                      headers=[(b"host", b"127.0.0.1")]).get_response(timeout=10)

    assert response["status"] == 200
    assert ran_async == []
