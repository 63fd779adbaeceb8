"""Cashier services: every money movement goes through these (keyword-only, typed).

Every one takes its locks in the room's one lock order, stated in tables/services/locks.py,
so no two can deadlock. SQLite runs transactions IMMEDIATE (serialised), so the same code is
safe there.
Every refusal is a `CashierError(code, message)` raised before anything is written, or inside
the transaction that it rolls back: nothing is ever half-applied.
"""
from __future__ import annotations

from cashier.errors import CashierError
from cashier.services.ledger import (
    accounts_lock,
    escrow_account,
    idempotent_run,
    ledger_post,
    ledger_transfer,
    pool_account,
    system_account,
    wallet_account,
)
from cashier.services.payments import (
    deposit,
    deposit_approve,
    deposit_reject,
    withdrawal_approve,
    withdrawal_cancel,
    withdrawal_reject,
    withdrawal_request,
)
from cashier.services.play_money import play_money_grant, play_money_reload
from cashier.services.responsible import (
    deposit_limit_check,
    deposit_limit_current,
    deposit_limit_pending,
    deposit_limit_set,
    exclusion_active,
    exclusion_check,
    exclusion_message,
    exclusion_text,
    exclusions_running,
    self_exclusion_start,
    session_reminder_at,
    session_reminder_due,
    session_reminder_set,
)
from cashier.services.table_money import (
    NO_CHANGE,
    StackChanges,
    TableTerms,
    apply_top_ups,
    buy_in,
    cash_out,
    pending_top_ups_sql,
    ratholing_minimum,
    settle_hand,
    top_up,
    top_up_claimed,
    top_ups_join,
)
from cashier.services.tournament_money import (
    tournament_enter,
    tournament_pay,
    tournament_purchase,
    tournament_purchase_refund,
    tournament_refund,
)

__all__ = [
    "NO_CHANGE",
    "CashierError",
    "StackChanges",
    "TableTerms",
    "accounts_lock",
    "apply_top_ups",
    "buy_in",
    "cash_out",
    "deposit",
    "deposit_approve",
    "deposit_limit_check",
    "deposit_limit_current",
    "deposit_limit_pending",
    "deposit_limit_set",
    "deposit_reject",
    "escrow_account",
    "exclusion_active",
    "exclusion_check",
    "exclusion_message",
    "exclusion_text",
    "exclusions_running",
    "idempotent_run",
    "ledger_post",
    "ledger_transfer",
    "pending_top_ups_sql",
    "play_money_grant",
    "play_money_reload",
    "pool_account",
    "ratholing_minimum",
    "self_exclusion_start",
    "session_reminder_at",
    "session_reminder_due",
    "session_reminder_set",
    "settle_hand",
    "system_account",
    "top_up",
    "top_up_claimed",
    "top_ups_join",
    "tournament_enter",
    "tournament_pay",
    "tournament_purchase",
    "tournament_purchase_refund",
    "tournament_refund",
    "wallet_account",
    "withdrawal_approve",
    "withdrawal_cancel",
    "withdrawal_reject",
    "withdrawal_request",
]
