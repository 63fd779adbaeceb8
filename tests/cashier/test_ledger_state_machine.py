"""A hypothesis state machine of the ledger: random sequences of every money movement against
a plain-Python model, with the ledger's invariants checked after every step."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from cashier.audit import ledger_audit
from cashier.models import AccountKind, Withdrawal
from cashier.money import Currency
from cashier.services import (
    CashierError,
    deposit,
    ledger_transfer,
    system_account,
    wallet_account,
    withdrawal_approve,
    withdrawal_cancel,
    withdrawal_request,
)
from tables.models import Seat, TableConfig
from tests.cashier.seats import apply_top_ups, buy_in, cash_out, settle_hand, top_up

from .conftest import SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db
PLAYERS = 3
MIN_BUY_IN, MAX_BUY_IN = 4_000, 10_000  # lower stake 100, 40 to 100 big blinds
FUNDS = 30_000
names = itertools.count()

player_index = st.integers(0, PLAYERS - 1)
amounts = st.integers(1, 15_000)
buy_ins = st.one_of(st.integers(3_900, 10_100), amounts)  # mostly near the table's limits


class LedgerMachine(RuleBasedStateMachine):
    """The model: wallets, stacks, waiting top-ups, pending withdrawals and the house."""

    @initialize()
    def open_the_room(self) -> None:
        from django.contrib.auth import get_user_model

        run = next(names)
        self.players = [get_user_model().objects.create_user(username=f"sm{run}_{i}")
                        for i in range(PLAYERS)]
        self.table = TableConfig.objects.create(
            name=f"SM {run}", structure="NL", currency=Currency.REAL, lower_stake=100,
            ratholing_window_minutes=0,
        )
        self.seats = [Seat.objects.create(table=self.table, player=p, number=i + 1)
                      for i, p in enumerate(self.players)]
        self.house_start = self._house()
        self.wallets = [0] * PLAYERS
        for who, player in enumerate(self.players):  # start with money: more sequences matter
            deposit(user=player, amount=FUNDS, provider="sandbox", card_number=SANDBOX_OK,
                    idempotency_key=new_key())
            self.wallets[who] = FUNDS
        self.chips = [0] * PLAYERS
        self.waiting = [0] * PLAYERS
        self.withdrawals: list[tuple[int, int, int]] = []  # (pk, player, amount)
        self.rake = 0
        self.hands = itertools.count()
        self.last: tuple | None = None

    def _house(self) -> int:
        return system_account(kind=AccountKind.HOUSE, currency=Currency.REAL).balance

    def _refused(self, code: str, call, *args) -> None:
        with pytest.raises(CashierError) as refusal:
            call(*args)
        assert refusal.value.code == code

    # Money in and out -------------------------------------------------------------------------
    @rule(who=player_index, amount=st.integers(1, 30_000))
    def deposit(self, who: int, amount: int) -> None:
        key = new_key()
        deposit(user=self.players[who], amount=amount, provider="sandbox",
                card_number=SANDBOX_OK, idempotency_key=key)
        self.wallets[who] += amount
        self.last = ("deposit", who, amount, key)

    @rule(who=player_index, amount=amounts)
    def withdraw(self, who: int, amount: int) -> None:
        def request() -> Withdrawal:
            return withdrawal_request(user=self.players[who], amount=amount,
                                      idempotency_key=new_key())

        if amount > self.wallets[who]:
            self._refused("insufficient_funds", request)
            return
        row = request()
        self.wallets[who] -= amount
        self.withdrawals.append((row.pk, who, amount))

    @precondition(lambda self: self.withdrawals)
    @rule(pick=st.integers(0, 10), approve=st.booleans())
    def decide_withdrawal(self, pick: int, approve: bool) -> None:
        pk, who, amount = self.withdrawals.pop(pick % len(self.withdrawals))
        row = Withdrawal.objects.get(pk=pk)
        if approve:
            withdrawal_approve(withdrawal=row, by=None)
        else:
            withdrawal_cancel(withdrawal=row, user=self.players[who], idempotency_key=new_key())
            self.wallets[who] += amount

    @rule(who=player_index, other=player_index, amount=amounts)
    def transfer(self, who: int, other: int, amount: int) -> None:
        def send() -> None:
            ledger_transfer(
                source=wallet_account(user=self.players[who], currency=Currency.REAL),
                destination=wallet_account(user=self.players[other], currency=Currency.REAL),
                amount=amount, idempotency_key=new_key(),
            )

        if who == other:
            return
        if amount > self.wallets[who]:
            self._refused("insufficient_funds", send)
            return
        send()
        self.wallets[who] -= amount
        self.wallets[other] += amount

    @precondition(lambda self: self.last is not None)
    @rule()
    def repeat_the_last_deposit(self) -> None:
        _, who, amount, key = self.last
        deposit(user=self.players[who], amount=amount, provider="sandbox",
                card_number=SANDBOX_OK, idempotency_key=key)  # no change expected

    # Table money ------------------------------------------------------------------------------
    @rule(who=player_index, amount=buy_ins)
    def buy_in(self, who: int, amount: int) -> None:
        total = self.chips[who] + self.waiting[who] + amount

        def sit() -> None:
            buy_in(seat=self.seats[who], amount=amount, idempotency_key=new_key())

        if total < MIN_BUY_IN:
            self._refused("below_min_buy_in", sit)
        elif total > MAX_BUY_IN:
            self._refused("above_max_buy_in", sit)
        elif amount > self.wallets[who]:
            self._refused("insufficient_funds", sit)
        else:
            sit()
            self.wallets[who] -= amount
            self.chips[who] += amount

    @rule(who=player_index, amount=st.integers(1, 6_000))
    def top_up(self, who: int, amount: int) -> None:
        def add() -> None:
            top_up(seat=self.seats[who], amount=amount, idempotency_key=new_key())

        if self.chips[who] + self.waiting[who] + amount > MAX_BUY_IN:
            self._refused("above_max_buy_in", add)
        elif amount > self.wallets[who]:
            self._refused("insufficient_funds", add)
        else:
            add()
            self.wallets[who] -= amount
            self.waiting[who] += amount

    @rule()
    def next_hand_starts(self) -> None:
        apply_top_ups(table=self.table)
        for who in range(PLAYERS):
            fits = min(self.waiting[who], max(MAX_BUY_IN - self.chips[who], 0))
            self.wallets[who] += self.waiting[who] - fits
            self.chips[who] += fits
            self.waiting[who] = 0

    @rule(who=player_index)
    def cash_out(self, who: int) -> None:
        record = cash_out(seat=self.seats[who], idempotency_key=new_key())
        assert record.amount == self.chips[who]
        self.wallets[who] += self.chips[who] + self.waiting[who]
        self.chips[who] = self.waiting[who] = 0

    @rule(winner=player_index, loser=player_index, pot=st.integers(1, 5_000),
          rake_percent=st.integers(0, 10))
    def settle_a_hand(self, winner: int, loser: int, pot: int, rake_percent: int) -> None:
        if winner == loser:
            return
        rake = pot * rake_percent // 100
        deltas = {self.seats[winner].pk: pot - rake, self.seats[loser].pk: -pot}

        def settle() -> None:
            settle_hand(table=self.table, hand_id=str(next(self.hands)), deltas=deltas,
                        rake=rake)

        if pot > self.chips[loser]:
            self._refused("negative_stack", settle)
            return
        settle()
        self.chips[winner] += pot - rake
        self.chips[loser] -= pot
        self.rake += rake

    # Invariants -------------------------------------------------------------------------------
    @invariant()
    def the_audit_is_clean(self) -> None:
        report = ledger_audit()
        assert report.ok, report.summary()

    @invariant()
    def balances_equal_the_model(self) -> None:
        assert [wallet_account(user=p, currency=Currency.REAL).balance
                for p in self.players] == self.wallets
        assert [Seat.objects.get(pk=s.pk).chips for s in self.seats] == self.chips
        assert self._house() - self.house_start == self.rake

    @invariant()
    def nothing_is_negative(self) -> None:
        assert min(self.wallets) >= 0 and min(self.chips) >= 0


def test_the_ledger_state_machine():
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(max_examples=30, stateful_step_count=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow]),
    )
