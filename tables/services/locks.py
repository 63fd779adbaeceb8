"""The lock every tables service takes first.

Lock order (all tables services, so they cannot deadlock with each other or the cashier):

1. the TableState row ("the table row") — `table_lock`, always first, one per service;
2. then the cashier's own order when money moves (idempotency record, ledger accounts in
   ascending id, seats in ascending id, pending top-ups; see cashier/services/ledger.py);
3. seats, hands and events of that table, which are only ever written under lock 1, so their
   own row locks are never contended.

Cashier operations that touch seats (buy-in, top-up, cash-out, settlement) are only called by
these services, i.e. under lock 1. On SQLite transactions are IMMEDIATE (serialised), so the
same code is safe without row locks.
"""
from __future__ import annotations

from django.db import transaction

from tables.errors import TableError
from tables.models import TableConfig, TableState
from tables.services.effects import Effects
from tables.services.rows import table_row_lock


def table_lock(table_id: int) -> TableState:
    """Lock and return the table's runtime row (with `table` and `hand` loaded, the hand as it
    is under the lock), creating it on first use, with `effects`: what the step does after it
    commits (effects.py). Call inside `transaction.atomic()`."""
    state = table_row_lock(table_id)
    if state is None:
        if not TableConfig.objects.filter(pk=table_id).exists():
            raise TableError("no_table", f"There is no table {table_id}.")
        TableState.objects.get_or_create(table_id=table_id)
        state = table_row_lock(table_id)
    state.effects = Effects(table_id)
    transaction.on_commit(state.effects.run)
    return state
