"""The ledger core: balanced posting, idempotency keys, and the database's own guarantees."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from cashier.audit import ledger_audit
from cashier.models import AccountKind, LedgerAccount, LedgerEntry, LedgerTransaction
from cashier.money import Currency
from cashier.services import (
    CashierError,
    accounts_lock,
    deposit,
    ledger_post,
    ledger_transfer,
    system_account,
    wallet_account,
)

from .conftest import SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db


def test_a_transfer_moves_money_and_writes_two_entries_that_sum_to_zero(make_player):
    ann, bob = make_player("ann", real=5_000), make_player("bob")
    source = wallet_account(user=ann, currency=Currency.REAL)
    destination = wallet_account(user=bob, currency=Currency.REAL)

    tx = ledger_transfer(source=source, destination=destination, amount=1_250,
                         idempotency_key=new_key())

    assert sorted(tx.entries.values_list("amount", flat=True)) == [-1_250, 1_250]
    source.refresh_from_db()
    destination.refresh_from_db()
    assert (source.balance, destination.balance) == (3_750, 1_250)
    assert ledger_audit().ok


def test_a_wallet_cannot_go_below_zero(make_player):
    ann, bob = make_player("ann", real=1_000), make_player("bob")
    with pytest.raises(CashierError) as refused:
        ledger_transfer(
            source=wallet_account(user=ann, currency=Currency.REAL),
            destination=wallet_account(user=bob, currency=Currency.REAL),
            amount=1_001, idempotency_key=new_key(),
        )
    assert refused.value.code == "insufficient_funds"
    assert "$10 available" in refused.value.message
    assert wallet_account(user=ann, currency=Currency.REAL).balance == 1_000


def test_play_and_real_money_never_mix(make_player):
    ann = make_player("ann", real=1_000)
    with pytest.raises(CashierError) as refused:
        ledger_transfer(
            source=wallet_account(user=ann, currency=Currency.REAL),
            destination=wallet_account(user=ann, currency=Currency.PLAY),
            amount=100, idempotency_key=new_key(),
        )
    assert refused.value.code == "currency_mismatch"


def test_the_same_key_returns_the_first_outcome_and_moves_money_once(make_player):
    ann, bob = make_player("ann", real=5_000), make_player("bob")
    source = wallet_account(user=ann, currency=Currency.REAL)
    destination = wallet_account(user=bob, currency=Currency.REAL)
    key = new_key()

    first = ledger_transfer(source=source, destination=destination, amount=100,
                            idempotency_key=key)
    again = ledger_transfer(source=source, destination=destination, amount=100,
                            idempotency_key=key)

    assert again.pk == first.pk
    assert wallet_account(user=bob, currency=Currency.REAL).balance == 100


def test_the_same_key_with_other_parameters_is_refused(make_player):
    ann, bob = make_player("ann", real=5_000), make_player("bob")
    source = wallet_account(user=ann, currency=Currency.REAL)
    destination = wallet_account(user=bob, currency=Currency.REAL)
    key = new_key()
    ledger_transfer(source=source, destination=destination, amount=100, idempotency_key=key)

    with pytest.raises(CashierError) as refused:
        ledger_transfer(source=source, destination=destination, amount=200, idempotency_key=key)
    assert refused.value.code == "idempotency_conflict"
    assert wallet_account(user=bob, currency=Currency.REAL).balance == 100


def test_a_refused_request_leaves_its_key_free_for_a_retry(make_player):
    ann, bob = make_player("ann", real=100), make_player("bob")
    source = wallet_account(user=ann, currency=Currency.REAL)
    destination = wallet_account(user=bob, currency=Currency.REAL)
    key = new_key()
    with pytest.raises(CashierError):
        ledger_transfer(source=source, destination=destination, amount=500, idempotency_key=key)

    deposit(user=ann, amount=1_000, provider="sandbox", card_number=SANDBOX_OK,
            idempotency_key=new_key())
    retried = ledger_transfer(source=source, destination=destination, amount=500,
                              idempotency_key=key)

    assert retried.entries.count() == 2  # evaluated again, not a stored refusal
    assert wallet_account(user=bob, currency=Currency.REAL).balance == 500


def test_ledger_post_refuses_an_unbalanced_set_of_legs(make_player):
    ann = make_player("ann", real=1_000)
    wallet = wallet_account(user=ann, currency=Currency.REAL)
    world = system_account(kind=AccountKind.WORLD, currency=Currency.REAL)
    with transaction.atomic():
        locked = accounts_lock([wallet, world])
        with pytest.raises(AssertionError):
            ledger_post(kind="transfer", currency=Currency.REAL,
                        legs=[(locked[wallet.pk], -10), (locked[world.pk], 9)])


# The database's own guarantees -----------------------------------------------------------------
def _raw_transaction(*, entries: list[tuple[int, int]], declared: int, currency: str) -> None:
    """Write a transaction with raw SQL, around the ORM and the services."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO cashier_ledgertransaction (kind, currency, entry_count, memo, created_at)"
            " VALUES ('transfer', %s, %s, 'raw', CURRENT_TIMESTAMP)", [currency, declared],
        )
        tx_id = LedgerTransaction.objects.order_by("-id").values_list("id", flat=True).first()
        for account_id, amount in entries:
            cursor.execute(
                "INSERT INTO cashier_ledgerentry (transaction_id, account_id, amount) "
                "VALUES (%s, %s, %s)", [tx_id, account_id, amount],
            )
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would check


