"""A socket knows who is asking from the session cookie, read as Django reads it, and the
reads of sockets connecting together run side by side (pokerroom/socket_auth.py)."""
from __future__ import annotations

import asyncio
import threading
from importlib import import_module

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from pokerroom.socket_auth import auth_stack

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio,
              pytest.mark.usefixtures("close_db_threads")]


async def whoami(scope, receive, send):
    """A socket that says who the stack found, then closes."""
    await receive()
    await send({"type": "websocket.accept"})
    user = scope["user"]
    await send({"type": "websocket.send",
                "text": user.username if user.is_authenticated else "anonymous"})
    await send({"type": "websocket.close"})


async def seen_as(cookie: str) -> str:
    comm = WebsocketCommunicator(auth_stack(whoami), "/ws/lobby/",
                                 headers=[(b"cookie", cookie.encode())])
    assert (await comm.connect(timeout=5))[0]
    name = await comm.receive_from(timeout=5)
    await comm.disconnect()
    return name


def session_cookie(user) -> str:
    browser = Client()
    browser.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"


async def test_the_session_cookie_names_the_player(make_user):
    alice = await asyncio.to_thread(make_user, "alice")
    cookie = await asyncio.to_thread(session_cookie, alice)

    assert await seen_as(cookie) == "alice"
    assert await seen_as(f"{settings.SESSION_COOKIE_NAME}=forged") == "anonymous"
    assert await seen_as("") == "anonymous"


async def test_a_session_from_before_a_password_change_is_anonymous(make_user):
    alice = await asyncio.to_thread(make_user, "alice")
    cookie = await asyncio.to_thread(session_cookie, alice)

    def change_password():
        alice.set_password("a new secret phrase")
        alice.save()

    await asyncio.to_thread(change_password)
    assert await seen_as(cookie) == "anonymous"


async def test_sockets_connecting_together_are_authenticated_side_by_side(
        make_user, monkeypatch):
    names = ["alice", "bob", "carol"]
    cookies = [await asyncio.to_thread(session_cookie, await asyncio.to_thread(make_user, n))
               for n in names]
    # Each session read waits until all three are under way: one shared thread for them all
    # would never get there, and the barrier breaks.
    meet, met = threading.Barrier(len(names), timeout=5), []
    store = import_module(settings.SESSION_ENGINE).SessionStore
    load = store.load

    def load_together(session):
        met.append(meet.wait())
        return load(session)

    monkeypatch.setattr(store, "load", load_together)

    assert await asyncio.gather(*(seen_as(c) for c in cookies)) == names
    assert sorted(met) == [0, 1, 2]
