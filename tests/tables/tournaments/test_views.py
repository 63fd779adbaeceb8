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


def test_a_busted_player_is_offered_a_re_entry_while_he_has_one_left(client, ann):
    from tables.tournaments.models import Tournament, TournamentState

    t = tournament_make(kind=TournamentKind.SCHEDULED, max_reentries=1,
                        late_registration_levels=2)
    page = reverse("tournaments:page", args=[t.pk])
    client.post(reverse("tournaments:register", args=[t.pk]), {"idempotency_key": uuid.uuid4()})
    Tournament.objects.filter(pk=t.pk).update(state=TournamentState.RUNNING, level=1)
    Entry.objects.filter(tournament=t, user=ann).update(state=EntryState.BUSTED, chips=0)

    html = client.get(page).content.decode()
    assert "Re-enter for 1,000 + 100" in html and "Re-entry 1 of 1" in html
    client.post(reverse("tournaments:register", args=[t.pk]), {"idempotency_key": uuid.uuid4()})
    assert "You are in (entry 2)" in client.get(page).content.decode()

    Entry.objects.filter(tournament=t, user=ann).update(state=EntryState.BUSTED, chips=0)
    html = client.get(page).content.decode()
    assert "Re-enter" not in html and "You are out: this tournament allows 1 re-entry." in html


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


def started_sng(make_player, ann) -> tuple:
    """A Sit & Go for two that Ann and Bob filled: it runs at one table."""
    from tables.models import TableConfig
    from tables.tournaments.services import tournament_register, tournament_start

    t = tournament_make(name="Heads Up", entries_cap=2, seats_per_table=2)
    for user in (ann, make_player("bob")):
        tournament_register(tournament_id=t.pk, user=user, key=str(uuid.uuid4()))
    tournament_start(tournament_id=t.pk)  # (what the registration's commit does)
    return t, TableConfig.objects.get(tournament=t)


def test_a_tournament_table_shows_the_level_line_and_follows_the_tournament(
        client, ann, make_player, fake_timers):
    t, table = started_sng(make_player, ann)
    html = client.get(reverse("tables:table", args=[table.pk])).content.decode()
    assert f'id="tournament-line" data-tournament-id="{t.pk}" data-user-id="{ann.pk}" role="group"' in html
    assert 'id="tournament-status" role="status"' in html
    assert "js/tournament/live.js" in html
    assert reverse("tournaments:page", args=[t.pk]) in html
    cash = tournament_make().pk  # (a cash table has neither)
    from tables.models import TableConfig
    other = TableConfig.objects.create(name="Oak", structure="NL", lower_stake=2, max_seats=6)
    html = client.get(reverse("tables:table", args=[other.pk])).content.decode()
    assert "tournament-line" not in html and "js/tournament/" not in html and cash


def test_the_lobby_lists_your_tournaments_and_watches_them_for_alerts(client, ann, make_player):
    waiting = tournament_make(name="Turbo Six")
    tournament_make(name="Not Mine")
    from tables.tournaments.services import tournament_register
    tournament_register(tournament_id=waiting.pk, user=ann, key=str(uuid.uuid4()))

    html = client.get(reverse("lobby")).content.decode()
    box = html[html.index('class="my-tournaments"'):]
    box = box[:box.index("</section>")]
    assert "Your tournaments" in box and "Turbo Six" in box and "Not Mine" not in box
    assert f'data-tournament-alerts="{waiting.pk}" data-user-id="{ann.pk}"' in html
    assert 'role="status"' in box and "js/tournament/live.js" in box

    client.logout()
    html = client.get(reverse("lobby")).content.decode()
    assert "Your tournaments" not in html and "js/tournament/" not in html


def test_a_finished_tournament_shows_places_and_prizes(client, ann, make_player, fake_timers):
    from tables import services
    from tests.tables.helpers import play_out

    t, table = started_sng(make_player, ann)
    while services.hand_start(table_id=table.pk, force=True) is not None:
        play_out(table.pk, passive=False)
    page = client.get(reverse("tournaments:page", args=[t.pk]))
    html = page.content.decode()
    results = html[html.index('id="t-results"'):html.index("</section>", html.index('id="t-results"'))]
    assert " hidden" not in results[:results.index(">")]
    winner, second = page.context["places"]
    assert (winner.place, winner.prize, second.place, second.prize) == (1, 2_000, 2, 0)
    assert f'<li value="1"><strong>{winner.name}</strong> · 2,000</li>' in results
    assert f'<li value="2"><strong>{second.name}</strong></li>' in results
    assert f'id="tournament-live" data-tournament-id="{t.pk}"' in html


