"""Tournament money as the tournaments app uses it: a play-money Sit & Go of 1,000 + 100
(buy-in to the prize pool, fee to the house) unless a test says otherwise."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from cashier.audit import ledger_audit
from cashier.models import (
    AccountKind,
    IdempotencyRecord,
    LedgerAccount,
    LedgerTransaction,
    TransactionKind,
)
from cashier.money import Currency
from cashier.services import (
    CashierError,
    ledger_transfer,
    pool_account,
    self_exclusion_start,
    system_account,
    tournament_enter,
    tournament_pay,
    tournament_purchase,
    tournament_purchase_refund,
    tournament_refund,
    wallet_account,
)
from tables.tournaments.models import Tournament, TournamentKind, TournamentState
from tests.tables.tournaments.factories import tournament_make

from .conftest import new_key

pytestmark = pytest.mark.django_db
PLAY = Currency.PLAY


@pytest.fixture
def sng() -> Tournament:
    return tournament_make()


def enter(user, tournament: Tournament, *, key: str | None = None, **terms):
    terms = {"currency": tournament.currency, "buy_in": tournament.buy_in,
             "fee": tournament.fee, **terms}
    return tournament_enter(user=user, tournament_id=tournament.pk, key=key or new_key(),
                            **terms)


def refund(user, tournament: Tournament, *, key: str | None = None):
    return tournament_refund(user=user, tournament_id=tournament.pk,
                             currency=tournament.currency, buy_in=tournament.buy_in,
                             fee=tournament.fee, key=key or new_key())


def balances(user, tournament: Tournament) -> tuple[int, int, int]:
    """(wallet, pool, house) in the tournament's currency."""
    currency = tournament.currency
    return (wallet_account(user=user, currency=currency).balance,
            pool_account(tournament_id=tournament.pk, currency=currency).balance,
            system_account(kind=AccountKind.HOUSE, currency=currency).balance)


def world_balance(currency: str = "PLAY") -> int:
    return system_account(kind=AccountKind.WORLD, currency=currency).balance


# Entering -------------------------------------------------------------------------------------
def test_an_entry_takes_the_buy_in_to_the_pool_and_the_fee_to_the_house_in_one_transaction(
        make_player, sng):
    ann = make_player("ann")  # 10,000 play chips

    tx = enter(ann, sng)

    assert balances(ann, sng) == (8_900, 1_000, 100)
    assert (tx.kind, tx.tournament_id, tx.user_id, tx.entries.count()) == (
        TransactionKind.TOURNAMENT_ENTRY, sng.pk, ann.pk, 3)
    assert ledger_audit().ok


def test_an_entry_without_a_fee_has_two_legs(make_player):
    freezeout = tournament_make(fee=0)
    ann = make_player("ann")
    assert enter(ann, freezeout).entries.count() == 2
    assert balances(ann, freezeout) == (9_000, 1_000, 0)


def test_a_retried_entry_returns_the_first_transaction_and_moves_nothing_more(
        make_player, sng):
    ann, key = make_player("ann"), new_key()
    first = enter(ann, sng, key=key)

    again = enter(ann, sng, key=key)

    assert again.pk == first.pk
    assert balances(ann, sng) == (8_900, 1_000, 100)


def test_the_same_key_for_another_entry_is_refused(make_player, sng):
    ann, key = make_player("ann"), new_key()
    enter(ann, sng, key=key)
    with pytest.raises(CashierError) as refused:
        enter(ann, sng, key=key, fee=200)
    assert refused.value.code == "idempotency_conflict"
    assert balances(ann, sng) == (8_900, 1_000, 100)


def test_an_entry_the_wallet_cannot_pay_is_refused_and_moves_nothing(make_player):
    high_roller = tournament_make(buy_in=10_000, fee=500)
    ann = make_player("ann")
    key = new_key()

    with pytest.raises(CashierError) as refused:
        enter(ann, high_roller, key=key)

    assert refused.value.code == "insufficient_funds"
    assert "10,500 needed" in refused.value.message
    assert balances(ann, high_roller) == (10_000, 0, 0)
    assert not IdempotencyRecord.objects.filter(key=key).exists()  # a retry may run again


