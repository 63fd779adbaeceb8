"""Read-only queries for the lobby: the tables, their statistics, sorting."""
from __future__ import annotations

import datetime
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Avg, Count, DateTimeField, IntegerField, Sum, Value
from django.db.models.functions import Cast
from django.utils import timezone

from cashier.money import MINOR_PER_UNIT, Currency
from cashier.services import exclusions_running
from tables.models import HandSummary, Seat, TableConfig, WaitingListEntry

STATS_WINDOW = datetime.timedelta(hours=1)


@dataclass(frozen=True)
class LobbyFilters:
    structure: str = ""
    currency: str = ""
    min_big_blind: Decimal | None = None  # in whole units: dollars at real-money tables, chips at play
    max_big_blind: Decimal | None = None
    hide_full: bool = False
    sort: str = ""  # a key of SORT_KEYS; "" keeps the default order (money, game, stakes, name)
    descending: bool = False


@dataclass(frozen=True)
class LobbyRow:
    table: TableConfig
    seats_taken: int
    average_pot: int
    players_per_flop_percent: int
    hands_per_hour: int
    average_stack: int = 0  # mean chips of the seated players, 0 at an empty table
    waiting: int = 0  # players on the waiting list
    seats_held: int = 0  # free seats held for a waiting player (a live offer)

    @property
    def average_pot_label(self) -> str:
        return self.table.money_label(self.average_pot)

    @property
    def average_stack_label(self) -> str:
        return self.table.money_label(self.average_stack) if self.seats_taken else "—"

    @property
    def rake_label(self) -> str:
        """ "5% cap $3", "2.5% no cap", "none": what the house takes from each pot."""
        table = self.table
        if not table.rake_percent:
            return "none"
        percent = f"{table.rake_percent.normalize():f}%"
        cap = f"cap {table.money_label(table.rake_cap)}" if table.rake_cap else "no cap"
        if table.rake_cap_by_players:
            cap = "cap by players" if not table.rake_cap else f"{cap}, by players"
        return f"{percent} {cap}"

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.table.max_seats

    @property
    def has_free_seat(self) -> bool:
        """A seat anybody may take now: not taken, not held for the waiting list."""
        return self.seats_taken + self.seats_held < self.table.max_seats


def admitted(row: LobbyRow, filters: LobbyFilters) -> bool:
    """Whether the lobby's filters show this row (big blinds in whole currency units)."""
    table = row.table
    if filters.structure and table.structure != filters.structure:
        return False
    if filters.currency and table.currency != filters.currency:
        return False
    unit = MINOR_PER_UNIT[Currency(table.currency)]
    if filters.min_big_blind is not None and table.lower_stake < filters.min_big_blind * unit:
        return False
    if filters.max_big_blind is not None and table.lower_stake > filters.max_big_blind * unit:
        return False
    return not (filters.hide_full and row.is_full)


# Sort keys of the lobby's columns (`?sort=avg_pot&dir=desc`); ties keep the default order.
SORT_KEYS: dict[str, tuple[str, Callable[[LobbyRow], Any]]] = {
    "id": ("Table id", lambda r: r.table.pk),
    "name": ("Name", lambda r: r.table.name.lower()),
    "game": ("Game", lambda r: r.table.get_structure_display()),
    "stakes": ("Stakes", lambda r: (r.table.currency, r.table.lower_stake)),
    "money": ("Money", lambda r: r.table.currency),
    "seats": ("Seats", lambda r: (r.seats_taken, r.table.max_seats)),
    "waiting": ("Waiting", lambda r: r.waiting),
    "avg_pot": ("Average pot", lambda r: r.average_pot),
    "avg_stack": ("Average stack", lambda r: r.average_stack),
    "flop": ("Players/flop", lambda r: r.players_per_flop_percent),
    "hands": ("Hands/hour", lambda r: r.hands_per_hour),
    "rake": ("Rake", lambda r: (r.table.rake_percent, r.table.rake_cap)),
}


def lobby_rows(filters: LobbyFilters, *, now: datetime.datetime | None = None) -> list[LobbyRow]:
    """The tables the filters show, sorted as asked (from `rows_fresh`: a second or two old)."""
    rows = [row for row in (rows_compute(now) if now else rows_fresh()) if admitted(row, filters)]
    if filters.sort in SORT_KEYS:
        rows.sort(key=SORT_KEYS[filters.sort][1], reverse=filters.descending)
    return rows


_fresh_lock = threading.Lock()
_fresh: tuple[float, list[LobbyRow]] = (-math.inf, [])


