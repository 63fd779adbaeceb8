"""Real money in and out: deposits through a provider, withdrawals through the pending account.

Locks (see cashier.services.ledger for the global order): idempotency record, then the
Deposit/Withdrawal row when deciding one, then the ledger accounts in ascending id.
"""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from cashier import conf
from cashier.errors import CashierError
from cashier.models import (
    AccountKind,
    Deposit,
    DepositStatus,
    TransactionKind,
    Withdrawal,
    WithdrawalStatus,
)
from cashier.money import Currency, money_format
from cashier.providers import provider_get
from cashier.services.ledger import (
    accounts_lock,
    idempotent_run,
    ledger_post,
    system_account,
    wallet_account,
)
from cashier.services.responsible import deposit_limit_check, exclusion_check

REAL = Currency.REAL


def _positive(amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise CashierError("invalid_amount", "The amount must be a positive number of cents.")


# Deposits -------------------------------------------------------------------------------------
def deposit(
    *, user: Any, amount: int, provider: str, idempotency_key: str, card_number: str = ""
) -> Deposit:
    """Deposit real money. The sandbox approves or declines at once (a declined attempt is kept
    with status `declined`); the manual provider leaves the deposit `pending` for an admin.

    Refusals: `invalid_amount`, `unknown_provider`, `self_excluded`, `over_deposit_limit`.
    Locks: idempotency record, then the world and wallet REAL accounts (ascending id) — the
    wallet lock serialises one player's deposits, which keeps the limit check exact."""
    _positive(amount)
    if amount > conf.max_deposit():
        raise CashierError(
            "invalid_amount", f"A single deposit is at most {money_format(conf.max_deposit(), REAL)}."
        )
    payment_provider = provider_get(provider)
    if payment_provider is None:
        raise CashierError("unknown_provider", "Choose a payment method.")

    def apply() -> dict[str, Any]:
        exclusion_check(user=user, action="deposit")
        wallet = wallet_account(user=user, currency=REAL)
        world = system_account(kind=AccountKind.WORLD, currency=REAL)
        locked = accounts_lock([wallet, world])
        deposit_limit_check(user=user, amount=amount)
        outcome = payment_provider.charge(amount=amount, card_number=card_number)
        row = Deposit.objects.create(
            user=user, amount=amount, provider=provider, status=outcome.status,
            provider_reference=outcome.reference, message=outcome.message,
        )
        if outcome.status == DepositStatus.APPROVED:
            row.transaction = ledger_post(
                kind=TransactionKind.DEPOSIT, currency=REAL, user=user,
                legs=[(locked[world.pk], -amount), (locked[wallet.pk], amount)],
                memo=f"{provider} {outcome.reference}",
            )
            row.save(update_fields=["transaction"])
        return {"deposit_id": row.pk}

    result = idempotent_run(
        key=idempotency_key, operation="deposit", apply=apply,
        params={"user": user.pk, "amount": amount, "provider": provider, "card": card_number},
    )
    return Deposit.objects.get(pk=result["deposit_id"])


def _decide_deposit(*, deposit_id: int, by: Any, approve: bool, reason: str) -> dict[str, Any]:
    row = Deposit.objects.select_for_update().get(pk=deposit_id)
    if row.status != DepositStatus.PENDING:
        raise CashierError("not_pending", f"This deposit is already {row.get_status_display()}.")
    if approve:
        wallet = wallet_account(user=row.user, currency=REAL)
        world = system_account(kind=AccountKind.WORLD, currency=REAL)
        locked = accounts_lock([wallet, world])
        row.transaction = ledger_post(
            kind=TransactionKind.DEPOSIT, currency=REAL, user=row.user,
            legs=[(locked[world.pk], -row.amount), (locked[wallet.pk], row.amount)],
            memo=f"{row.provider} {row.provider_reference} approved by {by}",
        )
    row.status = DepositStatus.APPROVED if approve else DepositStatus.REJECTED
    row.decided_by = by
    row.decided_at = timezone.now()
    if reason:
        row.message = reason[:200]
    row.save(update_fields=["transaction", "status", "decided_by", "decided_at", "message"])
    return {"deposit_id": row.pk}


def deposit_approve(*, deposit: Deposit, by: Any, idempotency_key: str = "") -> Deposit:
    """Admin: credit a pending (manual) deposit. Refusal: `not_pending`.
    Locks: idempotency record, the Deposit row, then world and wallet accounts."""
    idempotent_run(
        key=idempotency_key or f"deposit_approve:{deposit.pk}", operation="deposit_approve",
        params={"deposit": deposit.pk},
        apply=lambda: _decide_deposit(deposit_id=deposit.pk, by=by, approve=True, reason=""),
    )
    return Deposit.objects.get(pk=deposit.pk)


def deposit_reject(
    *, deposit: Deposit, by: Any, reason: str = "", idempotency_key: str = ""
) -> Deposit:
    """Admin: refuse a pending deposit; no money moves. Refusal: `not_pending`."""
    idempotent_run(
        key=idempotency_key or f"deposit_reject:{deposit.pk}", operation="deposit_reject",
        params={"deposit": deposit.pk},
        apply=lambda: _decide_deposit(deposit_id=deposit.pk, by=by, approve=False,
                                      reason=reason),
    )
    return Deposit.objects.get(pk=deposit.pk)


# Withdrawals ----------------------------------------------------------------------------------
def withdrawal_request(*, user: Any, amount: int, idempotency_key: str) -> Withdrawal:
    """Move up to the available REAL balance from the wallet to the pending account.

    Refusals: `invalid_amount`, `insufficient_funds`.
    Locks: idempotency record, then the wallet and pending accounts (ascending id)."""
    _positive(amount)

    def apply() -> dict[str, Any]:
        wallet = wallet_account(user=user, currency=REAL)
        pending = system_account(kind=AccountKind.PENDING_WITHDRAWAL, currency=REAL)
        locked = accounts_lock([wallet, pending])
        tx = ledger_post(
            kind=TransactionKind.WITHDRAWAL_REQUEST, currency=REAL, user=user,
            legs=[(locked[wallet.pk], -amount), (locked[pending.pk], amount)],
        )
        row = Withdrawal.objects.create(
            user=user, amount=amount, status=WithdrawalStatus.PENDING, request_transaction=tx
        )
        return {"withdrawal_id": row.pk}

    result = idempotent_run(
        key=idempotency_key, operation="withdrawal_request", apply=apply,
        params={"user": user.pk, "amount": amount},
    )
    return Withdrawal.objects.get(pk=result["withdrawal_id"])


_DECISIONS = {
    WithdrawalStatus.CANCELLED: (TransactionKind.WITHDRAWAL_CANCEL, AccountKind.WALLET),
    WithdrawalStatus.REJECTED: (TransactionKind.WITHDRAWAL_REJECT, AccountKind.WALLET),
    WithdrawalStatus.APPROVED: (TransactionKind.WITHDRAWAL_APPROVE, AccountKind.WORLD),
}


def _decide_withdrawal(
    *, withdrawal_id: int, status: str, by: Any, reason: str, owner: Any = None
) -> dict[str, Any]:
    row = Withdrawal.objects.select_for_update().get(pk=withdrawal_id)
    if owner is not None and row.user_id != owner.pk:
        raise CashierError("not_found", "No such withdrawal.")
    if row.status != WithdrawalStatus.PENDING:
        raise CashierError(
            "not_pending", f"This withdrawal is already {row.get_status_display().lower()}."
        )
    kind, destination_kind = _DECISIONS[status]
    pending = system_account(kind=AccountKind.PENDING_WITHDRAWAL, currency=REAL)
    if destination_kind == AccountKind.WALLET:
        destination = wallet_account(user=row.user, currency=REAL)
    else:
        destination = system_account(kind=AccountKind.WORLD, currency=REAL)
    locked = accounts_lock([pending, destination])
    row.decision_transaction = ledger_post(
        kind=kind, currency=REAL, user=row.user,
        legs=[(locked[pending.pk], -row.amount), (locked[destination.pk], row.amount)],
    )
    row.status = status
    row.decided_by = by
    row.decided_at = timezone.now()
    row.reason = reason[:200]
    row.save(update_fields=["decision_transaction", "status", "decided_by", "decided_at",
                            "reason"])
    return {"withdrawal_id": row.pk}


def withdrawal_cancel(*, withdrawal: Withdrawal, user: Any, idempotency_key: str) -> Withdrawal:
    """The player takes a pending withdrawal back into the wallet.
    Refusals: `not_pending`, `not_found` (someone else's). Locks: idempotency record, the
    Withdrawal row, then the wallet and pending accounts."""
    idempotent_run(
        key=idempotency_key, operation="withdrawal_cancel",
        params={"withdrawal": withdrawal.pk, "user": user.pk},
        apply=lambda: _decide_withdrawal(withdrawal_id=withdrawal.pk,
                                         status=WithdrawalStatus.CANCELLED, by=user, reason="",
                                         owner=user),
    )
    return Withdrawal.objects.get(pk=withdrawal.pk)


def withdrawal_approve(*, withdrawal: Withdrawal, by: Any, idempotency_key: str = "") -> Withdrawal:
    """Admin: pay a pending withdrawal out (pending → world). Refusal: `not_pending`."""
    idempotent_run(
        key=idempotency_key or f"withdrawal_approve:{withdrawal.pk}",
        operation="withdrawal_approve", params={"withdrawal": withdrawal.pk},
        apply=lambda: _decide_withdrawal(withdrawal_id=withdrawal.pk,
                                         status=WithdrawalStatus.APPROVED, by=by, reason=""),
    )
    return Withdrawal.objects.get(pk=withdrawal.pk)


def withdrawal_reject(
    *, withdrawal: Withdrawal, by: Any, reason: str = "", idempotency_key: str = ""
) -> Withdrawal:
    """Admin: refuse a pending withdrawal (pending → wallet). Refusal: `not_pending`."""
    idempotent_run(
        key=idempotency_key or f"withdrawal_reject:{withdrawal.pk}",
        operation="withdrawal_reject", params={"withdrawal": withdrawal.pk},
        apply=lambda: _decide_withdrawal(withdrawal_id=withdrawal.pk,
                                         status=WithdrawalStatus.REJECTED, by=by,
                                         reason=reason),
    )
    return Withdrawal.objects.get(pk=withdrawal.pk)