def test_an_entry_in_the_other_currency_is_refused_and_moves_nothing(make_player, sng):
    ann, bob = make_player("ann"), make_player("bob")
    enter(ann, sng)  # the pool is play money now

    with pytest.raises(CashierError) as refused:
        enter(bob, sng, currency=Currency.REAL)

    assert refused.value.code == "currency_mismatch"
    assert "this tournament is played for play money" in refused.value.message
    assert balances(bob, sng) == (10_000, 1_000, 100)
    assert wallet_account(user=bob, currency=Currency.REAL).balance == 0


def test_a_self_excluded_player_cannot_enter(make_player, sng):
    ann = make_player("ann")
    self_exclusion_start(user=ann, days=7)

    with pytest.raises(CashierError) as refused:
        enter(ann, sng)

    assert refused.value.code == "self_excluded"
    assert "enter a tournament" in refused.value.message
    assert balances(ann, sng) == (10_000, 0, 0)


@pytest.mark.parametrize(("buy_in", "fee"), [(0, 100), (-5, 100), (1_000, -1)])
def test_an_entry_of_no_or_negative_money_is_refused(make_player, sng, buy_in, fee):
    with pytest.raises(CashierError) as refused:
        enter(make_player("ann"), sng, buy_in=buy_in, fee=fee)
    assert refused.value.code == "invalid_amount"


# Refunds --------------------------------------------------------------------------------------
def test_a_refund_gives_back_the_buy_in_from_the_pool_and_the_fee_from_the_house(
        make_player, sng):
    ann, bob = make_player("ann"), make_player("bob")
    enter(ann, sng)
    enter(bob, sng)

    tx = refund(ann, sng)

    assert balances(ann, sng) == (10_000, 1_000, 100)  # bob's entry stays in
    assert (tx.kind, tx.tournament_id) == (TransactionKind.TOURNAMENT_REFUND, sng.pk)
    assert ledger_audit().ok


def test_a_player_without_an_entry_left_gets_no_refund(make_player, sng):
    ann = make_player("ann")
    with pytest.raises(CashierError) as refused:
        refund(ann, sng)
    assert refused.value.code == "nothing_to_refund"

    enter(ann, sng)
    refund(ann, sng)
    with pytest.raises(CashierError) as twice:  # a second refund under another key
        refund(ann, sng)
    assert twice.value.code == "nothing_to_refund"
    assert balances(ann, sng) == (10_000, 0, 0)


def test_a_retried_refund_returns_the_first_and_refunds_once(make_player, sng):
    ann, key = make_player("ann"), new_key()
    enter(ann, sng)
    enter(ann, sng)  # a re-entry
    first = refund(ann, sng, key=key)
    assert refund(ann, sng, key=key).pk == first.pk
    assert balances(ann, sng) == (8_900, 1_000, 100)


# Prizes ---------------------------------------------------------------------------------------
def test_prizes_empty_the_pool_into_the_winners_wallets(make_player, sng):
    players = [make_player(name) for name in ("ann", "bob", "cy")]
    for player in players:
        enter(player, sng)
    ann, bob, _ = players

    tx = tournament_pay(tournament_id=sng.pk, currency=PLAY, key=new_key(),
                        prizes={ann.pk: 2_000, bob.pk: 1_000})

    assert [balances(p, sng)[0] for p in players] == [10_900, 9_900, 8_900]
    assert pool_account(tournament_id=sng.pk, currency=PLAY).balance == 0
    assert (tx.kind, tx.entries.count()) == (TransactionKind.TOURNAMENT_PRIZE, 3)
    Tournament.objects.filter(pk=sng.pk).update(state=TournamentState.FINISHED)
    assert ledger_audit().ok


