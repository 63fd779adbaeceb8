"""The operator dashboard and player pages in Django admin, with data made through the cashier
and tables services: who may see them, the audit verdict, pending withdrawals, rake by table
and day, and a player's balances, limits and finished hands (never a running hand's cards)."""
from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from cashier.services import (
    deposit,
    deposit_limit_set,
    play_money_grant,
    self_exclusion_start,
    withdrawal_request,
)
from pokerroom.operators.selectors import rake_by_table_and_day
from tables import services
from tables.models import HandEvent, Seat
from tests.cashier.seats import buy_in, settle_hand
from tests.tables.played import hand_checked_down, quiet_timers, seat_players  # noqa: F401

DASHBOARD = "operators:dashboard"
SANDBOX_OK = "4242424242424242"


def key() -> str:
    return str(uuid.uuid4())


@pytest.fixture
def player(make_user):
    """make a user with real money deposited through the sandbox (and the play-money grant)."""

    def make(username: str, *, real: int = 0) -> Any:
        user = make_user(username)
        play_money_grant(user=user)
        if real:
            deposit(user=user, amount=real, provider="sandbox", card_number=SANDBOX_OK,
                    idempotency_key=key())
        return user

    return make


def raked_hand(table, seats: list[Seat], *, number: int, rake: int) -> None:
    """A finished hand's settlement as the tables service makes it: seat 1 wins the pot less
    the rake from seat 2."""
    settle_hand(table=table, hand_id=f"{table.pk}-{number}", hand_number=number, rake=rake,
                deltas={seats[0].pk: 500 - rake, seats[1].pk: -500})


def seated(table, users: list[Any], amount: int) -> list[Seat]:
    seats = []
    for number, user in enumerate(users, start=1):
        seat = Seat.objects.create(table=table, player=user, number=number)
        buy_in(seat=seat, amount=amount, idempotency_key=key())
        seats.append(seat)
    return seats


# Who may see it -------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_dashboard_is_for_staff_only(client, make_user):
    url = reverse(DASHBOARD)
    anonymous = client.get(url)
    client.force_login(make_user("ann"))
    player_page = client.get(reverse("operators:player", args=(1,)))
    logged_in = client.get(url)

    for response in (anonymous, logged_in, player_page):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.django_db
def test_staff_without_the_ledger_permission_are_refused(client, make_user):
    clerk = make_user("clerk", is_staff=True)
    client.force_login(clerk)
    assert client.get(reverse(DASHBOARD)).status_code == 403
    assert client.get(reverse("operators:player", args=(clerk.pk,))).status_code == 403

    clerk.user_permissions.add(Permission.objects.get(codename="view_ledgeraccount"))
    assert client.get(reverse(DASHBOARD)).status_code == 200
    assert client.get(reverse("operators:player", args=(clerk.pk,))).status_code == 403


@pytest.mark.django_db
def test_the_admin_index_links_to_the_dashboard(admin_client):
    page = admin_client.get(reverse("admin:index")).content.decode()
    assert reverse(DASHBOARD) in page


# The dashboard --------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_audit_runs_on_a_click_and_shows_the_verdict_and_trial_balance(admin_client, player):
    player("ann", real=12_345)

    before = admin_client.get(reverse(DASHBOARD)).content.decode()
    after = admin_client.get(reverse(DASHBOARD), {"audit": "1"}).content.decode()

    assert "Run the ledger audit" in before and "OK: no violations" not in before
    assert "OK: no violations" in after
    assert "$123.45" in after and "-$123.45" in after  # ann's wallet; the world account
    assert "10,000" in after  # the play-money grant