def rows_fresh() -> list[LobbyRow]:
    """Every active table's row, computed at most once per ROOM_LOBBY_FRESH_SECONDS in this
    process: every lobby poll and socket reads it. Computing it reads the last hour's hands of
    every table, so its cost grows with the room; shared, it is paid once per interval however
    many players watch the lobby, not once per poll (500 tables: about 30 ms, against 5 s polls
    of hundreds of players). One caller computes; the others meanwhile take the rows of the
    interval before, and only the first ever waits (a page daphne serving 14 polls a second
    otherwise held each poll that came during a computation: poll p95 382 ms at 120 tables)."""
    global _fresh
    at, rows = _fresh
    if time.monotonic() - at < settings.ROOM_LOBBY_FRESH_SECONDS:
        return rows
    if not _fresh_lock.acquire(blocking=at == -math.inf):  # being computed: the last rows
        return rows
    try:
        at, rows = _fresh
        if time.monotonic() - at >= settings.ROOM_LOBBY_FRESH_SECONDS:
            rows = rows_compute()
            _fresh = (time.monotonic(), rows)
        return rows
    finally:
        _fresh_lock.release()


def rows_stamp() -> float:
    """When this process last computed the shared rows: what is drawn from them may be kept
    under it, and is drawn anew once the rows are."""
    return _fresh[0]


def rows_forget() -> None:
    """Drop the shared rows: the next reader computes them (tests start from a clean room)."""
    global _fresh
    with _fresh_lock:
        _fresh = (-math.inf, [])


def rows_compute(now: datetime.datetime | None = None) -> list[LobbyRow]:
    """Each active table with its statistics over the last hour of finished hands (zero when
    idle), its seated players' average stack and its waiting list, in the default order."""
    since = (now or timezone.now()) - STATS_WINDOW
    tables = list(TableConfig.objects.filter(is_active=True, tournament__isnull=True)  # cash
                  .annotate(seats_taken=Count("seats")))
    stats = {
        row["table"]: row
        for row in HandSummary.objects.filter(table__in=tables, finished_at__gte=since)
        .values("table")
        .annotate(
            hands=Count("id"),
            avg_pot=Avg("pot"),
            dealt=Sum("players_dealt"),
            saw_flop=Sum("players_saw_flop"),
        )
    }
    stacks = dict(Seat.objects.filter(table__in=tables).values("table")
                  .annotate(avg=Avg("chips")).values_list("table", "avg"))
    entries = WaitingListEntry.objects.filter(table__in=tables).values("table")
    waiting = dict(entries.annotate(n=Count("id")).values_list("table", "n"))
    held = dict(entries.filter(offered_seat__isnull=False, offer_expires_at__gt=timezone.now())
                .annotate(n=Count("id")).values_list("table", "n"))
    rows = []
    for table in tables:
        s = stats.get(table.pk)
        rows.append(LobbyRow(
            table=table,
            seats_taken=table.seats_taken,
            average_pot=round(s["avg_pot"]) if s else 0,
            players_per_flop_percent=(100 * s["saw_flop"] // s["dealt"]) if s and s["dealt"] else 0,
            hands_per_hour=s["hands"] if s else 0,
            average_stack=round(stacks[table.pk]) if stacks.get(table.pk) is not None else 0,
            waiting=waiting.get(table.pk, 0),
            seats_held=held.get(table.pk, 0),
        ))
    return rows


@dataclass(frozen=True)
class Places:
    """Where a lobby visitor sits and waits, and until when he is self-excluded (None: not)."""
    seated: frozenset[int]
    waiting: frozenset[int]
    excluded_until: datetime.datetime | None


def visitor_places(user_id: int, *, now: datetime.datetime | None = None) -> Places:
    """His seats, his waiting-list places and his running self-exclusion in one round trip:
    every open lobby asks every 5 s (what a poll reads is his own; the rows are shared)."""
    now = now or timezone.now()
    # typed NULLs: PostgreSQL takes a bare NULL parameter for text, which no union column is
    no_table, no_end = Cast(Value(None), IntegerField()), Cast(Value(None), DateTimeField())
    rows = (Seat.objects.filter(player_id=user_id).order_by()
            .values_list("table_id", Value(True), no_end)
            .union(WaitingListEntry.objects.filter(player_id=user_id).order_by()
                   .values_list("table_id", Value(False), no_end),
                   exclusions_running(user=user_id, now=now).order_by()
                   .values_list(no_table, Value(False), "ends_at"), all=True))
    seated, waiting, ends = set(), set(), []
    for table_id, at_table, ends_at in rows:
        if ends_at is not None:
            ends.append(ends_at)
        else:
            (seated if at_table else waiting).add(table_id)
    return Places(frozenset(seated), frozenset(waiting), max(ends, default=None))
