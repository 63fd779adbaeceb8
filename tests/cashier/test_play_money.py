"""Play money: the sign-up grant and the hourly reload to the floor."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from accounts.signals import user_signed_up
from cashier.models import LedgerTransaction, TransactionKind
from cashier.money import Currency
from cashier.services import CashierError, ledger_transfer, play_money_reload, wallet_account

from .conftest import new_key

pytestmark = pytest.mark.django_db
PLAY = Currency.PLAY


def play_balance(user) -> int:
    return wallet_account(user=user, currency=PLAY).balance


def test_signing_up_grants_10000_play_chips_once(django_user_model):
    ann = django_user_model.objects.create_user(username="ann")
    user_signed_up.send(sender=type(ann), user=ann)
    user_signed_up.send(sender=type(ann), user=ann)  # the demo seeding may send it again
    assert play_balance(ann) == 10_000
    assert LedgerTransaction.objects.filter(user=ann, kind=TransactionKind.PLAY_GRANT).count() == 1


def _lose_chips(user, other, amount: int) -> None:
    ledger_transfer(source=wallet_account(user=user, currency=PLAY),
                    destination=wallet_account(user=other, currency=PLAY), amount=amount,
                    idempotency_key=new_key())


def test_a_reload_brings_a_wallet_below_the_floor_back_to_it(make_player):
    ann, bob = make_player("ann"), make_player("bob")
    _lose_chips(ann, bob, 9_200)
    tx = play_money_reload(user=ann, idempotency_key=new_key())
    assert play_balance(ann) == 10_000
    assert tx.entries.get(account__user=ann).amount == 9_200


def test_no_reload_at_or_above_the_floor(make_player):
    ann = make_player("ann")
    with pytest.raises(CashierError) as refused:
        play_money_reload(user=ann, idempotency_key=new_key())
    assert refused.value.code == "above_floor"


def test_at_most_one_reload_an_hour(make_player, monkeypatch):
    ann, bob = make_player("ann"), make_player("bob")
    _lose_chips(ann, bob, 9_000)
    play_money_reload(user=ann, idempotency_key=new_key())
    _lose_chips(ann, bob, 9_000)

    with pytest.raises(CashierError) as refused:
        play_money_reload(user=ann, idempotency_key=new_key())
    assert refused.value.code == "reload_too_soon"
    assert "try again in 60 min" in refused.value.message

    later = timezone.now() + datetime.timedelta(minutes=61)
    monkeypatch.setattr(timezone, "now", lambda: later)
    play_money_reload(user=ann, idempotency_key=new_key())
    assert play_balance(ann) == 10_000
