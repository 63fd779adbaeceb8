"""Hotkeys keep working after a click on a checkbox (issue 29): a click on "Always show" or a
pre-action box leaves the focus on that box, and F/C/R must still act; in a text field the
letters stay his typing."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT
from tests.browser.test_table_browser import seated_pair, sit_out_both

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_c_calls_after_a_click_on_always_show_and_typing_is_not_a_hotkey(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Keys", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#act-call")).to_contain_text("Call 1", timeout=TIMEOUT)

    alice.locator("#always-show").click()  # the box keeps the focus
    expect(alice.locator("#always-show")).to_be_focused()
    alice.keyboard.press("c")

    expect(bob.locator("#act-check")).to_be_visible(timeout=TIMEOUT)  # alice called: bob's turn
    bob.locator("#chat-input").fill("")
    bob.locator("#chat-input").focus()
    bob.keyboard.type("fc")  # words in the chat box, not a fold
    expect(bob.locator("#act-check")).to_be_visible()
    expect(bob.locator("#chat-input")).to_have_value("fc")
    sit_out_both(alice, bob)
