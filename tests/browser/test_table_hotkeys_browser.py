"""Hotkeys keep working after a click on a checkbox (issue 29): a click on "Always show" or a
pre-action box leaves the focus on that box, and F/C/R must still act; in a text field the
letters stay his typing. A player's own keys, set in his profile, replace the room's."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cashier.services import play_money_grant
from tests.browser.players import TIMEOUT, log_in, open_table, take_seat
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


def set_keys(page, room_url: str, keys: dict[str, str]) -> None:
    """In the profile: click each action's box, press the key, then "Use these keys"."""
    page.goto(room_url + "/accounts/profile/")
    for action, key in keys.items():
        page.locator(f"#hotkey-{action}").click()
        page.keyboard.press(key)
    page.get_by_role("button", name="Use these keys").click()
    expect(page.locator("#hotkeys-saved")).to_have_text("Hotkeys saved.")


def test_his_own_keys_act_even_after_a_click_on_a_pre_action_box(room_url, new_page, make_user,
                                                                 make_table):
    table = make_table(name="Own keys", structure="NL", lower_stake=2, hand_pause_seconds=1,
                       action_seconds=30)
    # alice's own keys are set before the cards come: K calls, X folds, F2 bets the pot.
    for name in ("alice", "bob"):
        play_money_grant(user=make_user(name))
    alice, bob = new_page("alice"), new_page("bob")
    log_in(alice, room_url, "alice")
    set_keys(alice, room_url, {"check_call": "k", "fold": "x", "pot": "F2"})
    # A key set twice is refused, and says why.
    alice.locator("#hotkey-min").click()
    alice.keyboard.press("k")
    alice.get_by_role("button", name="Use these keys").click()
    expect(alice.locator("#hotkeys-error")).to_have_text(
        "K is set twice: for Check or call and for Minimum bet or raise.")
    log_in(bob, room_url, "bob")
    for page, number in ((alice, 1), (bob, 2)):
        open_table(page, room_url, table.pk)
        take_seat(page, number, 100)
    expect(alice.locator("#act-call")).to_contain_text("Call 1", timeout=TIMEOUT)
    expect(alice.locator("#act-call kbd")).to_have_text("K")
    expect(alice.locator("#act-fold")).to_have_attribute("aria-keyshortcuts", "X")

    alice.keyboard.press("c")  # the room's key is not hers any more
    alice.wait_for_timeout(500)
    expect(bob.locator("#hand-log")).not_to_contain_text("alice calls")
    alice.locator("#always-show").click()  # the box keeps the focus
    alice.keyboard.press("k")
    expect(bob.locator("#hand-log")).to_contain_text("alice calls 1.", timeout=TIMEOUT)

    # Bob (the room's keys) checks; on the flop he acts first and she ticks a pre-action box,
    # then clears it: the focus stays on that box.
    expect(bob.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # his turn, drawn
    bob.keyboard.press("c")
    expect(bob.locator("#hand-log")).to_contain_text("bob checks.", timeout=TIMEOUT)
    expect(alice.locator("#pre-actions")).to_be_visible(timeout=TIMEOUT)
    alice.locator("#pre-callany").click()
    alice.locator("#pre-callany").click()
    expect(alice.locator("#pre-callany")).to_be_focused()
    expect(bob.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # his turn, drawn
    bob.keyboard.press("c")
    expect(alice.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    alice.keyboard.press("F2")  # the pot, in the amount box; Enter bets it
    expect(alice.locator("#bet-amount")).to_be_focused()
    expect(alice.locator("#bet-amount")).to_have_value("4")
    alice.keyboard.press("Enter")
    expect(bob.locator("#hand-log")).to_contain_text("alice bets 4.", timeout=TIMEOUT)
    expect(bob.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # his turn, drawn
    bob.keyboard.press("f")
    expect(alice.locator("#hand-log")).to_contain_text("bob folds.", timeout=TIMEOUT)
    sit_out_both(alice, bob)
