"""axe-core (axe-playwright-python's bundled copy) on every page a player uses, in Debian's
chromium: no serious or critical violation. The pages run with the policy bypassed for axe
only (it evaluates its script as a string, which the room's Content-Security-Policy refuses;
tests/browser/test_csp_browser.py checks the policy itself)."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tables.models import Hand
from tests.browser.players import TIMEOUT, open_table, seat, sign_up, take_seat
from tests.tables.tournaments.factories import tournament_make

T = TypeVar("T")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIOUS = {"serious", "critical"}


def wait_for(read: Callable[[], T | None], seconds: float = 15.0) -> T:
    until = time.monotonic() + seconds
    while (found := read()) is None:
        assert time.monotonic() < until, "timed out"
        time.sleep(0.2)
    return found


def problems(page: Page) -> list[str]:
    """The serious and critical violations on the page as it is now, one line each."""
    found = Axe().run(page).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} — "
            + "; ".join(f"{n['target'][0]} {n.get('failureSummary', '')[:200]}" for n in v["nodes"][:5])
            for v in found if v["impact"] in SERIOUS]


def test_no_page_a_player_uses_has_a_serious_accessibility_violation(room_url, new_page,
                                                                      make_table):
    table = make_table(name="Oak", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=1)
    sng = tournament_make(name="Turbo Six")
    ann = new_page("ann", bypass_csp=True)
    bob = new_page("bob", bypass_csp=True)
    found: dict[str, list[str]] = {}

    for path in ("/accounts/signup/", "/accounts/login/", "/", "/tournaments/"):
        ann.goto(room_url + path)
        found[path] = problems(ann)
    sign_up(ann, room_url, "ann")
    sign_up(bob, room_url, "bob")
    for path in ("/", "/tournaments/", f"/tournaments/{sng.pk}/", "/cashier/",
                 "/accounts/profile/", "/tables/hands/mine/"):
        ann.goto(room_url + path)
        found[f"{path} (signed in)"] = problems(ann)

    open_table(ann, room_url, table.pk)
    open_table(bob, room_url, table.pk)
    take_seat(ann, 1, 200)
    take_seat(bob, 2, 150)
    expect(seat(ann, 1).locator(".card[data-card]")).to_have_count(2, timeout=TIMEOUT)
    expect(ann.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    found["the table, a hand dealt"] = problems(ann)
    ann.locator("#toggle-text-mode").click()  # the text mode for screen readers, answering
    ann.locator("#text-mode-input").fill("stacks")
    ann.locator("#text-mode-input").press("Enter")
    expect(ann.locator("#text-mode-history li")).to_have_count(1)
    found["the table in text mode"] = problems(ann)

    ann.get_by_role("button", name="Fold", exact=True).click()  # heads-up, the button acts first
    hand = wait_for(lambda: Hand.objects.filter(table=table, finished_at__isnull=False).first())
    ann.locator("#chat-input").fill("nice hand")  # the chat and the hand log, both filled
    ann.locator("#chat-input").press("Enter")
    expect(ann.locator("#chat-lines .chat-line")).not_to_have_count(0, timeout=TIMEOUT)
    expect(ann.locator("#hand-log li")).not_to_have_count(0)
    found["the table after a hand, with chat and the hand log"] = problems(ann)
    ann.goto(f"{room_url}/tables/hands/{hand.pk}/")
    expect(ann.locator("h1")).to_be_visible()
    found["a hand's page"] = problems(ann)
    ann.locator(".hand-players .player-name", has_text="bob").click()  # the player pop-up
    expect(ann.locator("#player-tags input[name=tag]")).not_to_have_count(0, timeout=TIMEOUT)
    found["the player pop-up (notes, tag, stats)"] = problems(ann)

    # Tiling: the window of tiles, and one tile (the compact table page it frames).
    other = make_table(name="Elm", structure="NL", lower_stake=2)
    ann.goto(f"{room_url}/tables/tile/?t={table.pk}&t={other.pk}")
    expect(ann.frame_locator(f"#tile-{table.pk} iframe").locator("#conn-status")).to_have_text(
        "Connected", timeout=TIMEOUT)
    found["the tiles window"] = problems(ann)
    ann.goto(f"{room_url}/tables/{table.pk}/tile/")
    expect(ann.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(ann.locator('.seat.me[data-seat="1"]')).to_be_visible(timeout=TIMEOUT)
    found["a tile"] = problems(ann)

    bad = {page: lines for page, lines in found.items() if lines}
    assert not bad, "\n".join(f"{page}: {line}" for page, lines in bad.items() for line in lines)
