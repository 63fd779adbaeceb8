"""Django admin: approve/reject with who/when recorded; the ledger is read-only."""
from __future__ import annotations

import pytest
from django.urls import reverse

from cashier.models import (
    Deposit,
    DepositStatus,
    LedgerEntry,
    LedgerTransaction,
    Withdrawal,
    WithdrawalStatus,
)
from cashier.money import Currency
from cashier.services import deposit, wallet_account, withdrawal_request

from .conftest import new_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(admin_client):
    return admin_client


def act(client, model: str, action: str, pks: list[int], reason: str = ""):
    return client.post(reverse(f"admin:cashier_{model}_changelist"),
                       {"action": action, "_selected_action": pks, "reason": reason},
                       follow=True)


def test_an_admin_approves_a_manual_deposit(staff, admin_user, make_player):
    ann = make_player("ann")
    row = deposit(user=ann, amount=7_500, provider="manual", idempotency_key=new_key())
    response = act(staff, "deposit", "approve", [row.pk])
    assert "1 deposit(s) done." in response.content.decode()
    row.refresh_from_db()
    assert (row.status, row.decided_by) == (DepositStatus.APPROVED, admin_user)
    assert row.decided_at is not None
    assert wallet_account(user=ann, currency=Currency.REAL).balance == 7_500


def test_an_admin_rejects_a_manual_deposit(staff, make_player):
    row = deposit(user=make_player("ann"), amount=7_500, provider="manual",
                  idempotency_key=new_key())
    act(staff, "deposit", "reject", [row.pk])
    assert Deposit.objects.get(pk=row.pk).status == DepositStatus.REJECTED


def test_approving_a_decided_request_is_refused_with_a_message(staff, make_player):
    ann = make_player("ann", real=5_000)
    row = withdrawal_request(user=ann, amount=2_000, idempotency_key=new_key())
    act(staff, "withdrawal", "approve", [row.pk])
    response = act(staff, "withdrawal", "reject", [row.pk])
    assert "already paid out" in response.content.decode()
    assert Withdrawal.objects.get(pk=row.pk).status == WithdrawalStatus.APPROVED
    assert wallet_account(user=ann, currency=Currency.REAL).balance == 3_000


def test_an_admin_rejects_a_withdrawal_back_to_the_wallet(staff, admin_user, make_player):
    ann = make_player("ann", real=5_000)
    row = withdrawal_request(user=ann, amount=2_000, idempotency_key=new_key())
    act(staff, "withdrawal", "reject", [row.pk], reason="Identity not verified")
    row.refresh_from_db()
    assert (row.status, row.decided_by) == (WithdrawalStatus.REJECTED, admin_user)
    assert row.reason == "Identity not verified"
    assert wallet_account(user=ann, currency=Currency.REAL).balance == 5_000


def test_the_ledger_is_read_only_in_the_admin(staff, make_player):
    make_player("ann", real=5_000)
    tx = LedgerTransaction.objects.first()
    page = staff.get(reverse("admin:cashier_ledgertransaction_change", args=(tx.pk,)))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert staff.get(reverse("admin:cashier_ledgertransaction_add")).status_code == 403
    assert staff.post(reverse("admin:cashier_ledgertransaction_delete",
                              args=(tx.pk,))).status_code == 403
    entry_count = LedgerEntry.objects.count()
    staff.post(reverse("admin:cashier_ledgeraccount_changelist"),
               {"action": "delete_selected", "_selected_action": [1], "post": "yes"})
    assert LedgerEntry.objects.count() == entry_count
    for model in ("ledgeraccount", "ledgertransaction", "deposit", "withdrawal",
                  "selfexclusion", "depositlimit"):
        assert staff.get(reverse(f"admin:cashier_{model}_changelist")).status_code == 200


# Amounts as money ---------------------------------------------------------------------------
def test_ledger_balances_are_shown_as_money(staff, make_player):
    ann = make_player("ann", real=123_456)  # $1,234.56 and the 10,000-chip sign-up grant
    real = wallet_account(user=ann, currency=Currency.REAL)
    play = wallet_account(user=ann, currency=Currency.PLAY)

    listing = staff.get(reverse("admin:cashier_ledgeraccount_changelist")).content.decode()
    detail = staff.get(reverse("admin:cashier_ledgeraccount_change", args=(real.pk,)))

    assert "$1,234.56" in listing and "10,000" in listing
    assert "123456" not in listing
    assert "$1,234.56" in detail.content.decode()
    assert play.balance == 10_000


def test_transaction_entries_deposits_and_withdrawals_are_shown_as_money(staff, make_player):
    ann = make_player("ann", real=5_000)
    withdrawal_request(user=ann, amount=2_050, idempotency_key=new_key())
    tx = LedgerTransaction.objects.get(kind="withdrawal_request")

    entries = staff.get(reverse("admin:cashier_ledgertransaction_change", args=(tx.pk,)))
    withdrawals = staff.get(reverse("admin:cashier_withdrawal_changelist"))
    deposits = staff.get(reverse("admin:cashier_deposit_changelist"))

    assert "-$20.50" in entries.content.decode() and "$20.50" in entries.content.decode()
    assert "$20.50" in withdrawals.content.decode()
    assert "$50" in deposits.content.decode()