@pytest.mark.django_db
def test_the_dashboard_counts_pending_withdrawals_and_links_to_them(admin_client, player):
    ann, bob = player("ann", real=10_000), player("bob", real=10_000)
    withdrawal_request(user=ann, amount=2_500, idempotency_key=key())
    withdrawal_request(user=bob, amount=1_000, idempotency_key=key())

    page = admin_client.get(reverse(DASHBOARD))

    assert page.context["withdrawals"].count == 2
    html = page.content.decode()
    assert '<td id="pending-withdrawals">2</td>' in html and "$35" in html
    assert reverse("admin:cashier_withdrawal_changelist") + "?status__exact=pending" in html
    waiting = [(row.user.username, row.amount) for row in page.context["oldest_withdrawals"]]
    assert waiting == [("ann", 2_500), ("bob", 1_000)]  # the oldest first
    assert reverse("operators:player", args=(ann.pk,)) in html
    pending = admin_client.get(reverse("admin:cashier_withdrawal_changelist"),
                               {"status__exact": "pending"})
    assert pending.context["cl"].result_count == 2


@pytest.mark.django_db
def test_rake_by_table_and_day_as_money(admin_client, player, make_table):
    oak = make_table(name="Oak", currency="REAL", lower_stake=100)
    elm = make_table(name="Elm", currency="PLAY", lower_stake=20)
    ann, bob = player("ann", real=20_000), player("bob", real=20_000)
    oak_seats, elm_seats = seated(oak, [ann, bob], 10_000), seated(elm, [ann, bob], 2_000)
    raked_hand(oak, oak_seats, number=1, rake=150)
    raked_hand(oak, oak_seats, number=2, rake=75)
    raked_hand(elm, elm_seats, number=1, rake=30)

    page = admin_client.get(reverse(DASHBOARD))

    today = timezone.localdate()
    rows = [(r.day, r.table, r.hands, r.rake) for r in page.context["rake"].days]
    assert sorted(rows) == [(today, "Elm", 1, 30), (today, "Oak", 2, 225)]
    html = page.content.decode()
    assert "$2.25" in html and "30" in html and today.isoformat() in html


@pytest.mark.django_db
def test_rake_older_than_thirty_days_drops_out(player, make_table):
    oak = make_table(name="Oak", currency="REAL", lower_stake=100)
    seats = seated(oak, [player("ann", real=20_000), player("bob", real=20_000)], 10_000)
    raked_hand(oak, seats, number=1, rake=150)
    now = timezone.now()

    in_window = rake_by_table_and_day(now=now + datetime.timedelta(days=29))
    gone = rake_by_table_and_day(now=now + datetime.timedelta(days=30))

    assert [(r.table, r.rake) for r in in_window.by_table] == [("Oak", 150)]
    assert in_window.by_currency == {"REAL": 150}
    assert gone.days == [] and gone.by_table == []


@pytest.mark.django_db
def test_the_player_search_goes_to_the_player_page(admin_client, player):
    ann = player("ann")
    player("annabel")

    exact = admin_client.get(reverse(DASHBOARD), {"player": "ANN"})
    partial = admin_client.get(reverse(DASHBOARD), {"player": "nna"})

    assert exact.status_code == 302
    assert exact["Location"] == reverse("operators:player", args=(ann.pk,))
    assert [u.username for u in partial.context["matches"]] == ["annabel"]


# The player page ------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_player_page_shows_balances_limits_and_self_exclusion(admin_client, player):
    ann = player("ann", real=50_000)
    player("bob", real=1_000)  # not on ann's page
    deposit_limit_set(user=ann, period="day", amount=20_000)
    deposit_limit_set(user=ann, period="week", amount=30_000)
    deposit_limit_set(user=ann, period="week", amount=90_000)  # a raise: waits 24 hours
    withdrawal_request(user=ann, amount=5_000, idempotency_key=key())
    self_exclusion_start(user=ann, days=7)

    page = admin_client.get(reverse("operators:player", args=(ann.pk,)))

    html = page.content.decode()
    assert "$450" in html and "10,000" in html  # wallets after the withdrawal
    assert "Self-excluded until" in html
    limits = [(limit.period, limit.amount, limit.waiting and limit.waiting.amount)
              for limit in page.context["gaming"]["limits"]]
    assert limits == [("Daily", 20_000, None), ("Weekly", 30_000, 90_000), ("Monthly", None, None)]
    assert "$200" in html and "$300" in html and "$900" in html
    assert "Withdrawal (pending)" in html and "$50" in html
    ledger = admin_client.get(page.context["ledger_url"])
    assert ledger.status_code == 200
    assert ledger.context["cl"].result_count == 3  # her grant, deposit and withdrawal


