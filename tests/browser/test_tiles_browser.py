"""Two tables tiled in one window (issue 29): each tile has its own socket and action bar;
the table where alice must act is outlined, the longest waiting first, and her keys — pressed
in the window or inside another tile — act on that table and no other."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cashier.services import play_money_grant
from tests.browser.players import TIMEOUT, log_in, open_table, shot, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TO_ACT = re.compile(r"\bto-act\b")
WAITING = re.compile(r"\bwaiting\b")


def test_keys_act_on_the_tile_where_it_is_her_turn(room_url, new_page, make_user, make_table):
    oak = make_table(name="Oak", structure="NL", lower_stake=2, action_seconds=60,
                     hand_pause_seconds=1)
    elm = make_table(name="Elm", structure="NL", lower_stake=2, action_seconds=60,
                     hand_pause_seconds=1)
    for name in ("alice", "bob"):
        play_money_grant(user=make_user(name))
    alice, bob_oak, bob_elm = new_page("alice"), new_page("bob-oak"), new_page("bob-elm")
    log_in(alice, room_url, "alice")
    log_in(bob_oak, room_url, "bob")
    log_in(bob_elm, room_url, "bob")

    # From the table page, "Add to tiles" twice: both tables in one window.
    alice.goto(f"{room_url}/tables/{oak.pk}/")
    alice.get_by_role("link", name="Add to tiles").click()
    alice.goto(f"{room_url}/tables/{elm.pk}/")
    alice.get_by_role("link", name="Add to tiles").click()
    expect(alice).to_have_url(f"{room_url}/tables/tile/?t={oak.pk}&t={elm.pk}")
    tiles = {t.pk: alice.locator(f"#tile-{t.pk}") for t in (oak, elm)}
    frames = {t.pk: alice.frame_locator(f"#tile-{t.pk} iframe") for t in (oak, elm)}
    for frame in frames.values():
        expect(frame.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
        frame.get_by_role("button", name="Sit in seat 1").click()
        frame.locator("#buyin-amount").fill("100")
        frame.locator("#buyin-confirm").click()
        expect(frame.locator('.seat.me[data-seat="1"]')).to_be_visible(timeout=TIMEOUT)

    # Oak deals first, then Elm: alice (the button, small blind) must act at both.
    open_table(bob_oak, room_url, oak.pk)
    take_seat(bob_oak, 2, 100)
    window = alice.locator("#tiles")
    expect(window).to_have_attribute("data-to-act", str(oak.pk), timeout=TIMEOUT)
    expect(tiles[oak.pk]).to_have_class(TO_ACT)
    open_table(bob_elm, room_url, elm.pk)
    take_seat(bob_elm, 2, 100)
    expect(tiles[elm.pk]).to_have_class(WAITING, timeout=TIMEOUT)
    expect(tiles[elm.pk].locator(".tile-turn")).to_be_visible()
    expect(tiles[elm.pk]).not_to_have_class(TO_ACT)
    expect(window).to_have_attribute("data-to-act", str(oak.pk))
    shot(alice, "tiles-two-tables-oak-to-act")

    # F in the window folds at Oak, the table waiting longest; Elm is next.
    alice.locator("#tiles-hint").click()
    alice.keyboard.press("f")
    expect(bob_oak.locator("#hand-log")).to_contain_text("alice folds.", timeout=TIMEOUT)
    expect(window).to_have_attribute("data-to-act", str(elm.pk), timeout=TIMEOUT)
    expect(tiles[elm.pk]).to_have_class(TO_ACT)
    expect(tiles[oak.pk]).not_to_have_class(WAITING)

    # A click inside the Oak tile (on its Mute toggle) and C: the call is made at Elm.
    frames[oak.pk].locator("#toggle-mute").click()
    alice.keyboard.press("c")
    expect(bob_elm.locator("#hand-log")).to_contain_text("alice calls 1.", timeout=TIMEOUT)
    expect(bob_elm.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    expect(window).to_have_attribute("data-to-act", "", timeout=TIMEOUT)
    expect(bob_oak.locator("#hand-log")).not_to_contain_text("alice calls")

    for page in (bob_oak, bob_elm):
        page.locator("#sit-out").click()
    for frame in frames.values():
        frame.locator("#sit-out").click()
