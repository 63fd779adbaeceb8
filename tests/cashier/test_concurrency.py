"""Concurrency on PostgreSQL: real threads, real connections, real row locks.

16 threads x 200 random operations (deposits, withdrawals and cancels, buy-ins, top-ups,
cash-outs, hand settlements, transfers) over four players at one table, then: the audit is
clean, nothing is negative, and replaying the committed operations serially (in ledger
transaction order, which is each account's lock order) gives the same balances and the same
cash-out amounts.
"""
from __future__ import annotations

import random
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from cashier.audit import ledger_audit
from cashier.models import AccountKind, LedgerAccount, PendingTopUp, TopUpStatus, Withdrawal
from cashier.money import Currency
from cashier.services import (
    CashierError,
    accounts_lock,
    deposit,
    escrow_account,
    ledger_transfer,
    system_account,
    wallet_account,
    withdrawal_cancel,
    withdrawal_request,
)
from cashier.services.ledger import accounts_find, escrow_lookup, system_lookup
from tables.models import Seat
from tests.cashier.seats import apply_top_ups, buy_in, cash_out, settle_hand, top_up
from tests.conftest import backend_pid, until_waiting_on_a_lock

from .conftest import SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 16
OPERATIONS = 200
START = 200_000  # each player's first deposit, in cents


@dataclass
class Committed:
    """One operation that committed, with the ledger transaction that orders it."""

    tx_id: int
    name: str
    params: dict[str, Any]
    outcome: Any = None


@dataclass
class Run:
    committed: list[Committed] = field(default_factory=list)
    refusals: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: list[BaseException] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, item: Committed | None) -> None:
        if item is not None:
            with self.lock:
                self.committed.append(item)


