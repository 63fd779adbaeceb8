"""The table's side of table money, and the one place that tells a cash table from a
tournament's: what the cashier is told of a table (`money_terms`), a hand's settlement
(`hand_settle`), and the money steps a tournament table refuses (`money_refuse`).

The cashier moves money between wallets, the table's escrow and the house and returns the
stacks' changes; the table's event log writes them (eventlog.py `EventLog.stacks`). A
tournament table's seats hold tournament chips, which are not money: no escrow, no buy-in,
top-up, cash-out, settlement or rake; its stacks change by the hand's result alone."""
from __future__ import annotations

from collections.abc import Mapping

from cashier.services import StackChanges, TableTerms, settle_hand
from tables.errors import TableError
from tables.models import Structure, TableConfig


def money_terms(table: TableConfig) -> TableTerms:
    """The table's currency, buy-in limits and ratholing rule, as the cashier takes them."""
    money_refuse(table)
    return TableTerms(
        table_id=table.pk, currency=table.currency, min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in, fixed_limit=table.structure == Structure.FIXED_LIMIT,
        ratholing_window_minutes=table.ratholing_window_minutes,
    )


def money_refuse(table: TableConfig) -> None:
    """Refuse a money step (sit down with a buy-in, top up, leave with a cash-out) at a
    tournament table: its seats are the tournament's to fill and empty."""
    if table.is_tournament:
        raise TableError("tournament_table", "This is a tournament table: its seats are "
                         "dealt by the tournament, and its chips are not money.")


def hand_settle(table: TableConfig, *, hand_id: int, hand_number: int,
                deltas: Mapping[int, int], rake: int,
                stacks: Mapping[int, int]) -> StackChanges:
    """The stack changes of a finished hand (seat id → chips won or lost). A cash table's
    go through the cashier (escrow checked, rake to the house); a tournament table's are the
    hand's result as it is (tournament tables take no rake)."""
    if table.is_tournament:
        if rake:
            raise RuntimeError(f"hand {hand_id}: a tournament table takes no rake")
        return StackChanges(deltas={seat: delta for seat, delta in deltas.items() if delta})
    _, changes = settle_hand(terms=money_terms(table), hand_id=str(hand_id),
                             hand_number=hand_number, deltas=deltas, rake=rake, stacks=stacks)
    return changes
