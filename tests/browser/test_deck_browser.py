"""The player's card deck and table theme, chosen in his profile, in a real Chromium: two
colours draw diamonds red, four draw them blue; a blue theme recolours the felt."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A diamond drawn as the table draws it (static/js/table/format.js), and its rank's colour.
DIAMOND_COLOUR = """() => {
  const card = document.createElement("span");
  card.className = "card suit-d";
  card.dataset.card = "Ad";
  card.innerHTML = '<span class="rank">A</span>';
  document.body.append(card);
  return getComputedStyle(card.querySelector(".rank")).color;
}"""
FELT = "() => getComputedStyle(document.body).getPropertyValue('--felt').trim()"
RED, BLUE = "rgb(200, 16, 46)", "rgb(29, 78, 216)"


def choose(page: Page, room_url: str, deck: str, theme: str) -> None:
    page.goto(room_url + "/accounts/profile/")
    page.get_by_label(deck).check()
    page.get_by_label(theme).check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Profile saved")


def test_the_deck_and_theme_follow_the_players_choice(room_url, new_page):
    page = new_page()
    sign_up(page, room_url, "ann")
    assert page.evaluate(DIAMOND_COLOUR) == BLUE  # the room's default: four colours
    assert page.evaluate(FELT) == "#0b6b3a"

    choose(page, room_url, "Two colours (red and black)", "Blue felt")
    page.goto(room_url + "/")
    assert page.evaluate(DIAMOND_COLOUR) == RED
    assert page.evaluate(FELT) == "#0f4c81"

    choose(page, room_url, "Four colours (diamonds blue, clubs green)", "Green felt")
    assert page.evaluate(DIAMOND_COLOUR) == BLUE