def _operation(rng: random.Random, players: list[Any], seats: list[Seat], table: Any,
               hand_counter: Any) -> Committed | None:
    """Pick and run one random operation; return what committed (None for a no-op)."""
    who = rng.randrange(len(players))
    player, seat = players[who], seats[who]
    kind = rng.choice(["deposit", "withdraw", "cancel", "buy_in", "buy_in", "top_up",
                       "cash_out", "settle", "settle", "transfer", "transfer"])
    if kind == "deposit":
        amount = rng.randint(100, 5_000)
        row = deposit(user=player, amount=amount, provider="sandbox", card_number=SANDBOX_OK,
                      idempotency_key=new_key())
        return Committed(row.transaction_id, kind, {"player": who, "amount": amount})
    if kind == "withdraw":
        amount = rng.randint(100, 20_000)
        row = withdrawal_request(user=player, amount=amount, idempotency_key=new_key())
        return Committed(row.request_transaction_id, kind, {"player": who, "amount": amount})
    if kind == "cancel":
        pending = list(Withdrawal.objects.filter(user=player, status="pending")
                       .values_list("pk", flat=True)[:3])
        if not pending:
            return None
        row = withdrawal_cancel(withdrawal=Withdrawal.objects.get(pk=rng.choice(pending)),
                                user=player, idempotency_key=new_key())
        return Committed(row.decision_transaction_id, kind,
                         {"player": who, "amount": row.amount})
    if kind == "buy_in":
        amount = rng.randint(1_000, 10_000)
        tx = buy_in(seat=seat, amount=amount, idempotency_key=new_key())
        return Committed(tx.pk, kind, {"player": who, "amount": amount})
    if kind == "top_up":
        amount = rng.randint(100, 3_000)
        row = top_up(seat=seat, amount=amount, idempotency_key=new_key())
        return Committed(row.transaction_id, kind, {"player": who, "amount": amount})
    if kind == "cash_out":
        record = cash_out(seat=seat, idempotency_key=new_key())
        if record.transaction_id is None:
            return None
        amount = record.transaction.entries.get(amount__gt=0).amount
        return Committed(record.transaction_id, kind, {"player": who}, outcome=amount)
    if kind == "settle":
        winner, loser = rng.sample(range(len(players)), 2)
        pot = rng.randint(2, 3_000)
        rake = max(1, pot // 20)
        deltas = {seats[winner].pk: pot - rake, seats[loser].pk: -pot}
        row = settle_hand(table=table, hand_id=f"h{next(hand_counter)}", deltas=deltas,
                          rake=rake)
        return Committed(row.transaction_id, kind,
                         {"winner": winner, "loser": loser, "pot": pot, "rake": rake})
    other = rng.choice([i for i in range(len(players)) if i != who])
    amount = rng.randint(1, 5_000)
    tx = ledger_transfer(
        source=wallet_account(user=player, currency=Currency.REAL),
        destination=wallet_account(user=players[other], currency=Currency.REAL),
        amount=amount, idempotency_key=new_key(),
    )
    return Committed(tx.pk, kind, {"player": who, "other": other, "amount": amount})


def _worker(seed: int, run: Run, barrier: threading.Barrier, players: list[Any],
            seats: list[Seat], table: Any, hand_counter: Any, operations: int) -> None:
    rng = random.Random(seed)
    try:
        barrier.wait()
        for _ in range(operations):
            try:
                run.record(_operation(rng, players, seats, table, hand_counter))
            except CashierError as refusal:
                with run.lock:
                    run.refusals[refusal.code] += 1
            finally:
                # Back to the pool after each operation, as every request and service call
                # does: held for the whole run, 16 threads on a pool of 10 left six waiting
                # for whole runs, past the pool's timeout on a loaded machine.
                connection.close()
    except BaseException as error:  # reported by the test, never swallowed
        run.errors.append(error)
    finally:
        connection.close()


def _replay(committed: list[Committed], players: int) -> dict[str, Any]:
    """The serial model: apply each committed operation in ledger-transaction order and check
    each one was allowed at its place in that order."""
    wallets = [START] * players
    chips = [0] * players
    waiting = [0] * players
    house = pending = 0
    for op in sorted(committed, key=lambda item: item.tx_id):
        p = op.params
        if op.name == "deposit":
            wallets[p["player"]] += p["amount"]
        elif op.name == "withdraw":
            wallets[p["player"]] -= p["amount"]
            pending += p["amount"]
        elif op.name == "cancel":
            wallets[p["player"]] += p["amount"]
            pending -= p["amount"]
        elif op.name == "buy_in":
            wallets[p["player"]] -= p["amount"]
            chips[p["player"]] += p["amount"]
            assert 4_000 <= chips[p["player"]] + waiting[p["player"]] <= 10_000
        elif op.name == "top_up":
            wallets[p["player"]] -= p["amount"]
            waiting[p["player"]] += p["amount"]
            assert chips[p["player"]] + waiting[p["player"]] <= 10_000
        elif op.name == "cash_out":
            returned = chips[p["player"]] + waiting[p["player"]]
            assert op.outcome == returned, (op, returned)
            wallets[p["player"]] += returned
            chips[p["player"]] = waiting[p["player"]] = 0
        elif op.name == "settle":
            chips[p["winner"]] += p["pot"] - p["rake"]
            chips[p["loser"]] -= p["pot"]
            house += p["rake"]
        elif op.name == "transfer":
            wallets[p["player"]] -= p["amount"]
            wallets[p["other"]] += p["amount"]
        assert min(wallets) >= 0 and min(chips) >= 0, op
    return {"wallets": wallets, "chips": chips, "waiting": waiting, "house": house,
            "pending": pending}


@pytest.mark.postgres
def test_16_threads_x_200_random_operations_keep_the_ledger_exact(make_player, make_table,
                                                                  seat_at):
    _random_operations_in_threads(make_player, make_table, seat_at, THREADS, OPERATIONS)


@pytest.mark.sqlite
def test_on_sqlite_immediate_transactions_serialise_4_threads_x_50_operations(
    make_player, make_table, seat_at
):
    """SQLite has no row locks: BEGIN IMMEDIATE takes the database write lock, so the same
    services are exact there too (a smaller run: the writes are serialised)."""
    _random_operations_in_threads(make_player, make_table, seat_at, 4, 50)


def _random_operations_in_threads(make_player, make_table, seat_at, threads_count: int,
                                  operations: int) -> None:
    import itertools

    players = [make_player(f"p{i}", real=START, play_grant=False) for i in range(4)]
    table = make_table()  # $0.50/$1 NL: buy-in 4,000 to 10,000 cents
    seats = [seat_at(table, player) for player in players]
    run = Run()
    barrier = threading.Barrier(threads_count)
    hand_counter = itertools.count()
    threads = [
        threading.Thread(target=_worker, args=(seed, run, barrier, players, seats, table,
                                               hand_counter, operations))
        for seed in range(threads_count)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert run.errors == []
    assert len(run.committed) > threads_count * operations // 3, run.refusals
    print(f"\n{len(run.committed)} committed, refusals {dict(run.refusals)}")
    call_command("audit_ledger")  # prints the summary; exits 1 on a violation
    report = ledger_audit()
    assert report.ok, report.summary()
    assert not LedgerAccount.objects.filter(balance__lt=0).exclude(kind="world").exists()

    model = _replay(run.committed, len(players))
    assert [wallet_account(user=p, currency=Currency.REAL).balance for p in players] \
        == model["wallets"]
    assert [Seat.objects.get(pk=s.pk).chips for s in seats] == model["chips"]
    waiting = [
        sum(PendingTopUp.objects.filter(seat=s, status=TopUpStatus.PENDING)
            .values_list("amount", flat=True)) for s in seats
    ]
    assert waiting == model["waiting"]
    assert system_account(kind=AccountKind.HOUSE, currency=Currency.REAL).balance \
        == model["house"]
    assert system_account(kind=AccountKind.PENDING_WITHDRAWAL, currency=Currency.REAL).balance \
        == model["pending"]

    apply_top_ups(table=table)  # the next hand starts: everything waiting joins the stacks
    assert escrow_account(table_id=table.pk, currency=table.currency).balance == sum(
        Seat.objects.filter(table=table).values_list("chips", flat=True))
    assert ledger_audit().ok


@pytest.mark.postgres
def test_the_same_key_sent_10_times_at_once_moves_money_once(make_player):
    ann = make_player("ann", play_grant=False)
    key = new_key()
    barrier = threading.Barrier(10)
    answers: list[Any] = []
    errors: list[BaseException] = []

    def send() -> None:
        try:
            barrier.wait()
            row = deposit(user=ann, amount=2_500, provider="sandbox", card_number=SANDBOX_OK,
                          idempotency_key=key)
            answers.append((row.pk, row.status, row.transaction_id, row.amount))
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(answers) == 10 and len(set(answers)) == 1
    assert wallet_account(user=ann, currency=Currency.REAL).balance == 2_500
    assert ann.ledger_transactions.count() == 1
    assert ledger_audit().ok


@pytest.mark.postgres
def test_two_first_uses_of_the_house_account_at_once_do_not_deadlock(make_table):
    """The race behind a deadlock the 16-thread run once hit. Two hands end at a new table at
    the same time. The first creates the house account (its insert is not committed yet), then
    locks escrow and house. The second has found the escrow but not the house. Had it locked
    the escrow before creating the house, it would wait on the first's insert while holding what
    the first waits for. It creates what is missing before it locks anything."""
    table = make_table()
    escrow = escrow_account(table_id=table.pk, currency=table.currency)
    inserted, go = threading.Event(), threading.Event()
    second_pid: list[int] = []
    errors: list[BaseException] = []

    def first() -> None:  # creates the house account, then locks escrow + house
        try:
            with transaction.atomic():
                house = system_account(kind=AccountKind.HOUSE, currency=table.currency)
                inserted.set()
                assert go.wait(10)
                accounts_lock([escrow, house])
        except BaseException as error:
            errors.append(error)
        finally:
            inserted.set()
            connection.close()

    def second() -> None:  # finds the escrow, not the uncommitted house
        try:
            assert inserted.wait(10)
            second_pid.append(backend_pid())
            with transaction.atomic():
                accounts_find([escrow_lookup(table_id=table.pk, currency=table.currency),
                               system_lookup(kind=AccountKind.HOUSE, currency=table.currency)],
                              lock=True)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    until_waiting_on_a_lock(second_pid)  # on the first's insert of the house account
    go.set()
    for thread in threads:
        thread.join()

    assert errors == []
    assert LedgerAccount.objects.filter(kind=AccountKind.HOUSE).count() == 1

