"""Busting and buying again: Rebuy at stack 0, a greyed-out Top up that says why; the rake."""
from __future__ import annotations

import time
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, open_table, seat
from tests.browser.test_table_browser import seated_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shove_or_call(page: Page) -> None:
    """Whatever is asked: all-in if a raise is allowed, else call (or check)."""
    if page.locator("#action-bar.sent").count() or not page.locator("#action-bar").is_visible():
        return
    if page.locator("#act-raise").is_visible():
        page.locator("#bet-amount").fill("100000")
        page.locator("#bet-amount").press("Enter")
    elif page.locator("#act-call").is_visible():
        page.locator("#act-call").click()
    elif page.locator("#act-check").is_visible():
        page.locator("#act-check").click()


def test_a_busted_player_rebuys_and_a_full_stack_cannot_top_up(
        room_url, new_page, make_user, make_table):
    from tables.models import Seat, SeatStatus

    table = make_table(name="Cedar", structure="NL", lower_stake=2, hand_pause_seconds=1)
    assert (table.min_buy_in, table.max_buy_in) == (80, 200)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=200)

    # Both sit with the maximum: Top up is greyed out, and says why.
    for page in (alice, bob):
        top_up = page.locator("#top-up")
        expect(top_up).to_be_disabled()
        expect(top_up).to_have_text("Top up — already at the maximum buy-in")
        assert "already at the maximum buy-in" in top_up.get_attribute("title")

    # All-in every hand until somebody has nothing left.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        busted = Seat.objects.filter(table=table, chips=0, status=SeatStatus.SITTING_OUT).first()
        if busted is not None:
            break
        for page in (alice, bob):
            shove_or_call(page)
        alice.wait_for_timeout(200)
    assert busted is not None, "nobody busted in two minutes of all-ins"
    loser, winner = (alice, bob) if busted.number == 1 else (bob, alice)

    # The winner has 400, twice the maximum: no top-up for him either.
    expect(winner.locator("#top-up")).to_be_disabled(timeout=TIMEOUT)
    # The loser is offered Rebuy, not Sit in (sitting in with nothing would not deal him in).
    expect(loser.locator("#rebuy")).to_be_visible(timeout=TIMEOUT)
    expect(loser.locator("#sit-in")).to_be_hidden()
    expect(loser.locator("#top-up")).to_be_hidden()
    expect(loser.locator("#my-stack")).to_contain_text("out of chips")

    # Rebuy opens the buy-in dialog; the chips come with the next hand, which then starts.
    loser.locator("#rebuy").click()
    dialog = loser.locator("#buyin-dialog")
    expect(dialog.locator(".dialog-title")).to_have_text("Rebuy")
    expect(dialog).to_contain_text("Min 80 · Max 200")
    expect(dialog.locator("#buyin-postbb")).to_be_hidden()
    dialog.locator("#buyin-amount").fill("150")
    dialog.locator("#buyin-confirm").click()
    expect(loser.locator("#rebuy")).to_be_hidden(timeout=TIMEOUT)
    expect(seat(winner, busted.number).locator(".card.back")).to_have_count(2, timeout=TIMEOUT)
    busted.refresh_from_db()
    assert busted.status == SeatStatus.PLAYING
    assert busted.chips == 150
    for page in (alice, bob):
        if page.locator("#sit-out").is_visible():
            page.locator("#sit-out").click()


def test_the_table_page_states_the_rake(room_url, new_page, make_table):
    capped = make_table(name="Rake cap", rake_percent=Decimal("5"), rake_cap=3)
    by_players = make_table(name="Rake by players", currency="REAL", lower_stake=100,
                            rake_percent=Decimal("4.5"), rake_cap=300, no_flop_no_drop=False,
                            rake_cap_by_players={"2": 50, "3": 100, "5": 200})
    free = make_table(name="No rake")
    page = new_page()
    open_table(page, room_url, capped.pk)
    expect(page.locator("#table-rake")).to_have_text(
        "Rake 5 % of each pot, capped at 3 · no flop, no drop")
    open_table(page, room_url, by_players.pk)
    expect(page.locator("#table-rake")).to_have_text(
        "Rake 4.5 % of each pot, capped by players dealt in (2 players: $0.50, "
        "3 to 4 players: $1, 5 players: $2; otherwise $3)")
    open_table(page, room_url, free.pk)
    expect(page.locator("#table-rake")).to_have_text("No rake")
