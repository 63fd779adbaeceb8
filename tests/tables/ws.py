"""A test client for /ws/tables/<id>/: records every frame, checks versions are gap-free,
and knows when it is its turn (from the private `turn` event)."""
from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Callable
from typing import Any

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from tables.routing import websocket_urlpatterns

application = URLRouter(websocket_urlpatterns)


class Client:
    def __init__(self, comm: WebsocketCommunicator, user: Any, name: str) -> None:
        self.comm, self.user, self.name = comm, user, name
        self.frames: list[dict[str, Any]] = []  # as applied: `events` frames unpacked
        self.wire: list[dict[str, Any]] = []  # as received
        self.sent: list[dict[str, Any]] = []
        self.version: int | None = None
        self.seat: int | None = None

    @classmethod
    async def open(cls, table_id: int, user: Any = None, *, query: str = "",
                   name: str = "") -> Client:
        comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/{query}")
        comm.scope["user"] = user or AnonymousUser()
        connected, _ = await comm.connect(timeout=5)
        assert connected
        client = cls(comm, user, name or (user.username if user else "spectator"))
        if not query:  # a first connect is answered with a snapshot: wait for it
            await client.until(lambda: client.version is not None, what="the snapshot")
        return client

    async def close(self) -> None:
        await self.comm.disconnect()

    def take(self, frame: dict[str, Any]) -> None:
        """Record a frame; an `events` frame is recorded as the `event` frames it holds."""
        if frame["type"] == "events":
            assert len(frame["events"]) > 1, frame
            for one in frame["events"]:
                assert one["type"] == "event", frame
                self.take(one)
            return
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.version = frame["version"]
            self.seat = frame["you"]["seat"]
        elif frame["type"] == "event":
            assert self.version is None or frame["version"] == self.version + 1, (
                f"{self.name}: version {frame['version']} after {self.version}")
            self.version = frame["version"]
            event = frame["event"]
            if event["type"] == "seat_taken" and self.user and event["player_id"] == self.user.pk:
                self.seat = event["seat"]

    async def drain(self, wait: float = 0.05) -> None:
        """Read frames until none has come for `wait` seconds (0: only those already here)."""
        while not await self.comm.receive_nothing(timeout=wait, interval=0.005):
            await self.read_one()

    async def read_one(self) -> None:
        """Read a frame that is waiting (receive_nothing said so: a receive that times out
        would cancel the consumer)."""
        frame = await self.comm.receive_json_from(timeout=5)
        self.wire.append(frame)
        self.take(frame)

    async def until(self, predicate: Callable[[], bool], timeout: float = 10.0,
                    what: str = "") -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            if loop.time() > deadline:
                raise AssertionError(f"{self.name}: timed out waiting for {what}; last frames "
                                     f"{self.frames[-3:]}")
            if not await self.comm.receive_nothing(timeout=0.05, interval=0.002):
                await self.read_one()  # one frame at a time: done as soon as it holds

    async def send(self, **message: Any) -> None:
        """Send a message; money-moving ones get a fresh `request_id` unless given one."""
        if message.get("type") in ("sit", "top_up", "leave") and "request_id" not in message:
            message["request_id"] = uuid.uuid4().hex
        self.sent.append(message)
        await self.comm.send_json_to(message)

    async def send_raw(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def request(self, **message: Any) -> dict[str, Any]:
        """Send and return the next error frame (for requests that must fail)."""
        count = len(self.frames)
        await self.send(**message)
        await self.until(lambda: any(f["type"] == "error" for f in self.frames[count:]),
                         what=f"an error for {message}")
        return next(f for f in self.frames[count:] if f["type"] == "error")

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [f["event"] for f in self.frames
                if f["type"] == "event" and (kind is None or f["event"]["type"] == kind)]

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]

    def my_turn(self) -> dict[str, Any] | None:
        """The legal actions when the last frame is this player's `turn` event."""
        if not self.frames or self.frames[-1]["type"] != "event":
            return None
        event = self.frames[-1]["event"]
        if event["type"] == "turn" and event.get("legal") and event["seat"] == self.seat:
            return event["legal"]
        return None

    def raw_frames(self) -> str:
        return json.dumps(self.frames)


async def seated(table: Any, *users: Any, amount: int = 200) -> list[Client]:
    """Each user opens a socket and sits down at seat 1, 2, ... with `amount`."""
    clients = []
    for n, user in enumerate(users, start=1):
        c = await Client.open(table.pk, user)
        await c.drain()
        await c.send(type="sit", seat=n, amount=amount)
        await c.until(lambda c=c: c.seat is not None, what="seat_taken")
        clients.append(c)
    return clients


def choose(legal: dict[str, Any], rng: random.Random | None, passive: bool) -> dict[str, Any]:
    """An `act`/`show` message for these legal actions (check/call down when passive)."""
    if legal["show"] or legal["muck"]:
        kind = "show" if passive or rng is None else rng.choice(["show", "muck"])
        return {"type": kind}
    if passive or rng is None:
        return {"type": "act", "action": "check" if legal["check"] else "call"}
    options: list[dict[str, Any]] = [
        {"type": "act", "action": "check" if legal["check"] else "call"}]
    if rng.random() < 0.15:
        options.append({"type": "act", "action": "fold"})
    if legal["bet"] or legal["raise"]:
        amount = rng.choice([legal["min_to"], legal["max_to"],
                             (legal["min_to"] + legal["max_to"]) // 2])
        options.append({"type": "act", "action": "bet" if legal["bet"] else "raise",
                        "amount": amount})
    return rng.choice(options)


async def play_hand(players: list[Client], watchers: list[Client], *,
                    rng: random.Random | None = None, passive: bool = True,
                    timeout: float = 30.0) -> None:
    """Act for whoever's turn it is until every client has seen `hand_end`."""
    everyone = players + watchers
    ends = {c.name: len(c.events("hand_end")) for c in everyone}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        await asyncio.sleep(0.005)  # let the frames on their way arrive, then read them all
        for c in everyone:
            await c.drain(0)
        if all(len(c.events("hand_end")) > ends[c.name] for c in everyone):
            return
        assert loop.time() < deadline, "the hand did not finish"
        for c in players:
            legal = c.my_turn()
            if legal is not None:
                before = c.version
                await c.send(**choose(legal, rng, passive), version=c.version)
                await c.until(lambda c=c, v=before: c.version > v or bool(c.errors()),
                              what="a reply")
                assert not c.errors(), c.errors()
                break