REBUY_TERMS = {"max_rebuys": 1, "rebuy_levels": 1, "rebuy_price": 500, "rebuy_chips": 1_500,
               "rebuy_max_stack": 1_500, "addon_price": 700, "addon_chips": 2_000}


def started_rebuy_sng(make_player, ann, **terms) -> tuple:
    """A heads-up Sit & Go with rebuys through level 1 and an add-on at the break after it
    (its levels: 1, a break, 2), started."""
    from tables.models import TableConfig
    from tables.tournaments.models import Level
    from tables.tournaments.services import tournament_create, tournament_register, tournament_start
    from tests.tables.tournaments.factories import template_make

    template = template_make(levels=0, entries_cap=2, seats_per_table=2,
                             **{**REBUY_TERMS, **terms})
    for order, is_break in ((1, False), (2, True), (3, False)):
        Level.objects.create(template=template, order=order, small_blind=0 if is_break else 10,
                             big_blind=0 if is_break else 20, is_break=is_break, minutes=5)
    t = tournament_create(template=template, starts_at=None, registering=True)
    for user in (ann, make_player("bob")):
        tournament_register(tournament_id=t.pk, user=user, key=str(uuid.uuid4()))
    tournament_start(tournament_id=t.pk)
    return t, TableConfig.objects.get(tournament=t)


def test_the_page_offers_a_rebuy_and_states_the_terms_and_a_double_submit_buys_once(
        client, ann, make_player, fake_timers):
    from tables.tournaments.models import Purchase

    t, _table = started_rebuy_sng(make_player, ann)
    before = wallet(ann)
    page = client.get(reverse("tournaments:page", args=[t.pk]))
    html = page.content.decode()
    assert "Rebuy: 1500 chips for 500" in html
    assert "Add-on:" not in html.split('id="t-rebuy-terms"')[0]  # no add-on button in level 1
    assert "up to 1 per entry" in html and "2000 chips for 700" in html  # the structure's terms
    key = page.context["rebuy_form"]["idempotency_key"].value()

    for _ in range(2):
        answer = client.post(reverse("tournaments:rebuy", args=[t.pk]), {"idempotency_key": key})
        assert answer.status_code == 302

    assert Purchase.objects.filter(entry__user=ann).count() == 1
    assert wallet(ann) == before - 500
    html = client.get(reverse("tournaments:page", args=[t.pk])).content.decode()
    assert "Rebuy: 1500" not in html  # his stack plus the chips bought is above 1,500 now
    assert "(1 rebuy)" in html and "2,500" in html  # the pool: two buy-ins and the rebuy


def test_rebuy_and_add_on_refusals_over_http(client, ann, make_player, fake_timers):
    t, _table = started_rebuy_sng(make_player, ann)
    rebuy_url, addon_url = (reverse("tournaments:rebuy", args=[t.pk]),
                            reverse("tournaments:addon", args=[t.pk]))
    assert client.post(rebuy_url, {}).status_code == 400  # no request key
    answer = client.post(addon_url, {"idempotency_key": uuid.uuid4()})
    assert answer.status_code == 409 and "break" in answer.content.decode()  # level 1
    client.post(rebuy_url, {"idempotency_key": uuid.uuid4()})
    again = client.post(rebuy_url, {"idempotency_key": uuid.uuid4()})
    assert again.status_code == 409 and "rebuy" in again.content.decode().lower()
    assert client.get(rebuy_url).status_code == 405
    client.logout()
    assert client.post(rebuy_url, {"idempotency_key": uuid.uuid4()}).status_code == 403
    assert client.post(addon_url, {"idempotency_key": uuid.uuid4()}).status_code == 403


def test_the_add_on_is_offered_and_bought_at_its_break(client, ann, make_player, fake_timers):
    import datetime

    from django.utils import timezone

    from tables.tournaments.models import Purchase, Tournament
    from tables.tournaments.services import tournament_clock

    t, _table = started_rebuy_sng(make_player, ann)
    Tournament.objects.filter(pk=t.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=6))  # the break after level 1
    tournament_clock(tournament_id=t.pk)
    page = client.get(reverse("tournaments:page", args=[t.pk]))
    assert "Add-on: 2000 chips for 700" in page.content.decode()
    key = page.context["addon_form"]["idempotency_key"].value()
    assert client.post(reverse("tournaments:addon", args=[t.pk]),
                       {"idempotency_key": key}).status_code == 302
    assert Purchase.objects.get(entry__user=ann).kind == "addon"
    assert "Add-on: 2000" not in client.get(reverse("tournaments:page", args=[t.pk])
                                            ).content.decode()
