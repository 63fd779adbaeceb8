"""The table on a phone (390 x 844): touch-sized controls, bets clear of the hand caption."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, log_in, open_table, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Every visible control of the table section, with its box (a checkbox counts by its label,
# the thing a thumb presses).
CONTROLS = """() => [...document.querySelectorAll(
    "#table button, #table input, #table select, #table summary")]
  .filter((e) => e.checkVisibility())
  .map((e) => {
    const target = e.type === "checkbox" ? e.closest("label") : e;
    const r = target.getBoundingClientRect();
    return { what: e.id || e.textContent.trim() || e.outerHTML.slice(0, 60), height: r.height };
  })"""

BOXES = """() => ({
  caption: document.getElementById("hand-info").getBoundingClientRect().toJSON(),
  bets: [...document.querySelectorAll(".bet-chips")].map((e) => e.getBoundingClientRect().toJSON()),
})"""


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and \
        a["top"] < b["bottom"] and b["top"] < a["bottom"]


def small_controls(page: Page) -> list[dict]:
    return [c for c in page.evaluate(CONTROLS) if c["height"] < 44]


def test_a_phone_gets_thumb_sized_controls_and_readable_bets(
        room_url, new_page, make_user, make_table):
    from cashier.services import play_money_grant
    from tables.models import AutoTopUp
    from tables.services import seat_take

    # Six seats, players in 1, 3 and 5, seated together so that all three play the first hand:
    # the bets of the upper seats come near the caption.
    table = make_table(name="Pine", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=2)
    names = {"alice": 1, "bob": 3, "carol": 5}
    users = {name: make_user(name) for name in names}

    def seat_all() -> None:  # the service broadcasts synchronously: not on Playwright's loop
        try:
            for name, number in names.items():
                play_money_grant(user=users[name])
                seat_take(table_id=table.pk, user=users[name], number=number, amount=100,
                          idempotency_key=f"phone-test-{name}")
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(seat_all).result()
    pages = []
    for name in names:
        page = new_page(name)
        page.set_viewport_size(PHONE)
        log_in(page, room_url, name)
        open_table(page, room_url, table.pk)
        pages.append(page)

    # Seat 1 has the button and acts first: a raise, so that there are three bets on the table.
    alice = pages[0]
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    alice.locator("#bet-amount").fill("8")
    alice.locator("#act-raise").click()
    for page in pages:
        expect(page.locator(".bet-chips")).to_have_count(3, timeout=TIMEOUT)

    for page in pages:
        # Nothing sticks out sideways, and every control is at least 44 px high.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert small_controls(page) == []
        # No bet label covers the caption ("Hand #1 · Preflop").
        boxes = page.evaluate(BOXES)
        assert len(boxes["bets"]) == 3
        assert [b for b in boxes["bets"] if overlap(b, boxes["caption"])] == []
    acting = next(p for p in pages if p.locator("#action-bar").is_visible())
    shot(acting, "phone-bets-and-controls")
    # The auto top-up order is saved in place (htmx), for this player only.
    form = acting.locator("#auto-top-up")
    form.scroll_into_view_if_needed()
    form.get_by_label("Auto top-up").select_option("below")
    form.get_by_label("Below (BB)").fill("30")
    form.get_by_role("button", name="Save").click()
    expect(acting.locator("#auto-top-up [role=status]")).to_have_text(
        "Saved: below 30 BB, top up to the maximum.", timeout=TIMEOUT)
    shot(acting, "phone-seat-controls")
    assert [(o.mode, o.threshold_bb) for o in AutoTopUp.objects.filter(table=table)] == \
        [("below", 30)]
    for page in pages:
        if page.locator("#sit-out").is_visible():
            page.locator("#sit-out").click()
