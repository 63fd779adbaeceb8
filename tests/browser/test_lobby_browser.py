"""The lobby in a real Chromium: the list filters and sorts itself with htmx, without a page
reload; a bad filter empties it and says why; on a 390 px phone the lobby and the cashier fit
the screen with tap targets of at least 44 px; a full table's waiting list offers a seat."""
from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.players import log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Every visible button or link in the lobby rows: how tall it is, and whether it is on screen.
TARGETS_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.offsetParent !== null)
  .map((el) => { const r = el.getBoundingClientRect();
    return {text: el.textContent.trim(), height: r.height, left: r.left, right: r.right}; })"""


def service(name: str, **kwargs: Any) -> Any:
    """Call a tables service in another thread: its on-commit broadcast cannot run in this one,
    where Playwright's event loop runs."""
    from django.db import connection

    from tables import services

    def run() -> Any:
        try:
            return getattr(services, name)(**kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def test_filters_update_the_list_without_a_reload(room_url, new_page, make_table):
    make_table(name="NL 1/2 play", structure="NL", currency="PLAY", lower_stake=2)
    make_table(name="Limit $5/$10", structure="FL", currency="REAL", lower_stake=500,
               small_blind_rule="round_down")
    page = new_page()
    page.goto(room_url + "/")
    page.evaluate("window.__sameDocument = true")

    page.select_option("#id_structure", "FL")

    rows = page.locator("#lobby-list tbody tr.table-row")
    rows.first.wait_for()
    # A function, not an expression: Playwright would eval an expression in the page, which the
    # Content-Security-Policy refuses.
    page.wait_for_function(
        "() => document.querySelectorAll('#lobby-list tr.table-row').length === 1")
    assert rows.first.locator(".name").inner_text().startswith("Limit $5/$10")
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped the list in place
    assert "structure=FL" in page.url  # the filter is in the address bar (hx-push-url)


def test_clicking_a_header_sorts_and_the_filters_keep_the_sort(room_url, new_page, make_table):
    from django.utils import timezone

    from tables.models import HandSummary

    for name, pot in (("Small pots", 10), ("Big pots", 900), ("Middle pots", 200)):
        table = make_table(name=name)
        HandSummary.objects.create(table=table, finished_at=timezone.now(), pot=pot,
                                   players_dealt=2, players_saw_flop=2)
    page = new_page()
    page.goto(room_url + "/")
    names = page.locator("#lobby-list tbody tr.table-row .name a")

    page.locator("#lobby-list thead th.avg_pot a").click()
    expect(names).to_have_text(["Small pots", "Middle pots", "Big pots"])
    expect(page.locator("#lobby-list thead th.avg_pot")).to_have_attribute("aria-sort", "ascending")
    page.locator("#lobby-list thead th.avg_pot a").click()  # again: the other way
    expect(names).to_have_text(["Big pots", "Middle pots", "Small pots"])
    assert "sort=avg_pot" in page.url and "dir=desc" in page.url
    expect(page.locator("#id_sort")).to_have_value("avg_pot")  # the form follows (out of band)

    page.check("#id_hide_full")  # a filter change keeps the sort
    page.wait_for_url("**hide_full=on**")
    assert "sort=avg_pot" in page.url and "dir=desc" in page.url
    expect(names).to_have_text(["Big pots", "Middle pots", "Small pots"])


def test_a_bad_filter_empties_the_list_and_shows_the_reason(room_url, new_page, make_table):
    make_table(name="NL 1/2 play", lower_stake=2)
    page = new_page()
    page.goto(room_url + "/")
    rows = page.locator("#lobby-list tbody tr.table-row")
    expect(rows).to_have_count(1)

    page.fill("#id_min_bb", "5")
    page.fill("#id_max_bb", "2")

    expect(page.locator("#lobby-list [role=alert]")).to_have_text(
        "The lower big blind bound is above the upper one.")
    expect(rows).to_have_count(0)  # the old rows do not stay as if they matched
    page.fill("#id_min_bb", "1")  # fixed: the rows come back
    expect(rows).to_have_count(1)
    expect(page.locator("#lobby-list [role=alert]")).to_have_count(0)


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def assert_tap_targets(page, selector: str) -> int:
    targets = page.evaluate(TARGETS_JS, selector)
    for t in targets:
        assert t["height"] >= 44, t
        assert t["left"] >= 0 and t["right"] <= PHONE["width"], t  # on screen, not cut off
    return len(targets)


def test_the_lobby_and_the_cashier_fit_a_phone(room_url, new_page, make_table, make_user):
    from cashier.services import play_money_grant
    from tables.models import Seat

    full = make_table(name="Heads-up with a rather long name", currency="REAL", lower_stake=1000,
                      max_seats=2, rake_percent="5", rake_cap=300)
    for n in (1, 2):
        Seat.objects.create(table=full, number=n, player=make_user(f"s{n}"), chips=100_000)
    oak = make_table(name="Oak", lower_stake=2, hand_pause_seconds=600)
    make_table(name="Limit $5/$10", structure="FL", currency="REAL", lower_stake=500,
               small_blind_rule="round_down")
    carol = make_user("carol")
    play_money_grant(user=carol)
    service("seat_take", table_id=oak.pk, user=carol, number=1, amount=200,
            idempotency_key=uuid.uuid4().hex)
    service("seat_leave", table_id=oak.pk, user_id=carol.pk, idempotency_key=uuid.uuid4().hex)

    page = new_page("carol")
    page.set_viewport_size(PHONE)
    log_in(page, room_url, "carol")
    page.goto(room_url + "/")
    expect(page.locator("#lobby-list tr.table-row")).to_have_count(3)

    fits_the_phone(page)
    shot(page, "lobby-phone")
    # statistics and the buttons are on screen, every button and link at least 44 px high
    assert assert_tap_targets(page, "#lobby-list tr.table-row a, #lobby-list tr.table-row button") >= 9
    join = page.get_by_role("button", name=f"Join the waiting list of {full.name}")
    join.scroll_into_view_if_needed()
    expect(join).to_be_in_viewport(ratio=1)  # wholly on screen, not cut off at the right
    row = page.locator(f'#lobby-list tr[data-table-id="{full.pk}"]')
    for stat in ("avg_pot", "avg_stack", "hands", "rake", "seats"):
        expect(row.locator(f"td.{stat}")).to_be_visible()
    expect(row.locator("td.rake")).to_have_text("5% cap $3")
    assert assert_tap_targets(page, "#lobby-filters select, #lobby-filters input:not([type=checkbox])") == 6

    page.goto(room_url + "/cashier/")
    history = page.locator("table.history tbody tr")
    expect(history).to_have_count(3)  # the sign-up grant, the buy-in at Oak, the cash-out
    expect(history.first).to_contain_text("Oak")
    fits_the_phone(page)
    page.locator("table.history").scroll_into_view_if_needed()
    shot(page, "cashier-phone")
    assert_tap_targets(page, ".cashier-history a, .cashier-history button, .cashier-history select")


def test_a_full_tables_waiting_list_offers_the_seat_to_the_first(room_url, new_page, make_table,
                                                                  make_user):
    from cashier.services import play_money_grant
    from tables.models import Seat, WaitingListEntry

    table = make_table(name="Duel", lower_stake=2, max_seats=2, hand_pause_seconds=600)
    players = {}
    for name in ("alice", "bob", "carol"):
        players[name] = make_user(name)
        play_money_grant(user=players[name])
    for n, name in ((1, "alice"), (2, "bob")):
        service("seat_take", table_id=table.pk, user=players[name], number=n, amount=200,
                idempotency_key=uuid.uuid4().hex)

    page = new_page("carol")
    page.set_viewport_size(PHONE)
    log_in(page, room_url, "carol")
    page.goto(room_url + "/")
    page.get_by_role("button", name="Join the waiting list of Duel").click()
    expect(page.locator(f"#waitlist-{table.pk}")).to_contain_text("Waiting list: #1 of 1")
    # the row's Waiting count follows at once, not at the list's next poll (every 5 s)
    expect(page.locator(f"#lobby-waiting-{table.pk}")).to_have_text("1", timeout=1_500)
    assert WaitingListEntry.objects.filter(player=players["carol"]).exists()

    service("seat_leave", table_id=table.pk, user_id=players["alice"].pk,
            idempotency_key=uuid.uuid4().hex)

    # the lobby refreshes itself: the seat is held for carol, she takes it with a normal buy-in
    take = page.get_by_role("link", name="Take seat 1")
    expect(take).to_be_visible(timeout=15_000)
    expect(page.locator(f"#waitlist-{table.pk} .wl-offer")).to_contain_text("Seat 1 is held for you")
    take.click()
    dialog = page.locator("#buyin-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    dialog.locator("#buyin-amount").fill("150")
    dialog.locator("#buyin-confirm").click()
    expect(page.locator('.seat.me[data-seat="1"]')).to_be_visible(timeout=20_000)
    assert Seat.objects.get(table=table, number=1).player == players["carol"]
    assert not WaitingListEntry.objects.exists()


def test_the_table_page_offers_the_waiting_list_when_full(room_url, new_page, make_table,
                                                          make_user):
    from cashier.services import play_money_grant
    from tables.models import WaitingListEntry

    table = make_table(name="Pair", lower_stake=2, max_seats=2, hand_pause_seconds=600)
    for n, name in ((1, "alice"), (2, "bob")):
        user = make_user(name)
        play_money_grant(user=user)
        service("seat_take", table_id=table.pk, user=user, number=n, amount=200,
                idempotency_key=uuid.uuid4().hex)
    make_user("carol")
    page = new_page("carol")
    page.set_viewport_size(PHONE)
    log_in(page, room_url, "carol")
    page.goto(f"{room_url}/tables/{table.pk}/")

    box = page.locator(f"#waitlist-{table.pk}")
    box.get_by_role("button", name="Join the waiting list of Pair").click()
    expect(box).to_contain_text("Waiting list: #1 of 1")
    shot(page, "table-waitlist-phone")
    assert WaitingListEntry.objects.filter(table=table, player__username="carol").exists()
    leave = box.get_by_role("button", name="Leave the waiting list of Pair")
    assert leave.bounding_box()["height"] >= 44
    leave.click()
    expect(box.get_by_role("button", name="Join the waiting list of Pair")).to_be_visible()
    assert not WaitingListEntry.objects.exists()
    fits_the_phone(page)
