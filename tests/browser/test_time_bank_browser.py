"""The time bank in the browser: a player lets his turn run out, his seat shows the time bank
running, he acts before it ends and keeps the rest; after N hands it is topped up."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, seat, shot
from tests.browser.test_table_browser import seated_pair, sit_out_both

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BANK_OF = "(n) => window.pokerTable.state.seats.find((s) => s.seat === n)"


def test_the_time_bank_runs_after_the_countdown_keeps_the_rest_and_is_topped_up(
        room_url, new_page, make_user, make_table):
    from tables.models import Seat

    table = make_table(name="Bank", structure="NL", lower_stake=2, action_seconds=1,
                       countdown_seconds=1, hand_pause_seconds=1, time_bank_seconds=6,
                       time_bank_refill_seconds=3, time_bank_refill_hands=2,
                       time_bank_cap_seconds=8)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#table-time-bank")).to_have_text(
        "Time bank: 6 s (+3 s every 2 hands, max 8 s)")
    expect(alice.locator("#my-time-bank")).to_have_text("Time bank: 6 s")

    # Alice (the button) is first to act and lets the quiet time and the countdown run out:
    # her time bank runs, on her seat as everybody sees it, and in her own clock.
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    for page in (alice, bob):
        expect(seat(page, 1).locator(".timer.bank .time-bank-left")).to_have_text(
            re.compile(r"^Time bank [1-6] s$"), timeout=8_000)
    expect(alice.locator("#my-countdown")).to_have_text(re.compile(r"^Time bank: \d s left$"))
    expect(alice.locator("#action-bar")).to_be_visible()  # nobody acted for her
    bob.wait_for_function(f"() => ({BANK_OF})(1).time_bank_running")
    assert bob.evaluate("() => window.pokerTable.selfCheck()") == []  # events = snapshot
    shot(bob, "time-bank-running")

    # She folds before it ends and keeps what she did not use (whole seconds).
    alice.locator("#act-fold").click()
    alice.wait_for_function(f"() => !({BANK_OF})(1).time_bank_running"
                            f" && ({BANK_OF})(1).time_bank < 6")
    left = alice.evaluate(f"() => ({BANK_OF})(1).time_bank")
    assert 1 <= left <= 5
    assert Seat.objects.get(table=table, number=1).time_bank == left
    assert bob.evaluate(f"() => ({BANK_OF})(1).time_bank") == left
    assert Seat.objects.get(table=table, number=1).status == "playing"  # not timed out

    # The next hand is the second each was dealt in: 3 s more, up to the cap of 8.
    expect(alice.locator("#hand-info")).to_have_text(re.compile("Hand #2"), timeout=TIMEOUT)
    alice.wait_for_function(f"() => ({BANK_OF})(1).time_bank === {min(8, left + 3)}")
    assert Seat.objects.get(table=table, number=1).time_bank == min(8, left + 3)
    expect(alice.locator("#hand-log")).to_contain_text("Time banks topped up")
    sit_out_both(alice, bob)
