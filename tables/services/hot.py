"""Hot tables: mid-hand actions in one statement, without a transaction or a row lock.

Each server process remembers, per table, the table row, its config and its running hand as
the last commit it saw left them (`remember_on_commit`). An action at a remembered table is
decided on that copy and written by one statement that applies only if the table is still at
that version (`apply`): the table row's version moves on, the hand is saved and the events
are inserted, or, if anything else happened at the table meanwhile (another process, a timer,
a seat change), nothing is written and the caller takes the locked path, which reads the table
afresh. The database stays the truth: the copy only spares reading it back, and the version
check makes a stale copy harmless. PostgreSQL only (elsewhere nothing is remembered).

Saves an action the transaction (BEGIN, lock, hand read, COMMIT: four round trips and the
ORM's transaction bookkeeping) and the conversion of the rows read back.
"""
from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from tables.models import Hand, TableState
from tables.services.rows import hot_statement

_hot: dict[int, HotTable] = {}
_guard = threading.Lock()


@dataclass(frozen=True)
class HotTable:
    """A table as committed at `state.version`. Never changed: `checkout` hands out copies."""

    state: TableState  # the table row, with `table` (its config) loaded
    hand: Hand

    @property
    def version(self) -> int:
        return self.state.version

    def checkout(self) -> tuple[TableState, Hand]:
        """A table row and hand to work on (copies: this entry stays as it was)."""
        return _copies(self.state, self.hand)


def _copies(ts: TableState, hand: Hand) -> tuple[TableState, Hand]:
    """Copies of the table row and its hand, the row's `hand` being the copy (Django's copy of
    a model instance has its own cache of related objects; the config stays shared: nothing
    here changes it)."""
    ts, hand = copy.copy(ts), copy.copy(hand)
    ts._state.fields_cache["hand"] = hand
    return ts, hand


def _entry(ts: TableState, hand: Hand) -> HotTable:
    return HotTable(*_copies(ts, hand))


def enabled() -> bool:
    return connection.vendor == "postgresql"


def get(table_id: int) -> HotTable | None:
    return _hot.get(table_id)


def remember_on_commit(ts: TableState) -> None:
    """After the current transaction commits, remember the table as it leaves it (its hand
    running), or forget it (no hand running). Call once the table row and hand are final."""
    if not enabled():
        return
    hand = ts.hand
    if hand is None or hand.finished_at is not None:
        table_id = ts.pk
        transaction.on_commit(lambda: _forget(table_id))
        return
    entry = _entry(ts, hand)
    transaction.on_commit(lambda: _keep(entry))


def _keep(entry: HotTable) -> None:
    with _guard:  # a slower thread must not put back an older copy
        current = _hot.get(entry.state.pk)
        if current is None or current.version < entry.version:
            _hot[entry.state.pk] = entry


def _forget(table_id: int) -> None:
    with _guard:
        _hot.pop(table_id, None)


def apply(*, ts: TableState, hand: Hand, before: int, rows: list[dict[str, Any]],
          hand_fields: list[str]) -> bool:
    """Write the step decided on a copy at table version `before`, in one statement, if the
    table is still there, and remember the result; the caller then broadcasts. False (nothing
    written, the table forgotten) when the table moved on. Outside a transaction only: the
    statement commits on its own."""
    if connection.in_atomic_block:
        raise RuntimeError("a hot action must not run inside a transaction")
    sql, params = hot_statement(ts=ts, hand=hand, before=before, rows=rows,
                                hand_fields=hand_fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        applied = cursor.fetchone()[0] == 1
    if not applied:
        _forget(ts.table_id)
        return False
    _keep(_entry(ts, hand))
    return True
