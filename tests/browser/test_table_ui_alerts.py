"""Turn alerts: a player with his table in a background tab sees the tab title blink and the
favicon change when it is his turn; sounds wait for a user gesture; mute is remembered."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, open_table
from tests.browser.test_table_browser import seated_pair, sit_out_both

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the AudioContexts the page creates (installed before the page's own scripts run).
AUDIO_SPY = """
window.__audioContexts = 0;
for (const name of ["AudioContext", "webkitAudioContext"]) {
  const Real = window[name];
  if (!Real) continue;
  window[name] = class extends Real {
    constructor(...args) { super(...args); window.__audioContexts += 1; }
  };
}
"""


def real_focus(page: Page) -> None:
    """Headless Chromium tells every page it has the focus; let this one know the truth, so a
    tab brought behind another one loses it."""
    page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled",
                                            {"enabled": False})


def check_when_my_turn(page: Page, street: str) -> None:
    expect(page.locator("#hand-info")).to_contain_text(street, timeout=TIMEOUT)
    expect(page.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    page.locator("#act-check").click()


def test_a_background_table_calls_its_player_and_sounds_wait_for_a_gesture(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Maple", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    # Alice comes back to her table in a fresh page: no click or key press on it yet.
    alice.context.add_init_script(AUDIO_SPY)
    open_table(alice, room_url, table.pk)
    real_focus(alice)
    base_title = "Maple · Poker Room"
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    expect(alice).to_have_title(base_title)  # her turn, but she is looking at the table
    sit_out_both(alice, bob)  # after this hand; the clicks are her first gesture…

    # …so take a page that has had none: reload, call without touching the page.
    alice.reload()
    expect(alice.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    # Connected is the socket; the table (and her turn) arrive with its first frame.
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    real_focus(alice)
    alice.evaluate("window.pokerTable.act('call')")
    check_when_my_turn(bob, "Preflop")
    check_when_my_turn(bob, "Flop")
    # Alice's turn on the flop: the page would chime, but without a gesture it makes no sound
    # and creates no AudioContext.
    expect(alice.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    assert alice.evaluate("window.__audioContexts") == 0
    assert alice.evaluate("window.pokerTable.sound.played") == 0

    # A key press is a gesture: the audio context starts.
    alice.keyboard.press("Shift")
    alice.wait_for_function("() => window.__audioContexts === 1")
    alice.evaluate("window.pokerTable.act('check')")

    # Alice opens the lobby in another tab in front of her table.
    lobby = alice.context.new_page()
    lobby.goto(room_url + "/")
    real_focus(lobby)
    lobby.bring_to_front()
    assert alice.evaluate("document.hasFocus()") is False
    icon = alice.locator("link[rel~=icon]")
    assert "favicon" in icon.get_attribute("href")  # the room's own icon again

    # Bob checks the turn card: the table in the background calls Alice.
    check_when_my_turn(bob, "Turn")
    expect(alice).to_have_title(re.compile(r"^▶ Your turn — Maple$"), timeout=TIMEOUT)
    assert "turn.svg" in icon.get_attribute("href")
    alice.wait_for_function("() => window.pokerTable.sound.played >= 1")
    # It blinks: the title goes back and forth while she does not look.
    expect(alice).to_have_title(base_title, timeout=3000)
    expect(alice).to_have_title(re.compile("^▶ Your turn"), timeout=3000)

    # Her check goes out while the tab is behind (the page's own sender): the turn is over, and
    # so is the alert.
    alice.evaluate("window.pokerTable.act('check')")
    expect(alice).to_have_title(base_title, timeout=TIMEOUT)
    assert "favicon" in icon.get_attribute("href")  # the room's own icon again
    alice.wait_for_timeout(1200)  # no blinking after the turn
    assert alice.title() == base_title

    # The river: her turn again in the background; she comes back to the table's tab, and the
    # alert is cleared at once.
    check_when_my_turn(bob, "River")
    expect(alice).to_have_title(re.compile("^▶ Your turn"), timeout=TIMEOUT)
    alice.bring_to_front()
    expect(alice).to_have_title(base_title)
    assert "favicon" in icon.get_attribute("href")  # the room's own icon again
    alice.locator("#act-check").click()

    # Mute: a toggle on the table page, remembered across a reload.
    mute = alice.locator("#toggle-mute")
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    assert alice.evaluate("window.pokerTable.sound.muted") is True
    alice.reload()
    expect(alice.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(mute).to_have_attribute("aria-pressed", "true")
    assert alice.evaluate("window.pokerTable.sound.muted") is True
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "false")


def test_the_game_sounds_follow_the_hand_and_can_be_turned_off(
        room_url, new_page, make_user, make_table):
    """After a gesture (her seat click), Alice's table sounds the game as PokerStars does: chips
    for her call, a knock for a check, cards for the flop, her turn's chime, a swish for her fold
    and the pot pushed to the winner, each frame's sounds one after another. "Game sounds" off
    leaves only the turn's chime, and is remembered."""
    table = make_table(name="Birch", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # her small blind
    alice.evaluate("window.pokerTable.sound.kinds.length = 0")
    alice.locator("#act-call").click()
    check_when_my_turn(bob, "Preflop")
    check_when_my_turn(bob, "Flop")
    expect(alice.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    alice.get_by_role("button", name="Fold", exact=True).click()
    alice.wait_for_function("() => window.pokerTable.sound.kinds.includes('win')", timeout=TIMEOUT)
    assert alice.evaluate("window.pokerTable.sound.kinds") == [
        "chips", "check", "deal", "turn", "check", "fold", "win"]

    game_sounds = alice.locator("#toggle-game-sounds")
    expect(game_sounds).to_have_attribute("aria-pressed", "true")
    game_sounds.click()
    expect(game_sounds).to_have_attribute("aria-pressed", "false")
    alice.reload()
    expect(alice.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(game_sounds).to_have_attribute("aria-pressed", "false")
    alice.keyboard.press("Shift")  # a gesture on the fresh page
    # The next hand: Bob is the small blind and calls; Alice's option is her turn.
    expect(bob.locator("#act-call")).to_be_visible(timeout=TIMEOUT)
    bob.locator("#act-call").click()
    expect(alice.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    alice.wait_for_function("() => window.pokerTable.sound.kinds.length > 0")
    assert alice.evaluate("window.pokerTable.sound.kinds") == ["turn"]
    alice.locator("#act-check").click()
    sit_out_both(alice, bob)
