"""Table money as the tables service uses it: $0.50/$1 NL real-money table, buy-in $40 to $100."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from cashier.audit import ledger_audit
from cashier.errors import LedgerBroken
from cashier.models import AccountKind, HandSettlement, PendingTopUp, TopUpStatus
from cashier.money import Currency
from cashier.services import (
    CashierError,
    escrow_account,
    self_exclusion_start,
    system_account,
    wallet_account,
)
from tables.models import Seat, Structure
from tests.cashier.seats import apply_top_ups, buy_in, cash_out, settle_hand, top_up

from .conftest import new_key

pytestmark = pytest.mark.django_db


def wallet(user, currency=Currency.REAL) -> int:
    return wallet_account(user=user, currency=currency).balance


# Buy-in ---------------------------------------------------------------------------------------
def test_a_buy_in_moves_money_from_the_wallet_to_the_table_escrow_and_the_seat(
    make_player, make_table, seat_at
):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)

    buy_in(seat=seat, amount=6_000, idempotency_key=new_key())

    assert seat.chips == 6_000
    assert wallet(ann) == 14_000
    assert escrow_account(table_id=table.pk, currency=table.currency).balance == 6_000
    assert ledger_audit().ok


@pytest.mark.parametrize(("amount", "code"), [(3_999, "below_min_buy_in"),
                                               (10_001, "above_max_buy_in"),
                                               (0, "invalid_amount")])
def test_a_buy_in_outside_the_tables_limits_is_refused(
    make_player, make_table, seat_at, amount, code
):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    with pytest.raises(CashierError) as refused:
        buy_in(seat=seat, amount=amount, idempotency_key=new_key())
    assert refused.value.code == code
    assert (wallet(ann), Seat.objects.get(pk=seat.pk).chips) == (20_000, 0)


def test_a_buy_in_counts_the_chips_already_on_the_seat(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    buy_in(seat=seat, amount=9_000, idempotency_key=new_key())
    with pytest.raises(CashierError) as refused:
        buy_in(seat=seat, amount=2_000, idempotency_key=new_key())
    assert refused.value.code == "above_max_buy_in"
    assert "you already have $90 on the table" in refused.value.message


def test_a_buy_in_needs_the_money_in_the_wallet(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=3_000), make_table(lower_stake=50)
    with pytest.raises(CashierError) as refused:
        buy_in(seat=seat_at(table, ann), amount=4_000, idempotency_key=new_key())
    assert refused.value.code == "insufficient_funds"


def test_play_money_tables_take_play_chips(make_player, make_table, seat_at):
    ann = make_player("ann", real=20_000)
    table = make_table(currency=Currency.PLAY, lower_stake=20)  # 800 to 2,000
    buy_in(seat=seat_at(table, ann), amount=2_000, idempotency_key=new_key())
    assert (wallet(ann, Currency.PLAY), wallet(ann)) == (8_000, 20_000)


def test_a_self_excluded_player_cannot_sit_down(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=20_000), make_table()
    self_exclusion_start(user=ann, days=7)
    with pytest.raises(CashierError) as refused:
        buy_in(seat=seat_at(table, ann), amount=5_000, idempotency_key=new_key())
    assert refused.value.code == "self_excluded"


# Ratholing ------------------------------------------------------------------------------------
def _leave_with(table, player, seat_at, chips: int) -> Seat:
    seat = seat_at(table, player)
    buy_in(seat=seat, amount=chips, idempotency_key=new_key())
    cash_out(seat=seat, idempotency_key=new_key())
    seat.delete()
    return seat


def test_ratholing_leaving_with_x_requires_x_to_come_back_within_the_window(
    make_player, make_table, seat_at
):
    ann, table = make_player("ann", real=30_000), make_table(ratholing_window_minutes=60)
    _leave_with(table, ann, seat_at, 9_500)
    seat = seat_at(table, ann)

    with pytest.raises(CashierError) as refused:
        buy_in(seat=seat, amount=4_000, idempotency_key=new_key())
    assert refused.value.code == "ratholing"
    assert "at least $95" in refused.value.message
    buy_in(seat=seat, amount=9_500, idempotency_key=new_key())


def test_ratholing_allows_bringing_x_even_above_the_maximum(
    make_player, make_table, seat_at
):
    ann, bob = make_player("ann", real=30_000), make_player("bob", real=30_000)
    table = make_table()
    seat = seat_at(table, ann)
    other = seat_at(table, bob)
    buy_in(seat=seat, amount=10_000, idempotency_key=new_key())
    buy_in(seat=other, amount=5_000, idempotency_key=new_key())
    settle_hand(table=table, hand_id="h1", deltas={seat.pk: 5_000, other.pk: -5_000}, rake=0)
    cash_out(seat=seat, idempotency_key=new_key())
    seat.delete()

    buy_in(seat=seat_at(table, ann), amount=15_000, idempotency_key=new_key())


def test_ratholing_ends_with_the_window(make_player, make_table, seat_at, monkeypatch):
    ann, table = make_player("ann", real=30_000), make_table(ratholing_window_minutes=30)
    _leave_with(table, ann, seat_at, 9_500)
    later = timezone.now() + datetime.timedelta(minutes=31)
    monkeypatch.setattr(timezone, "now", lambda: later)
    buy_in(seat=seat_at(table, ann), amount=4_000, idempotency_key=new_key())


@pytest.mark.parametrize(
    ("currency", "structure"),
    [(Currency.PLAY, Structure.NO_LIMIT), (Currency.REAL, Structure.FIXED_LIMIT)],
)
def test_ratholing_applies_only_to_real_money_no_limit_and_pot_limit(
    make_player, make_table, seat_at, currency, structure
):
    ann = make_player("ann", real=30_000)
    table = make_table(currency=currency, structure=structure, lower_stake=100)
    _leave_with(table, ann, seat_at, 9_500)
    buy_in(seat=seat_at(table, ann), amount=4_000, idempotency_key=new_key())


# Top-ups --------------------------------------------------------------------------------------
def test_a_top_up_leaves_the_wallet_at_once_and_joins_the_stack_at_the_next_hand(
    make_player, make_table, seat_at
):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    buy_in(seat=seat, amount=5_000, idempotency_key=new_key())

    pending = top_up(seat=seat, amount=3_000, idempotency_key=new_key())

    assert pending.status == TopUpStatus.PENDING
    assert (wallet(ann), Seat.objects.get(pk=seat.pk).chips) == (12_000, 5_000)
    assert escrow_account(table_id=table.pk, currency=table.currency).balance == 8_000
    assert ledger_audit().ok  # escrow = chips + pending top-ups

    applied = apply_top_ups(table=table)

    assert [row.status for row in applied] == [TopUpStatus.APPLIED]
    assert Seat.objects.get(pk=seat.pk).chips == 8_000
    assert apply_top_ups(table=table) == []  # nothing applies twice
    assert ledger_audit().ok


def test_a_top_up_may_not_go_above_the_maximum(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    buy_in(seat=seat, amount=5_000, idempotency_key=new_key())
    top_up(seat=seat, amount=3_000, idempotency_key=new_key())
    with pytest.raises(CashierError) as refused:
        top_up(seat=seat, amount=2_001, idempotency_key=new_key())
    assert refused.value.code == "above_max_buy_in"
    assert "you can add $20 at most" in refused.value.message


def test_a_stack_that_grew_takes_only_what_fits_and_the_rest_goes_back(
    make_player, make_table, seat_at
):
    ann, bob = make_player("ann", real=20_000), make_player("bob", real=20_000)
    table = make_table()
    seat, other = seat_at(table, ann), seat_at(table, bob)
    buy_in(seat=seat, amount=6_000, idempotency_key=new_key())
    buy_in(seat=other, amount=6_000, idempotency_key=new_key())
    top_up(seat=seat, amount=4_000, idempotency_key=new_key())  # 6,000 + 4,000 = max
    settle_hand(table=table, hand_id="h1", deltas={seat.pk: 3_000, other.pk: -3_000}, rake=0)

    [row] = apply_top_ups(table=table)

    assert (row.applied_amount, row.status) == (1_000, TopUpStatus.APPLIED)
    assert Seat.objects.get(pk=seat.pk).chips == 10_000
    assert wallet(ann) == 20_000 - 6_000 - 1_000
    assert ledger_audit().ok


# Cash-out -------------------------------------------------------------------------------------
def test_a_cash_out_returns_the_stack_and_any_pending_top_up(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    buy_in(seat=seat, amount=5_000, idempotency_key=new_key())
    top_up(seat=seat, amount=2_000, idempotency_key=new_key())

    record = cash_out(seat=seat, idempotency_key=new_key())

    assert (record.amount, seat.chips, wallet(ann)) == (5_000, 0, 20_000)
    assert PendingTopUp.objects.get().status == TopUpStatus.REFUNDED
    assert escrow_account(table_id=table.pk, currency=table.currency).balance == 0
    seat.delete()
    assert ledger_audit().ok


def test_cashing_out_twice_with_the_same_key_pays_once(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    buy_in(seat=seat, amount=5_000, idempotency_key=new_key())
    key = new_key()
    assert cash_out(seat=seat, idempotency_key=key) == cash_out(seat=seat, idempotency_key=key)
    assert wallet(ann) == 20_000


# Hand settlement ------------------------------------------------------------------------------
def test_settle_hand_moves_chips_between_seats_and_the_rake_to_the_house(
    make_player, make_table, seat_at
):
    table = make_table()
    seats = [seat_at(table, make_player(name, real=10_000)) for name in ("ann", "bob", "cat")]
    for seat in seats:
        buy_in(seat=seat, amount=5_000, idempotency_key=new_key())
    ann, bob, cat = seats
    # Bob wins a 3,000 pot (1,000 each) minus 150 rake: net +1,850; Ann and Cat lose 1,000.
    deltas = {ann.pk: -1_000, bob.pk: 1_850, cat.pk: -1_000}

    settlement = settle_hand(table=table, hand_id="42", deltas=deltas, rake=150)

    assert [Seat.objects.get(pk=s.pk).chips for s in seats] == [4_000, 6_850, 4_000]
    assert system_account(kind=AccountKind.HOUSE, currency=Currency.REAL).balance == 150
    assert escrow_account(table_id=table.pk, currency=table.currency).balance == 14_850
    assert settlement.transaction.entries.count() == 2
    assert ledger_audit().ok


def test_settle_hand_is_idempotent_on_the_hand_id(make_player, make_table, seat_at):
    table = make_table()
    ann, bob = (seat_at(table, make_player(n, real=10_000)) for n in ("ann", "bob"))
    buy_in(seat=ann, amount=5_000, idempotency_key=new_key())
    buy_in(seat=bob, amount=5_000, idempotency_key=new_key())
    deltas = {ann.pk: 500, bob.pk: -500}
    first = settle_hand(table=table, hand_id="7", deltas=deltas, rake=0)
    again = settle_hand(table=table, hand_id="7", deltas=deltas, rake=0)
    assert first == again
    assert Seat.objects.get(pk=ann.pk).chips == 5_500

    with pytest.raises(CashierError) as conflict:
        settle_hand(table=table, hand_id="7", deltas={ann.pk: 400, bob.pk: -400}, rake=0)
    assert conflict.value.code == "idempotency_conflict"


@pytest.mark.parametrize(
    ("deltas", "rake", "code"),
    [({"a": 100, "b": -100}, 10, "unbalanced_hand"),
     ({"a": 100, "b": -90}, -10, "unbalanced_hand"),
     ({"a": 6_000, "b": -6_000}, 0, "negative_stack")],
)
def test_settle_hand_refusals(make_player, make_table, seat_at, deltas, rake, code):
    table = make_table()
    ann, bob = (seat_at(table, make_player(n, real=10_000)) for n in ("ann", "bob"))
    buy_in(seat=ann, amount=5_000, idempotency_key=new_key())
    buy_in(seat=bob, amount=5_000, idempotency_key=new_key())
    by_seat = {ann.pk: deltas["a"], bob.pk: deltas["b"]}
    with pytest.raises(CashierError) as refused:
        settle_hand(table=table, hand_id="x", deltas=by_seat, rake=rake)
    assert refused.value.code == code
    assert [Seat.objects.get(pk=s.pk).chips for s in (ann, bob)] == [5_000, 5_000]


def test_settle_hand_refuses_a_seat_of_another_table(make_player, make_table, seat_at):
    table, elsewhere = make_table(), make_table()
    ann = seat_at(table, make_player("ann", real=10_000))
    bob = seat_at(elsewhere, make_player("bob", real=10_000))
    buy_in(seat=ann, amount=5_000, idempotency_key=new_key())
    buy_in(seat=bob, amount=5_000, idempotency_key=new_key())
    with pytest.raises(CashierError) as refused:
        settle_hand(table=table, hand_id="x", deltas={ann.pk: 100, bob.pk: -100}, rake=0)
    assert refused.value.code == "unknown_seat"


@pytest.mark.parametrize("rake", [0, 100])
@pytest.mark.parametrize("top_up_waiting", [False, True])
def test_every_settlement_checks_the_escrow_against_the_seated_chips(
    make_player, make_table, seat_at, rake, top_up_waiting
):
    """Escrow - pending top-ups must equal the seats' chips: a stack changed behind the
    ledger's back stops the hand's settlement, and nothing of it is written."""
    table = make_table()
    ann, bob = (seat_at(table, make_player(n, real=20_000)) for n in ("ann", "bob"))
    buy_in(seat=ann, amount=5_000, idempotency_key=new_key())
    buy_in(seat=bob, amount=5_000, idempotency_key=new_key())
    if top_up_waiting:  # in the escrow, not on the seat: counted apart
        top_up(seat=ann, amount=2_000, idempotency_key=new_key())
    deltas = {ann.pk: 500, bob.pk: -500 - rake}
    settle_hand(table=table, hand_id="fine", deltas=deltas, rake=rake)

    Seat.objects.filter(pk=bob.pk).update(chips=6_000)  # chips from nowhere
    with pytest.raises(LedgerBroken, match="escrow"):
        settle_hand(table=table, hand_id="broken", deltas=deltas, rake=rake)
    assert not HandSettlement.objects.filter(hand_id="broken").exists()
    assert Seat.objects.get(pk=ann.pk).chips == 5_500


def test_a_self_excluded_player_cannot_top_up(make_player, make_table, seat_at):
    ann, table = make_player("ann", real=20_000), make_table()
    seat = seat_at(table, ann)
    buy_in(seat=seat, amount=5_000, idempotency_key=new_key())
    self_exclusion_start(user=ann, days=1)
    with pytest.raises(CashierError) as refused:
        top_up(seat=seat, amount=1_000, idempotency_key=new_key())
    assert refused.value.code == "self_excluded"
    cash_out(seat=seat, idempotency_key=new_key())  # leaving is always possible
    assert wallet(ann) == 20_000
