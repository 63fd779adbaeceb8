"""The tournament's socket, /ws/tournaments/<id>/ (docs/protocol.md, "Tournament socket"):
a snapshot, then the tournament's versioned events as its log records them, with resume
from a version — the table socket's stream (`EventStream`), on the tournament's own log.
Read-only: registering goes through the page's forms."""
from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from channels.db import database_sync_to_async

from tables.consumers import BadRequest, EventStream, query_last_version
from tables.groups import server_loop_use, tournament_group
from tables.tournaments.models import Tournament
from tables.tournaments.snapshots import tournament_events_since, tournament_snapshot


class TournamentConsumer(EventStream):
    """One viewer of one tournament: anyone may watch (every tournament event is public)."""

    tournament_id: int

    async def connect(self) -> None:
        if not await self.admitted():
            return
        server_loop_use(asyncio.get_running_loop())
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.stream_start()
        if not await database_sync_to_async(_exists)(self.tournament_id):
            await self.close(code=4404)
            return
        await self.stream_join(tournament_group(self.tournament_id))
        await self.accept()
        await self.resync(query_last_version(self.scope))

    def read_snapshot(self) -> Mapping[str, Any]:
        return tournament_snapshot(tournament_id=self.tournament_id)

    def read_events(self, last_version: int) -> list[dict[str, Any]] | None:
        return tournament_events_since(tournament_id=self.tournament_id,
                                       last_version=last_version)

    async def handle(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if not await self.stream_message(kind, content):
            raise BadRequest("unknown_type", f"Unknown message type {kind!r}: the tournament "
                             "socket understands ping, snapshot and hello (docs/protocol.md).")


def _exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()
