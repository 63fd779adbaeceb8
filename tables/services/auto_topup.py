"""Automatic top-ups and rebuys: a player's standing order (`AutoTopUp`) carried out between
hands through the cashier, exactly like a top-up he asked for himself (`top_up`: wallet →
escrow now, onto the stack when `top_ups_join` runs at hand start).

`auto_top_ups_request` runs in `hand_start` under the table lock, before `top_ups_join`, so
the chips bought play in the hand about to be dealt."""
from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from cashier.errors import CashierError
from cashier.models import AccountKind, LedgerAccount, PendingTopUp, TopUpStatus
from cashier.services import top_up
from tables.errors import TableError
from tables.models import AutoTopUp, AutoTopUpMode, Seat, SeatStatus, TableConfig
from tables.services.locks import table_lock
from tables.services.seating import back_in_if_busted
from tables.services.stacks import money_terms


def auto_top_up_set(*, table: TableConfig, user_id: int, mode: str,
                    threshold_bb: int = 0) -> AutoTopUp | None:
    """Set (or with mode "off", clear) the player's standing order at `table`.
    Refusals: `bad_mode`, `bad_threshold` (mode "below" needs 1 to the maximum buy-in in BB).
    Locks: the table row (a table's orders change under its lock, like its seats: locks.py)."""
    if mode not in (*AutoTopUpMode.values, "off"):
        raise TableError("bad_mode", "Choose off, to the maximum, or below a number of big blinds.")
    if mode == AutoTopUpMode.BELOW and not 1 <= threshold_bb <= table.max_buy_in_bb:
        raise TableError("bad_threshold", "Give a number of big blinds from 1 to "
                                          f"{table.max_buy_in_bb} (the maximum buy-in).")
    if mode == AutoTopUpMode.TO_MAX:
        threshold_bb = 0
    with transaction.atomic():
        table_lock(table.pk)
        if mode == "off":
            AutoTopUp.objects.filter(table=table, player_id=user_id).delete()
            return None
        order, _ = AutoTopUp.objects.update_or_create(
            table=table, player_id=user_id, defaults={"mode": mode, "threshold_bb": threshold_bb})
        return order


def _wanted(order: AutoTopUp, table: TableConfig, on_table: int) -> int:
    """Chips the order asks for with `on_table` (stack + pending top-ups): up to the maximum."""
    if order.mode == AutoTopUpMode.BELOW and on_table >= order.threshold_bb * table.big_blind:
        return 0
    return max(table.max_buy_in - on_table, 0)


def auto_top_ups_request(*, table: TableConfig) -> list[dict[str, Any]]:
    """Queue the top-ups the table's standing orders ask for; returns the events to log
    (`top_up` with `pending`, and `status` for a busted player who is dealt in again).

    A player who is leaving, or sitting out with chips, is skipped; a wallet short of the full
    amount buys what it holds (a rebuy needs at least the minimum buy-in); a refusal by the
    cashier (self-exclusion, funds gone meanwhile) skips that player and changes nothing.
    Needs the table lock (call from `hand_start`, before `top_ups_join`); then takes the
    cashier's locks like `seat_top_up`."""
    orders = {o.player_id: o for o in AutoTopUp.objects.filter(table=table)}
    if not orders:
        return []
    seats = list(Seat.objects.filter(table=table, player_id__in=orders, leave_after_hand=False)
                 .order_by("pk"))
    wallets = dict(LedgerAccount.objects.filter(
        kind=AccountKind.WALLET, currency=table.currency, user_id__in=orders,
    ).values_list("user_id", "balance"))
    events: list[dict[str, Any]] = []
    for seat in seats:
        busted = seat.chips == 0
        if seat.status == SeatStatus.SITTING_OUT and not busted:
            continue
        pending = sum(PendingTopUp.objects.filter(seat=seat, status=TopUpStatus.PENDING)
                      .values_list("amount", flat=True))
        on_table = seat.chips + pending
        amount = min(_wanted(orders[seat.player_id], table, on_table),
                     wallets.get(seat.player_id, 0))
        if amount <= 0 or (on_table == 0 and amount < table.min_buy_in):
            continue
        try:  # a savepoint: a refusal undoes only this player's top-up
            with transaction.atomic():
                # No client to retry this request: it runs once per hand start, under the
                # table lock, so its key only has to be new.
                row = top_up(terms=money_terms(table), seat_id=seat.pk,
                             player_id=seat.player_id, on_table=on_table, amount=amount,
                             idempotency_key=f"auto-top-up:{seat.pk}:{uuid.uuid4().hex}")
        except CashierError:
            continue
        events.append({"type": "top_up", "seat": seat.number, "amount": row.amount,
                       "pending": True})
        back = back_in_if_busted(seat)  # busted: dealt in again, as with a top-up by hand
        if back is not None:
            events.append(back)
    return events