@pytest.mark.django_db
def test_the_user_admin_links_to_the_player_page(admin_client, player):
    ann = player("ann")
    url = reverse("operators:player", args=(ann.pk,))
    assert url in admin_client.get(reverse("admin:accounts_user_changelist")).content.decode()
    change = admin_client.get(reverse("admin:accounts_user_change", args=(ann.pk,)))
    assert url in change.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_player_page_lists_finished_hands_and_sessions_never_live_cards(
        admin_client, player, make_table, quiet_timers):  # noqa: F811
    table = make_table(name="Oak", lower_stake=20, hand_pause_seconds=0)
    ann, bob = player("ann"), player("bob")
    seat_players(table, [ann, bob], amount=2_000)
    finished = hand_checked_down(table)
    running = services.hand_start(table_id=table.pk, force=True)

    page = admin_client.get(reverse("operators:player", args=(ann.pk,)))

    html = page.content.decode()
    assert [row.hand.pk for row in page.context["hands"]] == [finished.pk]
    assert reverse("tables:hand", args=(finished.pk,)) in html
    assert reverse("tables:hand", args=(running.pk,)) not in html
    live_cards = [event.private_payload["cards"] for event in
                  HandEvent.objects.filter(hand=running, recipient__isnull=False)
                  if "cards" in (event.private_payload or {})]
    assert len(live_cards) == 2  # ann's and bob's hole cards exist, addressed to them
    for cards in live_cards:
        assert " ".join(cards) not in html and "".join(cards) not in html
    assert "cards" not in html.lower().replace("cards shown at showdown", "")
    sessions = page.context["sessions"]
    assert [(s.table.name, s.bought, s.ended) for s in sessions] == [("Oak", 2_000, None)]
    assert "seated" in html and "2,000" in html


@pytest.mark.django_db(transaction=True)
def test_a_finished_session_shows_what_the_player_left_with(admin_client, player, make_table,
                                                             quiet_timers):  # noqa: F811
    table = make_table(name="Oak", lower_stake=20, hand_pause_seconds=0)
    ann, bob = player("ann"), player("bob")
    seat_players(table, [ann, bob], amount=2_000)
    hand_checked_down(table)
    stack = Seat.objects.get(table=table, player=ann).chips
    services.seat_leave(table_id=table.pk, user_id=ann.pk, idempotency_key=key())
    page = admin_client.get(reverse("operators:player", args=(ann.pk,)))

    (session,) = page.context["sessions"]
    assert (session.bought, session.left_with, session.net) == (2_000, stack, stack - 2_000)
    assert session.ended is not None
    assert session.started is not None and session.started <= session.ended


# The room now ---------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_dashboard_shows_the_room_now_as_metrics_does(admin_client, player, make_table):
    """Hands running, tables in play, players seated, hands in the last hour and sockets open:
    the numbers /metrics gives, on the page operators open."""
    from observability import metrics
    from pokerroom.scrape import sockets_open
    from tables.models import HandSummary

    oak, elm = make_table(name="Oak"), make_table(name="Elm")
    seated(oak, [player("ann"), player("bob")], 200)
    seated(elm, [player("cy")], 200)  # alone: not in play
    now = timezone.now()
    for minutes in (5, 30, 90):  # the last is over an hour old
        HandSummary.objects.create(table=oak, finished_at=now - datetime.timedelta(minutes=minutes),
                                   pot=10, players_dealt=2, players_saw_flop=0)
    socket = metrics.SOCKETS.labels("table")
    before = sockets_open().get("table", 0)
    socket.inc(3)
    try:
        html = admin_client.get(reverse(DASHBOARD)).content.decode()
    finally:
        socket.dec(3)

    assert '<td id="now-tables">1</td>' in html
    assert '<td id="now-seated">3</td>' in html
    assert '<td id="now-hands-hour">2</td>' in html
    assert f"table {before + 3}" in html
