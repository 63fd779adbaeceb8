"""The lobby: every table with its statistics, filters as htmx partials and full pages."""
from __future__ import annotations

import concurrent.futures
import datetime
import threading
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from tables import selectors
from tables.models import HandSummary, Seat
from tables.selectors import LobbyFilters, lobby_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_tables(make_table):
    return {
        "limit": make_table(name="Limit $5/$10", structure="FL", currency="REAL", lower_stake=500,
                            small_blind_rule="round_down", max_seats=10, min_buy_in_bb=10),
        "nl_play": make_table(name="NL 1/2 play", structure="NL", currency="PLAY", lower_stake=2,
                              max_seats=6),
        "pl_play": make_table(name="PL 2/5 play", structure="PL", currency="PLAY", lower_stake=5,
                              small_blind_rule="explicit", small_blind=2),
        "hu": make_table(name="HU NL $5/$10", structure="NL", currency="REAL", lower_stake=1000,
                         max_seats=2),
    }


def names(response) -> list[str]:
    return [item[0].table.name for item in response.context["items"]]


def test_the_lobby_lists_every_table_with_stakes_and_seats(client, demo_tables):
    response = client.get(reverse("lobby"))

    html = response.content.decode()
    assert response.status_code == 200
    assert sorted(names(response)) == sorted(t.name for t in demo_tables.values())
    assert "$5/$10" in html  # limit: lower/upper stake
    assert "2/5" in html  # pot limit: small/big blind
    assert "0/6" in html  # seats taken / max
    assert '<form id="lobby-filters"' in html  # a full page, with the filters


def test_a_htmx_request_gets_only_the_list(client, demo_tables):
    response = client.get(reverse("lobby"), {"structure": "FL"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="lobby-list"')
    assert "<html" not in html
    assert names(response) == ["Limit $5/$10"]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"structure": "NL"}, {"NL 1/2 play", "HU NL $5/$10"}),
        ({"structure": "PL"}, {"PL 2/5 play"}),
        ({"currency": "REAL"}, {"Limit $5/$10", "HU NL $5/$10"}),
        ({"currency": "PLAY"}, {"NL 1/2 play", "PL 2/5 play"}),
        # Stakes are compared in whole units: dollars at real tables, chips at play tables.
        ({"min_bb": "5"}, {"Limit $5/$10", "PL 2/5 play", "HU NL $5/$10"}),
        ({"max_bb": "5"}, {"Limit $5/$10", "NL 1/2 play", "PL 2/5 play"}),
        ({"min_bb": "6", "max_bb": "10"}, {"HU NL $5/$10"}),
        ({"structure": "NL", "currency": "PLAY"}, {"NL 1/2 play"}),
    ],
)
def test_each_filter_as_a_full_page_and_as_a_partial(client, demo_tables, params, expected):
    full = client.get(reverse("lobby"), params)
    partial = client.get(reverse("lobby"), params, HTTP_HX_REQUEST="true")

    assert set(names(full)) == expected
    assert set(names(partial)) == expected


def test_hide_full_hides_tables_whose_seats_are_all_taken(client, demo_tables, make_user):
    hu = demo_tables["hu"]
    for number in (1, 2):
        Seat.objects.create(table=hu, number=number, player=make_user(f"p{number}"), chips=50000)

    shown = client.get(reverse("lobby"), {"currency": "REAL"})
    hidden = client.get(reverse("lobby"), {"currency": "REAL", "hide_full": "on"})

    assert "2/2" in shown.content.decode()
    assert set(names(shown)) == {"Limit $5/$10", "HU NL $5/$10"}
    assert names(hidden) == ["Limit $5/$10"]


