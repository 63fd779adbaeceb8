"""Cancelling refunds everyone who paid, once, and empties the pool."""
from __future__ import annotations

import uuid

import pytest

from cashier.audit import ledger_audit
from cashier.models import AccountKind, LedgerTransaction, TransactionKind
from cashier.money import Currency
from cashier.services import pool_account, system_account, wallet_account
from tables.errors import TableError
from tables.tournaments.models import (
    Entry,
    EntryState,
    Tournament,
    TournamentEvent,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services import (
    tournament_cancel,
    tournament_register,
    tournament_unregister,
)
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db
PLAY = Currency.PLAY


def register(tournament: Tournament, user) -> Entry:
    return tournament_register(tournament_id=tournament.pk, user=user, key=str(uuid.uuid4()))


def wallet(user) -> int:
    return wallet_account(user=user, currency=PLAY).balance


def test_cancelling_refunds_every_paid_entry_and_empties_the_pool(make_player):
    event = tournament_make(kind=TournamentKind.SCHEDULED, max_reentries=2)
    ann, bob, cy = (make_player(name) for name in ("ann", "bob", "cy"))
    first = register(event, ann)
    Entry.objects.filter(pk=first.pk).update(state=EntryState.BUSTED)  # then re-entered
    register(event, ann)
    register(event, bob)
    register(event, cy)
    tournament_unregister(tournament_id=event.pk, user=cy, key=str(uuid.uuid4()))

    cancelled = tournament_cancel(tournament_id=event.pk, reason="Server maintenance")

    assert cancelled.state == TournamentState.CANCELLED and cancelled.finished_at is not None
    assert [wallet(p) for p in (ann, bob, cy)] == [10_000, 10_000, 10_000]
    assert pool_account(tournament_id=event.pk, currency=PLAY).balance == 0
    assert system_account(kind=AccountKind.HOUSE, currency=PLAY).balance == 0
    assert set(Entry.objects.values_list("state", flat=True)) == {EntryState.UNREGISTERED}
    assert LedgerTransaction.objects.filter(kind=TransactionKind.TOURNAMENT_REFUND).count() == 4
    last = TournamentEvent.objects.filter(tournament=event).order_by("version").last()
    assert last.payload == {"type": "cancelled", "reason": "Server maintenance", "refunded": 3}
    assert ledger_audit().ok


def test_cancelling_twice_refunds_once(make_player):
    event = tournament_make()
    ann = make_player("ann")
    register(event, ann)
    tournament_cancel(tournament_id=event.pk)
    tournament_cancel(tournament_id=event.pk)
    assert wallet(ann) == 10_000
    assert TournamentEvent.objects.filter(tournament=event, type="cancelled").count() == 1


def test_a_cancelled_tournament_takes_no_registration(make_player):
    event = tournament_make()
    tournament_cancel(tournament_id=event.pk)
    with pytest.raises(TableError) as refused:
        register(event, make_player("ann"))
    assert refused.value.code == "registration_closed"


def test_a_finished_tournament_cannot_be_cancelled(make_player):
    event = tournament_make()
    register(event, make_player("ann"))
    Tournament.objects.filter(pk=event.pk).update(state=TournamentState.FINISHED)
    with pytest.raises(TableError) as refused:
        tournament_cancel(tournament_id=event.pk)
    assert refused.value.code == "tournament_over"
    assert pool_account(tournament_id=event.pk, currency=PLAY).balance == 1_000


def test_a_cancellation_that_cannot_refund_everyone_refunds_no_one(make_player, monkeypatch):
    event = tournament_make()
    ann, bob = make_player("ann"), make_player("bob")
    register(event, ann)
    register(event, bob)
    from tables.tournaments.services import cancelling

    real_refund, calls = cancelling.tournament_refund, []

    def refund_then_fail(**kwargs):
        calls.append(kwargs["user"])
        if len(calls) == 2:
            raise cancelling.CashierError("insufficient_funds", "The pool is short.")
        return real_refund(**kwargs)

    monkeypatch.setattr(cancelling, "tournament_refund", refund_then_fail)
    with pytest.raises(TableError):
        tournament_cancel(tournament_id=event.pk)

    assert [wallet(ann), wallet(bob)] == [8_900, 8_900]
    assert Tournament.objects.get(pk=event.pk).state == TournamentState.REGISTERING
    assert pool_account(tournament_id=event.pk, currency=PLAY).balance == 2_000
