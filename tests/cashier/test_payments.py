"""Deposits through the providers and withdrawals through the pending account."""
from __future__ import annotations

import pytest

from cashier.audit import ledger_audit
from cashier.models import AccountKind, DepositStatus, WithdrawalStatus
from cashier.money import Currency
from cashier.services import (
    CashierError,
    deposit,
    deposit_approve,
    deposit_reject,
    system_account,
    wallet_account,
    withdrawal_approve,
    withdrawal_cancel,
    withdrawal_reject,
    withdrawal_request,
)

from .conftest import SANDBOX_DECLINED, SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db
REAL = Currency.REAL


def real_balance(user) -> int:
    return wallet_account(user=user, currency=REAL).balance


def pending_balance() -> int:
    return system_account(kind=AccountKind.PENDING_WITHDRAWAL, currency=REAL).balance


# Deposits -------------------------------------------------------------------------------------
def test_a_sandbox_deposit_with_the_test_card_is_credited_at_once(make_player):
    ann = make_player("ann")
    row = deposit(user=ann, amount=2_500, provider="sandbox", card_number="4242 4242 4242 4242",
                  idempotency_key=new_key())
    assert row.status == DepositStatus.APPROVED
    assert row.transaction.entries.count() == 2
    assert real_balance(ann) == 2_500
    assert system_account(kind=AccountKind.WORLD, currency=REAL).balance == -2_500


def test_a_declined_card_is_recorded_and_credits_nothing(make_player):
    ann = make_player("ann")
    row = deposit(user=ann, amount=2_500, provider="sandbox", card_number=SANDBOX_DECLINED,
                  idempotency_key=new_key())
    assert row.status == DepositStatus.DECLINED
    assert row.message == "Card declined (sandbox)."
    assert row.transaction is None
    assert real_balance(ann) == 0


def test_an_unknown_card_is_declined(make_player):
    ann = make_player("ann")
    row = deposit(user=ann, amount=100, provider="sandbox", card_number="1234",
                  idempotency_key=new_key())
    assert row.status == DepositStatus.DECLINED


def test_a_double_submitted_deposit_is_credited_once(make_player):
    ann = make_player("ann")
    key = new_key()
    first = deposit(user=ann, amount=1_000, provider="sandbox", card_number=SANDBOX_OK,
                    idempotency_key=key)
    second = deposit(user=ann, amount=1_000, provider="sandbox", card_number=SANDBOX_OK,
                     idempotency_key=key)
    assert second.pk == first.pk
    assert real_balance(ann) == 1_000


@pytest.mark.parametrize(
    ("amount", "provider", "code"),
    [(0, "sandbox", "invalid_amount"), (-5, "sandbox", "invalid_amount"),
     (100_000_000, "sandbox", "invalid_amount"), (100, "bitcoin", "unknown_provider")],
)
def test_invalid_deposits_are_refused(make_player, amount, provider, code):
    ann = make_player("ann")
    with pytest.raises(CashierError) as refused:
        deposit(user=ann, amount=amount, provider=provider, card_number=SANDBOX_OK,
                idempotency_key=new_key())
    assert refused.value.code == code


def test_a_manual_deposit_waits_for_an_admin_then_is_credited(make_player, admin_user):
    ann = make_player("ann")
    row = deposit(user=ann, amount=5_000, provider="manual", idempotency_key=new_key())
    assert row.status == DepositStatus.PENDING
    assert real_balance(ann) == 0

    approved = deposit_approve(deposit=row, by=admin_user)

    assert approved.status == DepositStatus.APPROVED
    assert (approved.decided_by, approved.decided_at is not None) == (admin_user, True)
    assert real_balance(ann) == 5_000


def test_a_manual_deposit_can_be_rejected_and_then_not_approved(make_player, admin_user):
    ann = make_player("ann")
    row = deposit(user=ann, amount=5_000, provider="manual", idempotency_key=new_key())
    rejected = deposit_reject(deposit=row, by=admin_user, reason="No transfer received")
    assert rejected.status == DepositStatus.REJECTED
    assert rejected.message == "No transfer received"

    with pytest.raises(CashierError) as refused:
        deposit_approve(deposit=row, by=admin_user)
    assert refused.value.code == "not_pending"
    assert real_balance(ann) == 0


def test_approving_twice_credits_once(make_player, admin_user):
    ann = make_player("ann")
    row = deposit(user=ann, amount=5_000, provider="manual", idempotency_key=new_key())
    deposit_approve(deposit=row, by=admin_user)
    deposit_approve(deposit=row, by=admin_user)  # a double click: the first outcome again
    assert real_balance(ann) == 5_000