def test_prizes_that_do_not_add_up_to_the_pool_are_refused(make_player, sng):
    ann, bob = make_player("ann"), make_player("bob")
    enter(ann, sng)
    enter(bob, sng)
    with pytest.raises(CashierError) as refused:
        tournament_pay(tournament_id=sng.pk, currency=PLAY, key=new_key(),
                       prizes={ann.pk: 1_500, bob.pk: 400})
    assert refused.value.code == "prizes_mismatch"
    assert "1,900" in refused.value.message and "2,000" in refused.value.message
    assert pool_account(tournament_id=sng.pk, currency=PLAY).balance == 2_000


def test_a_retried_payment_pays_once(make_player, sng):
    ann, key = make_player("ann"), new_key()
    enter(ann, sng)
    first = tournament_pay(tournament_id=sng.pk, currency=PLAY, key=key, prizes={ann.pk: 1_000})
    again = tournament_pay(tournament_id=sng.pk, currency=PLAY, key=key, prizes={ann.pk: 1_000})
    assert again.pk == first.pk
    assert balances(ann, sng) == (9_900, 0, 100)


def test_a_guarantee_above_the_pool_is_topped_up_by_the_operator_first(make_player):
    """The overlay is the operator's money entering the room (the world account, as a
    deposit), not the house's rake: the house keeps its fees."""
    event = tournament_make(kind=TournamentKind.SCHEDULED, guarantee=5_000, fee=2_000)
    ann, bob = make_player("ann"), make_player("bob")
    enter(ann, event)
    enter(bob, event)  # pool 2,000; house 4,000 in fees
    world_before = world_balance()

    tournament_pay(tournament_id=event.pk, currency=PLAY, key=new_key(), guarantee=5_000,
                   prizes={ann.pk: 3_500, bob.pk: 1_500})

    assert balances(ann, event) == (7_000 + 3_500, 0, 4_000)
    assert world_balance() == world_before - 3_000
    overlay = LedgerTransaction.objects.get(kind=TransactionKind.TOURNAMENT_OVERLAY)
    assert overlay.tournament_id == event.pk
    Tournament.objects.filter(pk=event.pk).update(state=TournamentState.FINISHED)
    assert ledger_audit().ok


def test_a_guarantee_is_paid_even_when_the_house_holds_nothing(make_player):
    event = tournament_make(kind=TournamentKind.SCHEDULED, guarantee=50_000, fee=0)
    ann = make_player("ann")
    enter(ann, event)
    tournament_pay(tournament_id=event.pk, currency=PLAY, key=new_key(), guarantee=50_000,
                   prizes={ann.pk: 50_000})
    assert balances(ann, event) == (9_000 + 50_000, 0, 0)


# The audit ------------------------------------------------------------------------------------
def test_the_audit_catches_money_taken_from_a_pool_by_anything_but_a_refund_or_a_prize(
        make_player, sng):
    ann, bob = make_player("ann"), make_player("bob")
    enter(ann, sng)
    enter(bob, sng)
    pool = pool_account(tournament_id=sng.pk, currency=PLAY)
    # A balanced, well-formed transaction: only the tournament check can see it is wrong.
    ledger_transfer(source=pool, destination=wallet_account(user=bob, currency=PLAY),
                    amount=300, idempotency_key=new_key())

    report = ledger_audit()

    assert not report.ok
    assert any(f"tournament {sng.pk}: pool 1700 != 2000" in v for v in report.violations), \
        report.violations
    assert any("moved by transfer" in v for v in report.violations)


def test_the_audit_catches_a_pool_balance_changed_by_hand(make_player, sng):
    enter(make_player("ann"), sng)
    LedgerAccount.objects.filter(kind=AccountKind.POOL).update(balance=900)
    report = ledger_audit()
    assert any(f"tournament {sng.pk}: pool 900 != 1000" in v for v in report.violations), \
        report.violations


def test_the_audit_catches_a_finished_tournament_whose_pool_was_not_paid_out(make_player, sng):
    enter(make_player("ann"), sng)
    assert ledger_audit().ok
    Tournament.objects.filter(pk=sng.pk).update(state=TournamentState.FINISHED)
    report = ledger_audit()
    assert report.violations == [f"tournament {sng.pk} is over but its pool holds 1000"]


