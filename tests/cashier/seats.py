"""The cashier's table money as the tables app drives it, for tests that call the cashier
directly with seats: under the table's lock (as every tables service), a seat's values go in,
and the stack changes that come back are written to the seats (as the table's event log
does, tables/services/eventlog.py `EventLog.stacks`)."""
from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.db.models import F, Sum

from cashier import services
from cashier.models import CashOut, HandSettlement, LedgerTransaction, PendingTopUp, TopUpStatus
from cashier.services import StackChanges
from tables.models import Seat, TableConfig
from tables.services.locks import table_lock
from tables.services.stacks import money_terms


def _pending(seat: Seat) -> int:
    return PendingTopUp.objects.filter(seat=seat, status=TopUpStatus.PENDING).aggregate(
        total=Sum("amount"))["total"] or 0


def stacks_write(changes: StackChanges) -> None:
    """Write the cashier's stack changes, as the table's event log does."""
    for seat_id, delta in changes.deltas.items():
        Seat.objects.filter(pk=seat_id).update(chips=F("chips") + delta)
    with connection.cursor() as cursor:
        for sql, params in changes.writes:
            cursor.execute(sql, params)


def _table(seat: Seat) -> TableConfig:
    return TableConfig.objects.get(pk=seat.table_id)


def buy_in(*, seat: Seat, amount: int, idempotency_key: str) -> LedgerTransaction:
    with transaction.atomic():
        table_lock(seat.table_id)
        current = Seat.objects.get(pk=seat.pk)
        tx, changes = services.buy_in(
            terms=money_terms(_table(seat)), seat_id=seat.pk, player_id=seat.player_id,
            on_table=current.chips + _pending(seat), amount=amount,
            idempotency_key=idempotency_key)
        stacks_write(changes)
    seat.refresh_from_db(fields=["chips"])
    return tx


def top_up(*, seat: Seat, amount: int, idempotency_key: str) -> PendingTopUp:
    with transaction.atomic():
        table_lock(seat.table_id)
        current = Seat.objects.get(pk=seat.pk)
        return services.top_up(terms=money_terms(_table(seat)), seat_id=seat.pk,
                               player_id=seat.player_id,
                               on_table=current.chips + _pending(seat), amount=amount,
                               idempotency_key=idempotency_key)


def apply_top_ups(*, table: TableConfig) -> list[PendingTopUp]:
    with transaction.atomic():
        table_lock(table.pk)
        chips = dict(Seat.objects.filter(table=table).values_list("pk", "chips"))
        rows, changes = services.apply_top_ups(terms=money_terms(table), chips=chips)
        stacks_write(changes)
    return rows


def cash_out(*, seat: Seat, idempotency_key: str) -> CashOut:
    with transaction.atomic():
        table_lock(seat.table_id)
        current = Seat.objects.get(pk=seat.pk)
        record, changes = services.cash_out(
            terms=money_terms(_table(seat)), seat_id=seat.pk, player_id=seat.player_id,
            chips=current.chips, idempotency_key=idempotency_key)
        stacks_write(changes)
    seat.refresh_from_db(fields=["chips"])
    return record


def settle_hand(*, table: TableConfig, hand_id: str, deltas: dict[int, int], rake: int,
                hand_number: int | None = None, **extra: Any) -> HandSettlement:
    with transaction.atomic():
        table_lock(table.pk)
        stacks = dict(Seat.objects.filter(table=table).values_list("pk", "chips"))
        settlement, changes = services.settle_hand(
            terms=money_terms(table), hand_id=hand_id, deltas=deltas, rake=rake,
            stacks=stacks, hand_number=hand_number, **extra)
        stacks_write(changes)
    return settlement


def ratholing_minimum(*, table: TableConfig, player: Any) -> int:
    return services.ratholing_minimum(terms=money_terms(table), player=player)