# Withdrawals ----------------------------------------------------------------------------------
def test_a_withdrawal_moves_the_amount_to_pending_then_out_on_approval(make_player, admin_user):
    ann = make_player("ann", real=10_000)
    row = withdrawal_request(user=ann, amount=4_000, idempotency_key=new_key())
    assert row.status == WithdrawalStatus.PENDING
    assert (real_balance(ann), pending_balance()) == (6_000, 4_000)

    paid = withdrawal_approve(withdrawal=row, by=admin_user)

    assert paid.status == WithdrawalStatus.APPROVED
    assert paid.decided_by == admin_user
    assert (real_balance(ann), pending_balance()) == (6_000, 0)
    assert system_account(kind=AccountKind.WORLD, currency=REAL).balance == -6_000
    assert ledger_audit().ok


def test_a_rejected_withdrawal_returns_to_the_wallet(make_player, admin_user):
    ann = make_player("ann", real=10_000)
    row = withdrawal_request(user=ann, amount=4_000, idempotency_key=new_key())
    rejected = withdrawal_reject(withdrawal=row, by=admin_user, reason="Verify your identity")
    assert (rejected.status, rejected.reason) == (WithdrawalStatus.REJECTED, "Verify your identity")
    assert (real_balance(ann), pending_balance()) == (10_000, 0)


def test_the_player_may_cancel_a_pending_withdrawal(make_player):
    ann = make_player("ann", real=10_000)
    row = withdrawal_request(user=ann, amount=4_000, idempotency_key=new_key())
    cancelled = withdrawal_cancel(withdrawal=row, user=ann, idempotency_key=new_key())
    assert cancelled.status == WithdrawalStatus.CANCELLED
    assert real_balance(ann) == 10_000


def test_a_withdrawal_above_the_balance_is_refused(make_player):
    ann = make_player("ann", real=1_000)
    with pytest.raises(CashierError) as refused:
        withdrawal_request(user=ann, amount=1_001, idempotency_key=new_key())
    assert refused.value.code == "insufficient_funds"
    assert real_balance(ann) == 1_000


def test_a_decided_withdrawal_cannot_be_cancelled_or_decided_again(make_player, admin_user):
    ann = make_player("ann", real=10_000)
    row = withdrawal_request(user=ann, amount=4_000, idempotency_key=new_key())
    withdrawal_approve(withdrawal=row, by=admin_user)
    with pytest.raises(CashierError) as cancel:
        withdrawal_cancel(withdrawal=row, user=ann, idempotency_key=new_key())
    with pytest.raises(CashierError) as reject:
        withdrawal_reject(withdrawal=row, by=admin_user)
    assert (cancel.value.code, reject.value.code) == ("not_pending", "not_pending")
    assert real_balance(ann) == 6_000


def test_nobody_cancels_someone_elses_withdrawal(make_player):
    ann, eve = make_player("ann", real=10_000), make_player("eve")
    row = withdrawal_request(user=ann, amount=4_000, idempotency_key=new_key())
    with pytest.raises(CashierError) as refused:
        withdrawal_cancel(withdrawal=row, user=eve, idempotency_key=new_key())
    assert refused.value.code == "not_found"


def test_a_failure_after_the_money_moved_rolls_everything_back(make_player, monkeypatch):
    """Nothing is half-applied: a crash late in a deposit leaves no deposit row, no ledger
    transaction, no balance change and a free key (a retry then succeeds once)."""
    from cashier.models import Deposit as DepositModel

    ann = make_player("ann")
    key = new_key()
    real_save = DepositModel.save

    def crash(self, *args, **kwargs):
        if kwargs.get("update_fields") == ["transaction"]:
            raise RuntimeError("the process died here")
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(DepositModel, "save", crash)
    with pytest.raises(RuntimeError):
        deposit(user=ann, amount=1_000, provider="sandbox", card_number=SANDBOX_OK,
                idempotency_key=key)
    assert (DepositModel.objects.count(), real_balance(ann)) == (0, 0)
    assert ledger_audit().ok

    monkeypatch.setattr(DepositModel, "save", real_save)
    deposit(user=ann, amount=1_000, provider="sandbox", card_number=SANDBOX_OK,
            idempotency_key=key)
    assert real_balance(ann) == 1_000


def test_a_request_without_an_idempotency_key_is_refused(make_player):
    ann = make_player("ann", real=1_000)
    with pytest.raises(CashierError) as refused:
        withdrawal_request(user=ann, amount=100, idempotency_key="")
    assert refused.value.code == "missing_idempotency_key"


def test_a_withdrawal_of_nothing_is_refused(make_player):
    with pytest.raises(CashierError) as refused:
        withdrawal_request(user=make_player("ann", real=1_000), amount=0,
                           idempotency_key=new_key())
    assert refused.value.code == "invalid_amount"
