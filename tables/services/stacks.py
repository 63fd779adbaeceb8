"""The table's side of table money: what the cashier is told of a table (`money_terms`).

The cashier moves money between wallets, the table's escrow and the house and returns the
stacks' changes; the table's event log writes them (eventlog.py `EventLog.stacks`)."""
from __future__ import annotations

from cashier.services import TableTerms
from tables.models import Structure, TableConfig


def money_terms(table: TableConfig) -> TableTerms:
    """The table's currency, buy-in limits and ratholing rule, as the cashier takes them."""
    return TableTerms(
        table_id=table.pk, currency=table.currency, min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in, fixed_limit=table.structure == Structure.FIXED_LIMIT,
        ratholing_window_minutes=table.ratholing_window_minutes,
    )
