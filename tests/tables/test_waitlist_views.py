"""The waiting list over HTTP: join and leave from the lobby and the table page (htmx posts with
CSRF), the box that shows a held seat, and the refusals (anonymous, bad input)."""
from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tables import services
from tables.models import WaitingListEntry
from tables.services import waitlist

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_expiry_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(waitlist, "offer_expire_schedule", lambda **kw: None)


@pytest.fixture
def full_table(make_table, make_player, sit):
    table = make_table(name="Duel", lower_stake=2, max_seats=2, hand_pause_seconds=0)
    table.alice, table.bob = make_player("alice"), make_player("bob")
    sit(table, table.alice, 1)
    sit(table, table.bob, 2)
    return table


@pytest.fixture
def carol(make_player, client):
    user = make_player("carol")
    client.force_login(user)
    return user


def join_url(table) -> str:
    return reverse("tables:waitlist_join", args=[table.pk])


def leave_url(table) -> str:
    return reverse("tables:waitlist_leave", args=[table.pk])


def test_joining_from_the_lobby_with_htmx_answers_the_updated_box(client, full_table, carol):
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'hx-post="{join_url(full_table)}"' in lobby  # a full table offers the list
    assert "Join waiting list" in lobby

    response = client.post(join_url(full_table), HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert f'id="waitlist-{full_table.pk}"' in html
    assert "Waiting list: #1 of 1" in html
    assert WaitingListEntry.objects.filter(table=full_table, player=carol).exists()
    assert "Waiting list: #1 of 1" in client.get(reverse("lobby")).content.decode()


def test_without_javascript_the_form_posts_and_goes_back(client, full_table, carol):
    response = client.post(join_url(full_table), {"next": "/?sort=name"})

    assert response.status_code == 302 and response["Location"] == "/?sort=name"
    response = client.post(leave_url(full_table), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("tables:table", args=[full_table.pk])
    assert not WaitingListEntry.objects.exists()


def test_the_table_page_box_shows_a_held_seat_and_polls(client, full_table, carol):
    page = client.get(reverse("tables:table", args=[full_table.pk])).content.decode()
    assert f'hx-get="{reverse("tables:waitlist", args=[full_table.pk])}?poll=1"' in page
    client.post(join_url(full_table), HTTP_HX_REQUEST="true")

    services.seat_leave(table_id=full_table.pk, user_id=full_table.alice.pk,
                        idempotency_key=uuid.uuid4().hex)
    box = client.get(reverse("tables:waitlist", args=[full_table.pk]), {"poll": "1"}).content.decode()

    assert "Seat 1 is held for you" in box
    assert 'data-take-seat="1"' in box and "Take seat 1" in box
    assert 'hx-trigger="every 3s"' in box
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'href="/tables/{full_table.pk}/?take=1"' in lobby  # the lobby shows the offer too


def test_declining_an_offer_passes_it_on(client, full_table, carol, make_player):
    dave = make_player("dave")
    client.post(join_url(full_table), HTTP_HX_REQUEST="true")
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    services.seat_leave(table_id=full_table.pk, user_id=full_table.alice.pk,
                        idempotency_key=uuid.uuid4().hex)

    response = client.post(leave_url(full_table), HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert WaitingListEntry.objects.get(player=dave).offered_seat == 1


def test_anonymous_visitors_are_refused_with_a_message(full_table):
    client = Client()
    for url in (join_url(full_table), leave_url(full_table)):
        response = client.post(url, HTTP_HX_REQUEST="true")
        assert response.status_code == 403
        assert "Log in to use the waiting list." in response.content.decode()
    assert not WaitingListEntry.objects.exists()


@pytest.mark.parametrize(("setup", "url", "message"), [
    ("not_full", join_url, "free: sit down instead"),
    ("seated", join_url, "You already sit at this table."),
    ("twice", join_url, "You are already on this table"),
    ("none", leave_url, "You are not on this table"),
])
def test_bad_requests_get_409_with_the_reason(client, full_table, make_table, make_player, setup,
                                                url, message):
    user = full_table.alice if setup == "seated" else make_player("erin")
    client.force_login(user)
    table = make_table(name="Empty") if setup == "not_full" else full_table
    if setup == "twice":
        client.post(join_url(table), HTTP_HX_REQUEST="true")

    response = client.post(url(table), HTTP_HX_REQUEST="true")

    assert response.status_code == 409
    assert message in response.content.decode()
    assert 'role="alert"' in response.content.decode()


def test_wrong_method_unknown_table_and_missing_csrf_are_refused(full_table, carol):
    client = Client(enforce_csrf_checks=True)
    client.force_login(carol)

    assert client.get(join_url(full_table)).status_code == 405
    assert client.post(reverse("tables:waitlist_join", args=[999999])).status_code in (403, 404)
    assert client.post(join_url(full_table)).status_code == 403  # no CSRF token
    assert not WaitingListEntry.objects.exists()
    token_client = Client()
    token_client.force_login(carol)
    assert token_client.post(reverse("tables:waitlist_join", args=[999999])).status_code == 404


def test_lobby_rows_are_shared_by_visitors_without_a_place_and_their_forms_still_post(
        full_table, make_player, settings):
    """Every open lobby polls its list every 5 s: a row is rendered once per interval for the
    visitors with no seat or waiting-list place at its table, without a CSRF token (it would
    be someone else's). Joining from it works with the token htmx sends from <body>; from
    then on that row is rendered for him alone, and the seated players' too."""
    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    carol, dave = make_player("carol"), make_player("dave")
    clients = {}
    for user in (carol, dave):
        clients[user] = Client(enforce_csrf_checks=True)
        clients[user].force_login(user)
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}

    carols = clients[carol].get(reverse("lobby"), **poll).content.decode()
    full_table.name = "Renamed"
    full_table.save()  # not in the list for another minute
    response = clients[dave].get(reverse("lobby"), **poll)
    daves = response.content.decode()

    assert daves == carols and "Duel" in daves
    assert "tables/_lobby_row.html" not in {t.name for t in response.templates}  # Carol's rows
    assert "csrfmiddlewaretoken" not in daves
    token = clients[dave].get(reverse("lobby")).cookies["csrftoken"].value  # the full page
    joined = clients[dave].post(join_url(full_table), HTTP_X_CSRFTOKEN=token, **poll)
    assert joined.status_code == 200 and "Waiting list: #1 of 1" in joined.content.decode()
    own = clients[dave].get(reverse("lobby"), **poll).content.decode()
    assert "Waiting list: #1 of 1" in own and own != carols
    assert "csrfmiddlewaretoken" in own
    clients[carol].force_login(full_table.alice)  # seated there: no "Join waiting list" for her
    assert "Join waiting list" not in clients[carol].get(reverse("lobby"), **poll).content.decode()


def test_joining_from_a_lobby_row_updates_its_waiting_count_at_once(client, full_table, carol):
    response = client.post(join_url(full_table), {"lobby": "1"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert "Waiting list: #1 of 1" in html
    assert (f'<td class="waiting" id="lobby-waiting-{full_table.pk}" data-label="Waiting" '
            f'hx-swap-oob="true">1</td>') in html
    assert "hx-swap-oob" not in client.post(  # from the table page: no lobby row to update
        leave_url(full_table), HTTP_HX_REQUEST="true").content.decode()
