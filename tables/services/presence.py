"""Who has a socket open at a table: counted in the database per server process, because a
player's sockets may be served by different processes. The reconnect bonus needs it
(`hand_reconnect_bonus`): only a player whose every socket had dropped during his own turn
earns it.

A process that dies (kill -9, a crash) cannot count its sockets out. Each server process
therefore keeps a short-lived key alive in Redis (`server_alive`, refreshed by its hub) and
counts only the rows of live processes: a dead process's rows stop counting within
`SERVER_TTL` seconds. (A player who reconnects sooner than that after such a crash gets no
bonus: the room cannot yet tell his old socket is gone.)"""
from __future__ import annotations

import datetime
import uuid

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from tables.groups import sync_client
from tables.models import TablePresence

SERVER = uuid.uuid4().hex  # this process's boot id
SERVER_TTL = 15  # seconds a process counts as alive after its last heartbeat
HEARTBEAT_SECONDS = 5


def server_key(server: str) -> str:
    return f"{settings.ROOM_CHANNEL_PREFIX}:server:{server}"


def presence_join(*, table_id: int, user_id: int) -> datetime.datetime | None:
    """Count one more open socket of this process. Returns when his last socket dropped if he
    had none open in any live process (None for a second tab, or a first visit).
    Locks: his presence rows at the table."""
    TablePresence.objects.get_or_create(table_id=table_id, user_id=user_id, server=SERVER)
    with transaction.atomic():
        rows = list(TablePresence.objects.select_for_update()
                    .filter(table_id=table_id, user_id=user_id).order_by("pk"))
        alive = servers_alive({r.server for r in rows} - {SERVER}) | {SERVER}
        live = [r for r in rows if r.server in alive]
        dropped = None
        if not any(r.sockets for r in live):
            dropped = max((r.dropped_at for r in live if r.dropped_at), default=None)
        mine = next(r for r in rows if r.server == SERVER)
        if not mine.sockets:
            mine.open_since = timezone.now()
        mine.sockets, mine.dropped_at = mine.sockets + 1, None
        mine.save(update_fields=["sockets", "dropped_at", "open_since"])
        for r in live:  # his other sockets' closing times no longer say anything
            if r is not mine and r.dropped_at is not None:
                r.dropped_at = None
                r.save(update_fields=["dropped_at"])
        dead = [r.pk for r in rows if r.server not in alive]
        if dead:
            TablePresence.objects.filter(pk__in=dead).delete()
        return dropped


def presence_leave(*, table_id: int, user_id: int) -> None:
    """Count one socket of this process less; the last one marks when he dropped. One UPDATE
    (its SET reads the row as it was, so `sockets <= 1` means "this was the last one"): every
    socket that closes pays one round trip, not a locked read and a write in a transaction.
    Locks: his row for this process, for that statement."""
    TablePresence.objects.filter(table_id=table_id, user_id=user_id, server=SERVER).update(
        sockets=Greatest(F("sockets") - 1, 0),
        dropped_at=Case(When(sockets__lte=1, then=Value(timezone.now())),
                        default=F("dropped_at")))


def servers_alive(servers: set[str]) -> set[str]:
    """The server processes among `servers` whose heartbeat key is still in Redis."""
    if not servers:
        return set()
    names = sorted(servers)
    pipe = sync_client().pipeline(transaction=False)
    for name in names:
        pipe.exists(server_key(name))
    return {name for name, there in zip(names, pipe.execute(), strict=True) if there}


def watchers_since(*, table_id: int, since: datetime.datetime) -> set[int]:
    """The users with a socket open at the table, through a live process, ever since `since`
    (statistics: a hand started then was watched whole). A socket that dropped and came back
    restarts the count, so a hand partly missed is not credited."""
    rows = list(TablePresence.objects.filter(table_id=table_id, sockets__gt=0,
                                             open_since__lte=since)
                .values_list("user_id", "server"))
    alive = servers_alive({server for _user, server in rows})
    return {user for user, server in rows if server in alive}
