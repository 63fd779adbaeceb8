"""The Tournaments tab and a tournament's page over HTTP: the list with its filters, the page's
payouts, players and structure, and registering with the page's request key (a double submit
enters once), unregistering with a refund, and the refusals."""
from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from cashier.models import AccountKind, LedgerAccount
from cashier.services import play_money_grant
from tables.tournaments.models import Entry, EntryState, TournamentKind
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db


def wallet(user) -> int:
    return LedgerAccount.objects.get(kind=AccountKind.WALLET, user=user, currency="PLAY").balance


@pytest.fixture
def ann(client, make_user):
    user = make_user("ann")
    play_money_grant(user=user)
    client.force_login(user)
    return user


def test_the_tab_lists_tournaments_with_field_pool_and_state_and_filters_them(client, ann):
    sng = tournament_make(name="Turbo Six")
    scheduled = tournament_make(name="Sunday Warm-Up", kind=TournamentKind.SCHEDULED,
                                guarantee=50_000)

    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Turbo Six" in html and "Sunday Warm-Up" in html
    assert "When full" in html  # a Sit & Go has no start time
    assert "1,000 + 100" in html  # buy-in + fee
    assert "50,000" in html  # the guarantee is the pool until the buy-ins pass it

    partial = client.get(reverse("tournaments:list"), {"kind": TournamentKind.SIT_AND_GO},
                         HTTP_HX_REQUEST="true")
    assert [r.tournament for r in partial.context["rows"]] == [sng]
    assert client.get(reverse("tournaments:list"), {"state": "nonsense"}).status_code == 400
    assert scheduled.pk != sng.pk


def test_registering_enters_once_and_the_page_shows_the_player_and_payouts(client, ann):
    t = tournament_make(name="Turbo Six")
    before = wallet(ann)
    page = client.get(reverse("tournaments:page", args=[t.pk]))
    key = page.context["form"]["idempotency_key"].value()

    for _ in range(2):  # a double submit of the same form
        answer = client.post(reverse("tournaments:register", args=[t.pk]),
                             {"idempotency_key": key})
        assert answer.status_code == 302

    assert Entry.objects.filter(tournament=t, user=ann).count() == 1
    assert wallet(ann) == before - 1_100  # buy-in and fee, once
    html = client.get(reverse("tournaments:page", args=[t.pk])).content.decode()
    assert "You are in" in html and "1 of 1" in html
    assert "1,000" in html  # the prize pool: one buy-in
    assert ">100%<" in html  # one entry so far: the smallest band pays one place


def test_unregistering_before_the_start_refunds_buy_in_and_fee(client, ann):
    t = tournament_make()
    before = wallet(ann)
    client.post(reverse("tournaments:register", args=[t.pk]), {"idempotency_key": uuid.uuid4()})
    client.post(reverse("tournaments:unregister", args=[t.pk]), {"idempotency_key": uuid.uuid4()})

    assert wallet(ann) == before
    assert Entry.objects.get(tournament=t, user=ann).state == EntryState.UNREGISTERED


def test_refusals_say_why_and_move_nothing(client, ann, make_user):
    t = tournament_make()
    url = reverse("tournaments:register", args=[t.pk])
    assert client.post(url, {}).status_code == 400  # no request key
    client.post(url, {"idempotency_key": uuid.uuid4()})
    again = client.post(url, {"idempotency_key": uuid.uuid4()})
    assert again.status_code == 409 and "already" in again.content.decode().lower()

    client.logout()
    assert client.post(url, {"idempotency_key": uuid.uuid4()}).status_code == 403
    assert client.get(reverse("tournaments:register", args=[t.pk])).status_code == 405
    assert client.get(reverse("tournaments:page", args=[999_999])).status_code == 404
    assert Entry.objects.filter(tournament=t).count() == 1