# Rebuys and add-ons ----------------------------------------------------------------------------
def purchase(user, tournament: Tournament, price: int, *, key: str | None = None):
    return tournament_purchase(user=user, tournament_id=tournament.pk,
                               currency=tournament.currency, price=price, key=key or new_key())


def test_a_purchase_moves_its_whole_price_to_the_pool_once_per_key(make_player, sng):
    """Worked example: 10,000 grant, entry 1,000 + 100, a 500 rebuy, a 700 add-on; the pool
    holds 2,200 and the audit proves pool = entries + purchases."""
    ann = make_player("ann")
    enter(ann, sng)
    key = new_key()
    first = purchase(ann, sng, 500, key=key)
    assert purchase(ann, sng, 500, key=key).pk == first.pk  # a retry moves nothing more
    purchase(ann, sng, 700)

    assert first.kind == TransactionKind.TOURNAMENT_PURCHASE and first.entry_count == 2
    assert balances(ann, sng) == (10_000 - 1_100 - 500 - 700, 1_000 + 500 + 700, 100)
    assert ledger_audit().ok
    with pytest.raises(CashierError) as caught:
        purchase(ann, sng, 600, key=key)  # the key of another request
    assert caught.value.code == "idempotency_conflict"


def test_a_purchase_refund_gives_the_price_back_once_and_only_for_a_purchase(make_player, sng):
    ann, bob = make_player("ann"), make_player("bob")
    enter(ann, sng)
    enter(bob, sng)
    purchase(ann, sng, 500)
    key = new_key()
    refund_args = {"tournament_id": sng.pk, "currency": PLAY, "price": 500}
    tournament_purchase_refund(user=ann, key=key, **refund_args)
    tournament_purchase_refund(user=ann, key=key, **refund_args)  # the retry: once
    assert balances(ann, sng) == (10_000 - 1_100, 2_000, 200)
    for user in (ann, bob):  # nothing left to refund; bob never bought
        with pytest.raises(CashierError) as caught:
            tournament_purchase_refund(user=user, key=new_key(), **refund_args)
        assert caught.value.code == "nothing_to_refund"
    assert ledger_audit().ok


def test_the_audit_counts_purchases_in_the_pool_and_wants_it_empty_at_the_end(make_player,
                                                                              sng):
    ann = make_player("ann")
    enter(ann, sng)
    purchase(ann, sng, 500)
    LedgerAccount.objects.filter(kind=AccountKind.POOL).update(balance=1_000)
    report = ledger_audit()
    assert any(f"tournament {sng.pk}: pool 1000 != 1500" in v for v in report.violations), \
        report.violations
    assert "tournament_purchase +500" in " ".join(report.violations)
    LedgerAccount.objects.filter(kind=AccountKind.POOL).update(balance=1_500)
    Tournament.objects.filter(pk=sng.pk).update(state=TournamentState.FINISHED)
    assert ledger_audit().violations == [f"tournament {sng.pk} is over but its pool holds 1500"]


# The database ---------------------------------------------------------------------------------
def test_a_pool_belongs_to_exactly_one_tournament(sng):
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.create(kind=AccountKind.POOL, currency=PLAY)
    pool_account(tournament_id=sng.pk, currency=PLAY)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.create(kind=AccountKind.POOL, currency=Currency.REAL,
                                     tournament=sng)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.create(kind=AccountKind.HOUSE, currency=PLAY, tournament=sng)


def test_the_admin_lists_a_pool_and_its_transactions_with_their_tournament(
        admin_client, make_player, sng):
    from django.urls import reverse

    enter(make_player("ann"), sng)
    accounts = admin_client.get(reverse("admin:cashier_ledgeraccount_changelist")).content
    transactions = admin_client.get(reverse("admin:cashier_ledgertransaction_changelist"))
    assert "Tournament prize pool" in accounts.decode()
    assert str(sng) in accounts.decode() and str(sng) in transactions.content.decode()