def test_the_database_rejects_an_unbalanced_transaction_written_around_the_orm(make_player):
    ann = make_player("ann", real=1_000)
    wallet = wallet_account(user=ann, currency=Currency.REAL)
    world = system_account(kind=AccountKind.WORLD, currency=Currency.REAL)
    with pytest.raises(DatabaseError, match="ledger"), transaction.atomic():
        _raw_transaction(entries=[(wallet.pk, 500), (world.pk, -400)], declared=2,
                         currency=Currency.REAL)
    assert ledger_audit().ok


def test_the_database_rejects_a_transaction_mixing_currencies(make_player):
    ann = make_player("ann", real=1_000)
    real = wallet_account(user=ann, currency=Currency.REAL)
    play = wallet_account(user=ann, currency=Currency.PLAY)
    with pytest.raises(DatabaseError, match="ledger"), transaction.atomic():
        _raw_transaction(entries=[(real.pk, 500), (play.pk, -500)], declared=2,
                         currency=Currency.REAL)


def test_entries_cannot_be_updated(make_player):
    make_player("ann", real=1_000)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.update(amount=1)


def test_transactions_cannot_be_updated(make_player):
    make_player("ann", real=1_000)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerTransaction.objects.update(memo="edited")


@pytest.mark.postgres
def test_entries_and_transactions_cannot_be_deleted_on_postgresql(make_player):
    make_player("ann", real=1_000)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.all().delete()


@pytest.mark.postgres
def test_postgresql_rejects_a_transaction_missing_its_entries_at_commit(make_player):
    ann = make_player("ann", real=1_000)
    wallet = wallet_account(user=ann, currency=Currency.REAL)
    with pytest.raises(DatabaseError, match="unbalanced"), transaction.atomic():
        _raw_transaction(entries=[(wallet.pk, 500)], declared=2, currency=Currency.REAL)


def test_the_database_keeps_wallets_non_negative(make_player):
    ann = make_player("ann", real=1_000)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(user=ann, currency=Currency.REAL).update(balance=-1)


# The audit command ------------------------------------------------------------------------------
def test_audit_ledger_prints_a_summary_and_passes_on_a_consistent_ledger(make_player, capsys):
    make_player("ann", real=2_500)
    call_command("audit_ledger")
    out = capsys.readouterr().out
    assert "OK: no violations." in out
    assert "REAL: wallet 2500, world -2500" in out


def test_audit_ledger_exits_non_zero_when_a_balance_disagrees_with_its_entries(
    make_player, capsys
):
    ann = make_player("ann", real=2_500)
    LedgerAccount.objects.filter(user=ann, currency=Currency.REAL).update(balance=2_600)
    with pytest.raises(SystemExit) as exited:
        call_command("audit_ledger")
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert "balance 2600 != entries 2500" in err
    assert "REAL balances sum to 100, not 0" in err


