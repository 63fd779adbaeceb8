"""The tournament socket end to end over the real Redis pub/sub (docs/protocol.md,
"Tournament socket"): a snapshot, then the tournament's events as its log records them, in
version order, and a reconnect that resumes from its last version."""
from __future__ import annotations

import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pokerroom.routing import websocket_urlpatterns
from tables.events import tournament_problems, tournament_snapshot_problems
from tables.tournaments.models import Tournament
from tables.tournaments.services import tournament_register
from tests.tables.tournaments.factories import tournament_make
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]
application = URLRouter(websocket_urlpatterns)


class Watcher(Client):
    """The table test client on /ws/tournaments/<id>/ (same frames, same version checks)."""

    @classmethod
    async def open(cls, tournament_id: int, user=None, *, query: str = "",  # type: ignore[override]
                   name: str = "") -> Watcher:
        comm = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/{query}")
        comm.scope["user"] = user or AnonymousUser()
        connected, _ = await comm.connect(timeout=5)
        assert connected
        client = cls(comm, user, name or "watcher")
        if not query:
            await client.until(lambda: client.version is not None, what="the snapshot")
        return client

    def take(self, frame: dict) -> None:
        if frame["type"] == "snapshot":  # (a tournament snapshot has no seat of his)
            self.frames.append(frame)
            self.version = frame["version"]
            return
        super().take(frame)


@sync_to_async
def register(tournament: Tournament, user) -> None:
    tournament_register(tournament_id=tournament.pk, user=user, key=str(uuid.uuid4()))


@sync_to_async
def version_of(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


async def test_a_spectator_gets_the_snapshot_then_every_event_in_order(make_player):
    """Six players fill a Sit & Go while a spectator watches: he sees each registration
    with the field and payouts, the start with the tables, level 1 with when it ends."""
    sng = await sync_to_async(tournament_make)()
    watcher = await Watcher.open(sng.pk)
    snap = watcher.frames[0]
    assert tournament_snapshot_problems(snap) == []
    assert (snap["version"], snap["tournament"]["state"], snap["entries"]) == (1, "registering", 0)
    assert snap["payouts"] == [{"place": 1, "share": 10_000, "prize": 0}]
    players = [await sync_to_async(make_player)(f"p{k}") for k in range(1, 7)]
    for user in players:
        await register(sng, user)
    current = await version_of(sng)
    await watcher.until(lambda: watcher.version == current, what="the start")
    seen = watcher.events()
    assert all(tournament_problems(e) == [] for e in seen), seen
    assert [e["type"] for e in seen] == ["registered"] * 6 + ["started", "level"]
    assert [e["player"] for e in seen[:6]] == [u.table_name for u in players]
    assert seen[5]["payouts"] == [{"place": 1, "share": 6_500, "prize": 3_900},
                                  {"place": 2, "share": 3_500, "prize": 2_100}]
    [table] = seen[6]["tables"]
    assert sorted(p["player_id"] for p in table["players"]) == sorted(u.pk for u in players)
    assert seen[7]["level"] == 1 and seen[7]["until"] is not None
    await watcher.close()


async def test_a_reconnect_resumes_from_its_last_version(make_player):
    sng = await sync_to_async(tournament_make)()
    ann, bob = await sync_to_async(make_player)("ann"), await sync_to_async(make_player)("bob")
    await register(sng, ann)
    await register(sng, bob)
    # From version 1 (`created`): the two registrations, no snapshot.
    again = await Watcher.open(sng.pk, query="?last_version=1")
    await again.until(lambda: again.version == 3, what="the missed events")
    assert [f["type"] for f in again.frames] == ["event", "event"]
    assert [e["player"] for e in again.events()] == ["ann", "bob"]
    # `hello` on an open socket does the same; a version from the future gets a snapshot.
    await again.send(type="hello", last_version=3)
    await again.drain()
    assert len(again.frames) == 2
    await again.send(type="hello", last_version=99)
    await again.until(lambda: again.frames[-1]["type"] == "snapshot", what="a snapshot")
    assert again.frames[-1]["version"] == 3 and again.frames[-1]["players_left"] == 2
    await again.close()


async def test_unknown_tournaments_and_messages_are_refused(make_player):
    comm = WebsocketCommunicator(application, "/ws/tournaments/999999/")
    connected, code = await comm.connect()
    assert not connected and code == 4404
    sng = await sync_to_async(tournament_make)()
    watcher = await Watcher.open(sng.pk, await sync_to_async(make_player)("ann"))
    error = await watcher.request(type="act", action="fold")
    assert error["code"] == "unknown_type" and "'act'" in error["message"]
    await watcher.send(type="ping")
    await watcher.until(lambda: watcher.frames[-1]["type"] == "pong", what="pong")
    await watcher.close()
