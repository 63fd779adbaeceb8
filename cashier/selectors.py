"""Read-only queries for the cashier page and admin."""
from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet, Sum

from cashier.models import (
    AccountKind,
    Deposit,
    LedgerAccount,
    LedgerTransaction,
    Withdrawal,
    WithdrawalStatus,
)
from cashier.money import Currency


def balances_for(*, user: Any) -> dict[str, int]:
    """The player's wallet balance per currency (0 for a wallet not opened yet)."""
    found = dict(
        LedgerAccount.objects.filter(user=user, kind=AccountKind.WALLET)
        .values_list("currency", "balance")
    )
    return {currency: found.get(currency, 0) for currency in Currency.values}


def history_for(*, user: Any, kind: str = "", currency: str = "") -> QuerySet[LedgerTransaction]:
    """The player's transactions, newest first, each annotated with `wallet_change` (what it did
    to the player's wallet; 0 for a move that did not touch it, such as a hand's rake)."""
    rows = LedgerTransaction.objects.filter(user=user)
    if kind:
        rows = rows.filter(kind=kind)
    if currency:
        rows = rows.filter(currency=currency)
    return rows.select_related("table").annotate(
        wallet_change=Sum(
            "entries__amount",
            filter=Q(entries__account__kind=AccountKind.WALLET, entries__account__user=user),
            default=0,
        )
    ).order_by("-id")


def withdrawals_for(*, user: Any, limit: int = 10) -> QuerySet[Withdrawal]:
    return Withdrawal.objects.filter(user=user).order_by("-id")[:limit]


def pending_withdrawals_for(*, user: Any) -> QuerySet[Withdrawal]:
    return Withdrawal.objects.filter(user=user, status=WithdrawalStatus.PENDING).order_by("-id")


def deposits_for(*, user: Any, limit: int = 10) -> QuerySet[Deposit]:
    return Deposit.objects.filter(user=user).order_by("-id")[:limit]
