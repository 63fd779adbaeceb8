"""Read-only queries for the lobby."""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Avg, Count, Q, QuerySet, Sum
from django.utils import timezone

from tables.models import Currency, HandSummary, TableConfig

STATS_WINDOW = datetime.timedelta(hours=1)


@dataclass(frozen=True)
class LobbyFilters:
    structure: str = ""
    currency: str = ""
    min_big_blind: Decimal | None = None  # in whole units: dollars at real-money tables, chips at play
    max_big_blind: Decimal | None = None
    hide_full: bool = False


@dataclass(frozen=True)
class LobbyRow:
    table: TableConfig
    seats_taken: int
    average_pot: int
    players_per_flop_percent: int
    hands_per_hour: int

    @property
    def average_pot_label(self) -> str:
        return self.table.money_label(self.average_pot)

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.table.max_seats


def lobby_tables(filters: LobbyFilters) -> QuerySet[TableConfig]:
    tables = TableConfig.objects.filter(is_active=True).annotate(seats_taken=Count("seats"))
    if filters.structure:
        tables = tables.filter(structure=filters.structure)
    if filters.currency:
        tables = tables.filter(currency=filters.currency)
    if filters.min_big_blind is not None:
        tables = tables.filter(
            Q(currency=Currency.REAL, lower_stake__gte=filters.min_big_blind * 100)
            | Q(currency=Currency.PLAY, lower_stake__gte=filters.min_big_blind)
        )
    if filters.max_big_blind is not None:
        tables = tables.filter(
            Q(currency=Currency.REAL, lower_stake__lte=filters.max_big_blind * 100)
            | Q(currency=Currency.PLAY, lower_stake__lte=filters.max_big_blind)
        )
    return tables


def lobby_rows(filters: LobbyFilters, *, now: datetime.datetime | None = None) -> list[LobbyRow]:
    """Each table with its statistics over the last hour of finished hands (zero when idle)."""
    since = (now or timezone.now()) - STATS_WINDOW
    tables = list(lobby_tables(filters))
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
    rows = []
    for table in tables:
        s = stats.get(table.pk)
        row = LobbyRow(
            table=table,
            seats_taken=table.seats_taken,
            average_pot=round(s["avg_pot"]) if s else 0,
            players_per_flop_percent=(100 * s["saw_flop"] // s["dealt"]) if s and s["dealt"] else 0,
            hands_per_hour=s["hands"] if s else 0,
        )
        if not (filters.hide_full and row.is_full):
            rows.append(row)
    return rows