def test_accounts_find_reads_several_accounts_at_once_and_opens_missing_ones(make_player, make_table):
    from cashier.services.ledger import accounts_find, escrow_lookup, system_lookup, wallet_lookup

    ann = make_player("ann", real=5_000)
    table = make_table()
    wallet = wallet_account(user=ann, currency=Currency.REAL)
    assert not LedgerAccount.objects.filter(kind=AccountKind.HOUSE, currency="PLAY").exists()

    found = accounts_find([system_lookup(kind=AccountKind.HOUSE, currency="PLAY"),
                           wallet_lookup(user_id=ann.pk, currency=Currency.REAL),
                           escrow_lookup(table_id=table.pk, currency=table.currency)])

    house, same_wallet, escrow = found  # in the order asked for
    assert same_wallet.pk == wallet.pk and same_wallet.balance == 5_000
    assert (house.kind, house.currency, house.user_id, house.table_id) == ("house", "PLAY",
                                                                            None, None)
    assert (escrow.kind, escrow.table_id) == (AccountKind.ESCROW, table.pk)
    assert [a.pk for a in accounts_find([escrow_lookup(table_id=table.pk, currency=table.currency)])] == [escrow.pk]


def test_accounts_find_with_lock_locks_what_it_finds_and_what_it_opens(make_player):
    from cashier.services.ledger import accounts_find, system_lookup, wallet_lookup

    ann = make_player("ann", real=5_000)
    assert not LedgerAccount.objects.filter(kind=AccountKind.HOUSE, currency="REAL").exists()
    with transaction.atomic():
        house, wallet = accounts_find([system_lookup(kind=AccountKind.HOUSE, currency="REAL"),
                                       wallet_lookup(user_id=ann.pk, currency=Currency.REAL)],
                                      lock=True)  # in the order asked for, the new one too
    assert (wallet.user_id, wallet.balance) == (ann.pk, 5_000)
    assert (house.kind, house.currency, house.balance) == (AccountKind.HOUSE, "REAL", 0)


def test_a_posting_can_carry_a_link_to_it_and_the_callers_own_writes(make_player, make_table):
    """What a raked hand's settlement does in one statement on PostgreSQL: the rake's
    transaction, its entries, both balances, the settlement's link and the stacks."""
    from cashier.models import HandSettlement
    from cashier.services.ledger import (
        accounts_find,
        amounts_add_statement,
        escrow_lookup,
        system_lookup,
    )
    from tables.models import Seat

    ann = make_player("ann", real=5_000)
    table = make_table()
    seat = Seat.objects.create(table=table, player=ann, number=1, chips=0)
    settled = HandSettlement.objects.create(table=table, hand_id="7", deltas={}, rake=0)
    with transaction.atomic():
        world, escrow = accounts_find([
            system_lookup(kind=AccountKind.WORLD, currency="REAL"), escrow_lookup(table_id=table.pk, currency=table.currency)],
            lock=True)
        tx = ledger_post(kind="transfer", currency=Currency.REAL,
                         legs=[(world, -300), (escrow, 300)], memo="worked example",
                         link=(HandSettlement, settled.pk, "transaction"),
                         also=[amounts_add_statement(Seat, "chips", {seat.pk: 300})])

    stored = LedgerTransaction.objects.get(pk=tx.pk)
    assert (stored.memo, stored.entry_count, tx.created_at) == ("worked example", 2,
                                                                stored.created_at)
    assert sorted(stored.entries.values_list("account_id", "amount")) == sorted(
        [(world.pk, -300), (escrow.pk, 300)])
    assert LedgerAccount.objects.get(pk=escrow.pk).balance == escrow.balance == 300
    settled.refresh_from_db()
    seat.refresh_from_db()
    assert (settled.transaction_id, seat.chips) == (tx.pk, 300)
    assert ledger_audit().ok  # the escrow holds exactly the seat's chips
