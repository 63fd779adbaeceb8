"""Rabbit hunt and avatars in a real Chromium: a hand folded out preflop offers its players a
"Rabbit hunt" button, and the five cards that would have come appear dimmed beside the empty
board on every page; an avatar chosen in the profile appears on the player's seat. Both pages
run under the Content-Security-Policy without a violation, and axe finds no serious problem
on the profile page, nor in the board and the button bar with the rabbit shown."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, open_table, seat, shot, sign_up, take_seat
from tests.browser.test_accessibility_browser import SERIOUS
from tests.browser.test_accessibility_browser import problems as axe_problems
from tests.browser.test_csp_browser import violations, watched

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def axe_in(page, *selectors: str) -> list[str]:
    """axe's serious and critical violations inside `selectors` only (the parts drawn here)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context={"include": [[s] for s in selectors]}).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} — {[n['target'] for n in v['nodes'][:5]]}"
            for v in found if v["impact"] in SERIOUS]


def finished_hand(table_id: int):
    from tables.models import Hand

    deadline = time.monotonic() + 15
    while (hand := Hand.objects.filter(table_id=table_id, finished_at__isnull=False).first()) \
            is None:
        assert time.monotonic() < deadline, "the hand did not end"
        time.sleep(0.1)
    return hand


def test_the_rabbit_hunt_shows_the_undealt_board_dimmed_after_a_fold_out(room_url, new_page,
                                                                         make_table):
    from tables import services
    from tables.engine import fairness

    table = make_table(name="Warren", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=60, rabbit_hunt_allowed=True)
    ann = new_page("ann", bypass_csp=True)  # axe evaluates a string: the policy is bypassed
    bob, bob_problems = watched(new_page("bob"))
    for page, name, number in ((ann, "ann", 1), (bob, "bob", 2)):
        sign_up(page, room_url, name)
        open_table(page, room_url, table.pk)
        take_seat(page, number, 200)
    services.hand_start(table_id=table.pk, force=True)  # the long pause is for the rabbit
    for page in (ann, bob):
        expect(page.locator(".hole .card[data-card]")).to_have_count(2, timeout=TIMEOUT)
    for page in (ann, bob):
        expect(page.locator("#act-rabbit")).to_be_hidden()  # nothing to hunt while it runs
    to_act = ann if ann.locator("#action-bar").is_visible() else bob
    expect(to_act.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    to_act.get_by_role("button", name="Fold", exact=True).click()
    hand = finished_hand(table.pk)
    for page in (ann, bob):  # both were dealt in: the folder and the winner may ask
        expect(page.locator("#act-rabbit")).to_be_visible(timeout=TIMEOUT)
    assert axe_in(ann, "#showdown-bar") == []
    bob.locator("#act-rabbit").click()
    dealt = fairness.dealt_deck(fairness.committed(hand.deck_key),
                                [e["value"] for e in hand.entropy])
    rabbit = [dealt[k] for k in fairness.board_deals(2, 5)]
    for page in (ann, bob):
        cards = page.locator("#board .card.rabbit")
        expect(cards).to_have_count(5, timeout=TIMEOUT)
        assert cards.evaluate_all("(cs) => cs.map((c) => c.dataset.card)") == rabbit
        assert page.locator("#board .card[data-card]:not(.rabbit)").count() == 0  # no board
        expect(page.locator("#board")).to_have_attribute(
            "aria-label", f"Board: no cards yet; rabbit hunt: {' '.join(rabbit)} would have come")
        expect(page.locator("#act-rabbit")).to_be_hidden()  # once a hand
        opacity = page.locator("#board .card.rabbit").first.evaluate(
            "(c) => getComputedStyle(c).opacity")
        assert float(opacity) < 1  # dimmed: not part of the hand
    assert axe_in(ann, "#board", "#showdown-bar") == []
    shot(ann, "rabbit-hunt")
    ann.locator("#toggle-text-mode").click()  # the text mode says it too
    ann.locator("#text-mode-input").fill("board")
    ann.locator("#text-mode-input").press("Enter")
    expect(ann.locator("#text-mode-history li").first).to_contain_text(
        "Board: no cards yet. Rabbit hunt: ")
    assert violations(bob) == [] and bob_problems == [], bob_problems


def test_an_avatar_chosen_in_the_profile_appears_at_the_seat(room_url, new_page, make_table):
    table = make_table(name="Portrait", structure="NL", lower_stake=2, max_seats=6)
    cara = new_page("cara", bypass_csp=True)
    dave, dave_problems = watched(new_page("dave"))
    sign_up(cara, room_url, "cara")
    sign_up(dave, room_url, "dave")
    cara.goto(room_url + "/accounts/profile/")
    found = axe_problems(cara)
    assert not found, "\n".join(found)
    shot(cara, "avatar-choice-in-the-profile")
    cara.get_by_role("radio", name="Moon").check()
    cara.get_by_role("button", name="Save").click()
    expect(cara.locator(".messages")).to_contain_text("Profile saved")
    assert cara.get_by_role("radio", name="Moon").is_checked()
    dave.goto(room_url + "/accounts/profile/")  # dave keeps his generated pattern
    generated = dave.locator("input[value=generated] + img")
    expect(generated).to_have_attribute("src", re.compile(
        r"^/accounts/avatars/g[0-9a-f]{12}\.svg$"))
    assert violations(dave) == []

    open_table(dave, room_url, table.pk)  # watching, then sitting down
    open_table(cara, room_url, table.pk)
    take_seat(cara, 3, 200)
    take_seat(dave, 4, 200)
    for page in (cara, dave):
        moon = seat(page, 3).locator("img.avatar")
        expect(moon).to_have_attribute("data-avatar", "moon", timeout=TIMEOUT)
        expect(moon).to_have_attribute("src", "/accounts/avatars/moon.svg")
        page.wait_for_function(
            "() => document.querySelector('.seat[data-seat=\"3\"] img.avatar').naturalWidth > 0")
        expect(seat(page, 4).locator("img.avatar")).to_have_attribute(
            "src", re.compile(r"^/accounts/avatars/g[0-9a-f]{12}\.svg$"))
    shot(dave, "avatars-at-the-table")
    assert violations(dave) == [] and dave_problems == [], dave_problems