def test_bad_filter_values_get_a_400_with_the_reason(client, demo_tables):
    response = client.get(reverse("lobby"), {"min_bb": "10", "max_bb": "1"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert "The lower big blind bound is above the upper one." in response.content.decode()
    assert response.context["items"] == []

    response = client.get(reverse("lobby"), {"structure": "XX"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_the_list_refreshes_itself_with_the_current_filters(client, demo_tables):
    html = client.get(reverse("lobby")).content.decode()

    assert 'hx-trigger="every 5s"' in html
    assert 'hx-include="#lobby-filters"' in html


def test_statistics_are_zero_until_hands_are_played(demo_tables):
    row = next(r for r in lobby_rows(LobbyFilters()) if r.table == demo_tables["nl_play"])

    assert (row.average_pot, row.players_per_flop_percent, row.hands_per_hour) == (0, 0, 0)


def test_statistics_come_from_the_last_hour_of_finished_hands(demo_tables):
    now = timezone.now()
    table = demo_tables["nl_play"]
    for minutes_ago, pot, dealt, saw_flop in [(5, 30, 6, 3), (20, 50, 6, 2), (50, 100, 5, 5),
                                              (90, 9999, 6, 6)]:  # the last one is too old
        HandSummary.objects.create(
            table=table, finished_at=now - datetime.timedelta(minutes=minutes_ago), pot=pot,
            players_dealt=dealt, players_saw_flop=saw_flop,
        )

    row = next(r for r in lobby_rows(LobbyFilters(), now=now) if r.table == table)

    assert row.hands_per_hour == 3
    assert row.average_pot == 60  # (30 + 50 + 100) / 3
    assert row.average_pot_label == "60"  # chips; a real-money table shows dollars
    assert row.players_per_flop_percent == 58  # 10 of 17 players dealt in saw the flop


def test_real_money_statistics_are_shown_in_dollars(client, demo_tables):
    HandSummary.objects.create(table=demo_tables["limit"], finished_at=timezone.now(), pot=12550,
                               players_dealt=4, players_saw_flop=2)

    html = client.get(reverse("lobby"), {"currency": "REAL"}).content.decode()

    assert '<td class="avg_pot" data-label="Avg pot">$125.50</td>' in html


def test_inactive_tables_are_not_listed(client, demo_tables):
    demo_tables["pl_play"].is_active = False
    demo_tables["pl_play"].save()

    assert "PL 2/5 play" not in names(client.get(reverse("lobby")))


# Sorting, average stack, table id, rake --------------------------------------------------------
def test_any_column_sorts_the_list_both_ways(client, demo_tables):
    HandSummary.objects.create(table=demo_tables["pl_play"], finished_at=timezone.now(), pot=90,
                               players_dealt=3, players_saw_flop=2)
    HandSummary.objects.create(table=demo_tables["nl_play"], finished_at=timezone.now(), pot=40,
                               players_dealt=3, players_saw_flop=2)

    desc = client.get(reverse("lobby"), {"sort": "avg_pot", "dir": "desc"}, HTTP_HX_REQUEST="true")
    asc = client.get(reverse("lobby"), {"sort": "avg_pot", "dir": "asc"})
    by_seats = client.get(reverse("lobby"), {"sort": "seats", "dir": "desc"})

    assert names(desc)[:2] == ["PL 2/5 play", "NL 1/2 play"]
    assert names(asc)[-2:] == ["NL 1/2 play", "PL 2/5 play"]
    assert names(by_seats)[0] == "Limit $5/$10"  # 10 seats: most seats when none are taken
    html = desc.content.decode()
    # the active column says so and its link turns the order; the others keep the filters
    assert 'aria-sort="descending"' in html
    assert 'href="?sort=avg_pot&amp;dir=asc"' in html
    assert 'hx-push-url="true"' in html


def test_sorting_keeps_the_filters_and_the_filters_keep_the_sort(client, demo_tables):
    response = client.get(reverse("lobby"), {"currency": "PLAY", "sort": "name", "dir": "desc"},
                          HTTP_HX_REQUEST="true")
    html = response.content.decode()

    assert names(response) == ["PL 2/5 play", "NL 1/2 play"]
    assert 'href="?currency=PLAY&amp;sort=stakes&amp;dir=asc"' in html
    # the filter form's sort fields are updated out of band, so a filter change keeps the sort
    assert 'id="lobby-sort" class="sort-fields" hx-swap-oob="true"' in html
    assert '<option value="name" selected>' in html


def test_each_sort_gets_its_own_head_though_the_head_is_drawn_once_for_every_poll(
        client, demo_tables):
    """The column heads and the sort fields are kept for every poll with the same filters
    (they cost a poll half its time): a new sort must not get the last one's."""
    by_name = client.get(reverse("lobby"), {"sort": "name", "dir": "desc"}, HTTP_HX_REQUEST="true")
    by_pot = client.get(reverse("lobby"), {"sort": "avg_pot", "dir": "asc"},
                        HTTP_HX_REQUEST="true")
    again = client.get(reverse("lobby"), {"sort": "name", "dir": "desc"}, HTTP_HX_REQUEST="true")

    html = by_pot.content.decode()
    assert '<th scope="col" class="avg_pot" aria-sort="ascending">' in html
    assert '<option value="avg_pot" selected>' in html and '<option value="asc" selected>' in html
    assert 'aria-sort="descending"' not in html
    assert again.content == by_name.content


def test_a_poll_reads_his_session_his_account_and_his_places_once(
        client, demo_tables, make_user, settings, django_assert_num_queries):
    """Every open lobby polls every 5 s: what a poll reads beyond the shared rows is the
    visitor's own, one query each, whatever the page shows; his seats, waiting-list places and
    self-exclusion are one query (`visitor_places`)."""
    settings.ROOM_LOBBY_FRESH_SECONDS = 60  # the shared rows stay fresh however slow the run
    ann = make_user("ann")
    Seat.objects.create(table=demo_tables["hu"], player=ann, number=1, chips=2000)
    client.force_login(ann)
    client.get(reverse("lobby"), HTTP_HX_REQUEST="true")  # the shared rows, computed

    with django_assert_num_queries(3):
        response = client.get(reverse("lobby"), HTTP_HX_REQUEST="true")
    assert f'data-table-id="{demo_tables["hu"].pk}"' in response.content.decode()


def test_an_unknown_sort_is_a_bad_request(client, demo_tables):
    response = client.get(reverse("lobby"), {"sort": "secret"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_average_stack_is_the_mean_of_the_seated_players_chips(client, demo_tables, make_user):
    table = demo_tables["nl_play"]
    for number, chips in ((1, 100), (2, 250), (3, 60)):
        Seat.objects.create(table=table, number=number, player=make_user(f"s{number}"), chips=chips)
    Seat.objects.create(table=demo_tables["hu"], number=1, player=make_user("r1"), chips=123456)

    rows = {r.table.name: r for r in lobby_rows(LobbyFilters(sort="avg_stack", descending=True))}

    assert rows["NL 1/2 play"].average_stack == 137  # (100 + 250 + 60) / 3, rounded
    assert rows["HU NL $5/$10"].average_stack_label == "$1,234.56"
    assert rows["PL 2/5 play"].average_stack_label == "—"  # nobody seated
    assert next(iter(rows)) == "HU NL $5/$10"


def test_each_row_shows_the_table_id_and_its_rake(client, make_table):
    raked = make_table(name="Raked", rake_percent="5.00", rake_cap=300, currency="REAL",
                       lower_stake=200)
    half = make_table(name="Half", rake_percent="2.5")
    make_table(name="Free")

    html = client.get(reverse("lobby")).content.decode()
    rows = {r.table.name: r for r in lobby_rows(LobbyFilters())}

    assert rows["Raked"].rake_label == "5% cap $3"
    assert rows["Half"].rake_label == "2.5% no cap"
    assert rows["Free"].rake_label == "none"
    assert f'<span class="table-id muted" title="Table id">#{raked.pk}</span>' in html
    assert '<td class="rake" data-label="Rake">5% cap $3</td>' in html
    assert f"#{half.pk}" in html


def test_a_bad_filter_empties_the_list_and_says_why(client, demo_tables):
    response = client.get(reverse("lobby"), {"min_bb": "5", "max_bb": "2"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 400  # static/js/lobby.js tells htmx to swap it in anyway
    assert 'role="alert"' in html and "The lower big blind bound is above the upper one." in html
    assert 'class="table-row' not in html
    assert "Fix the filters to see tables." in html


def test_a_long_lobby_comes_in_pages_and_the_poll_keeps_the_page(client, make_table):
    """Every visitor's list is re-rendered at each poll: 120 tables come 50 to a page, the
    5 s poll asks for the page on screen, and a new sort starts again at the first page."""
    for n in range(120):
        make_table(name=f"T{n:03}", lower_stake=2)

    first = client.get(reverse("lobby"), {"sort": "name"})
    third = client.get(reverse("lobby"), {"sort": "name", "page": 3}, HTTP_HX_REQUEST="true")

    assert names(first) == [f"T{n:03}" for n in range(50)]
    assert names(third) == [f"T{n:03}" for n in range(100, 120)]
    html = third.content.decode()
    assert "Tables 101\u2013120 of 120" in html
    assert """hx-vals='{"page": "3"}'""" in html  # the poll stays on page 3
    assert 'rel="prev" href="?sort=name&amp;page=2"' in html and 'rel="next"' not in html
    assert 'href="?sort=hands&amp;dir=asc"' in html  # a new sort: back to page 1
    assert names(client.get(reverse("lobby"), {"sort": "name", "page": 99})) == names(third)


def test_visitors_seated_nowhere_on_the_page_take_one_list_drawn_while_the_rows_last(
        client, demo_tables, make_user, settings):
    """Most polls come from players seated at other tables: their list is the same, drawn once
    for the rows of the moment. A visitor seated on the page gets that list with his rows drawn
    for him (tests/tables/test_waitlist_views.py shows them), and new rows are drawn anew."""
    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    Seat.objects.create(table=demo_tables["hu"], player=cy, number=1, chips=2000)
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}

    client.force_login(ann)
    drawn = client.get(reverse("lobby"), **poll)
    client.force_login(bob)
    taken = client.get(reverse("lobby"), **poll)
    client.force_login(cy)
    his_own = client.get(reverse("lobby"), **poll)

    assert drawn.templates and not taken.templates
    assert taken.content == drawn.content
    assert {t.name for t in his_own.templates} == {"tables/_lobby_row.html",
                                                    "tables/_waitlist.html"}  # his row alone
    assert his_own.content.decode().count('data-label="Seats">') == 4

    Seat.objects.create(table=demo_tables["nl_play"], player=ann, number=1, chips=200)
    selectors.rows_forget()  # the interval is over: the next poll computes the rows
    client.force_login(bob)
    anew = client.get(reverse("lobby"), **poll)
    assert anew.templates
    assert f'data-table-id="{demo_tables["nl_play"].pk}"' in anew.content.decode()
    assert anew.content.decode().count('data-label="Seats">1/6<') == 1  # ann's, in the new rows


def test_a_row_drawn_at_another_moment_than_the_list_draws_his_whole_list(
        client, demo_tables, make_user, settings, monkeypatch):
    """His rows replace theirs in the shared list; were their HTML not the list's (a cache
    that dropped one and drew it anew from other rows), his list is drawn for him whole."""
    from tables import views

    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    ann, cy = make_user("ann"), make_user("cy")
    Seat.objects.create(table=demo_tables["hu"], player=cy, number=1, chips=2000)
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}
    client.force_login(ann)
    client.get(reverse("lobby"), **poll)  # the shared list and rows, drawn
    monkeypatch.setattr(views, "_rows_shared", lambda request, items, excluded: [
        (row, wl, "<tr>another moment</tr>") for row, wl in items])

    client.force_login(cy)
    his = client.get(reverse("lobby"), **poll)

    assert "tables/_lobby_list.html" in {t.name for t in his.templates}
    assert "another moment" not in his.content.decode()
    assert his.content.decode().count('data-label="Seats">') == 4


@pytest.mark.django_db(transaction=True)  # the polls' threads see the tables and visitors
def test_while_one_poll_draws_a_new_list_the_others_wait_for_it_rather_than_draw_it_too(
        demo_tables, make_user, settings, monkeypatch):
    """The rows change every few seconds for hundreds of open lobbies: the polls that come while
    one draws the new list take it when it is drawn (each drew it before: 50 rows, tens of ms)."""
    from django.db import connection
    from django.test import Client

    from tables import views

    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    drawn, drawing, finish = [], threading.Event(), threading.Event()
    render = views.render_to_string

    def slow_render(template, *args, **kwargs):
        if template == "tables/_lobby_list.html":
            drawn.append(template)
            drawing.set()
            finish.wait(10)
        return render(template, *args, **kwargs)

    monkeypatch.setattr(views, "render_to_string", slow_render)

    clients = {name: Client() for name in ("ann", "bob")}
    for name, client in clients.items():
        client.force_login(make_user(name))

    def poll(name: str) -> bytes:
        try:
            return clients[name].get(reverse("lobby"), HTTP_HX_REQUEST="true",
                                     HTTP_HX_CURRENT_URL="http://testserver/").content
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(poll, "ann")
        assert drawing.wait(10)
        second = pool.submit(poll, "bob")
        time.sleep(0.2)  # bob's poll waits at the lock, not in a render of its own
        assert drawn == ["tables/_lobby_list.html"]
        finish.set()
        assert first.result(10) == second.result(10)
    assert drawn == ["tables/_lobby_list.html"]


def test_the_rows_are_computed_once_per_interval_for_every_poll(
        client, demo_tables, make_user, settings, django_assert_num_queries):
    """Computing the rows reads every table's last hour: with many players polling it would
    grow with tables x players. Shared for ROOM_LOBBY_FRESH_SECONDS, it is paid once."""
    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    lobby_rows(LobbyFilters())  # computed now
    Seat.objects.create(table=demo_tables["hu"], player=make_user("ann"), number=1, chips=2000)

    with django_assert_num_queries(0):
        rows = {r.table.name: r for r in lobby_rows(LobbyFilters(structure="NL"))}
    assert rows["HU NL $5/$10"].seats_taken == 0  # as computed, seconds ago

    settings.ROOM_LOBBY_FRESH_SECONDS = 0  # the interval is over
    rows = {r.table.name: r for r in lobby_rows(LobbyFilters(structure="NL"))}
    assert set(rows) == {"NL 1/2 play", "HU NL $5/$10"}
    assert rows["HU NL $5/$10"].seats_taken == 1


def test_while_one_poll_computes_the_rows_the_others_take_the_last_ones_at_once(
        demo_tables, settings, monkeypatch):
    """A poll that finds the rows due computes them; one that comes meanwhile does not wait
    for it: it gets the rows of the interval before."""
    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    last = selectors.rows_fresh()
    settings.ROOM_LOBBY_FRESH_SECONDS = 0  # due
    computing, finish, new = threading.Event(), threading.Event(), [object()]

    def slow_compute() -> list:
        computing.set()
        finish.wait(10)
        return new

    monkeypatch.setattr(selectors, "rows_compute", slow_compute)
    first = concurrent.futures.ThreadPoolExecutor(1).submit(selectors.rows_fresh)
    assert computing.wait(10)
    assert selectors.rows_fresh() is last  # at once, while the first computes
    finish.set()
    assert first.result(10) is new


def test_a_self_excluded_player_is_offered_no_seat_in_the_lobby(client, demo_tables, make_user,
                                                               settings):
    """He may watch, but Play and the waiting list are gone, and the page says why, in the
    cashier's words; the shared rows of the other visitors keep their Play links."""
    from cashier.services import self_exclusion_start

    settings.ROOM_LOBBY_FRESH_SECONDS = 60
    ann, bob = make_user("ann"), make_user("bob")
    self_exclusion_start(user=ann, days=7)
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}

    client.force_login(bob)
    assert "Play at NL 1/2 play" in client.get(reverse("lobby"), **poll).content.decode()
    client.force_login(ann)
    page = client.get(reverse("lobby")).content.decode()
    polled = client.get(reverse("lobby"), **poll).content.decode()

    assert "You are self-excluded until" in page and "cannot sit down at a table" in page
    for html in (page, polled):
        assert "Play at" not in html and "Join the waiting list" not in html
        assert "Watch NL 1/2 play" in html


def test_a_visitors_places_are_his_seats_his_waits_and_his_running_exclusion(demo_tables,
                                                                           make_user):
    """One query answers what the lobby shows him beyond the shared rows; an exclusion that
    ran out or has not started yet does not count, and of two running ones the later end."""
    from cashier.models import SelfExclusion
    from tables.models import WaitingListEntry

    ann, bob = make_user("ann"), make_user("bob")
    now = timezone.now()
    Seat.objects.create(table=demo_tables["hu"], player=ann, number=1, chips=2000)
    WaitingListEntry.objects.create(table=demo_tables["nl_play"], player=ann, joined_at=now)
    day = datetime.timedelta(days=1)
    for starts, ends in ((now - 9 * day, now - day), (now - day, now + 2 * day),
                         (now - day, now + 5 * day), (now + day, now + 9 * day)):
        SelfExclusion.objects.create(user=ann, starts_at=starts, ends_at=ends)

    places = selectors.visitor_places(ann.pk, now=now)

    assert places.seated == {demo_tables["hu"].pk}
    assert places.waiting == {demo_tables["nl_play"].pk}
    assert places.excluded_until == now + 5 * day
    assert selectors.visitor_places(bob.pk, now=now) == selectors.Places(
        frozenset(), frozenset(), None)
