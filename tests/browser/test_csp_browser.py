"""The Content-Security-Policy in a real Chromium: every page a player and a staff member use
(login, lobby with its htmx list, cashier, the Tournaments tab and a tournament's page, a live
table with a hand dealt, the same table tiled, admin) runs with no
policy violation and no console error or warning."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, log_in, open_table, seat, sign_up, take_seat
from tests.tables.tournaments.factories import tournament_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before the page's own scripts (Playwright injects it outside the page's policy).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} `
                              + `at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
});
"""


def watched(page: Page) -> tuple[Page, list[str]]:
    """The page, and the console errors/warnings it logs from now on."""
    problems: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}")
            if m.type in {"error", "warning"} else None)
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    return page, problems


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__cspViolations")


def test_pages_run_under_the_policy_without_violations(room_url, new_page, make_table, make_user):
    table = make_table(name="Oak", structure="NL", lower_stake=2, max_seats=6, hand_pause_seconds=1)
    alice, alice_problems = watched(new_page("alice"))
    bob, bob_problems = watched(new_page("bob"))

    sign_up(alice, room_url, "alice")
    assert violations(alice) == []
    sign_up(bob, room_url, "bob")

    # The lobby: the list is swapped in by htmx when a filter changes.
    alice.goto(room_url + "/")
    alice.select_option("#id_structure", "NL")
    alice.wait_for_function("() => location.search.includes('structure=NL')")
    expect(alice.locator("#lobby-list tr.table-row")).to_have_count(1)
    assert violations(alice) == []

    # The cashier, with its htmx history filter.
    alice.goto(room_url + "/cashier/")
    expect(alice.locator("#cashier-history")).to_be_visible()
    assert violations(alice) == []

    # Tournaments: the tab with its htmx filter, a tournament's page, registering.
    sng = tournament_make(name="Turbo Six")
    alice.goto(room_url + "/tournaments/")
    alice.select_option("#id_kind", "sit_and_go")
    alice.wait_for_function("() => location.search.includes('kind=sit_and_go')")
    expect(alice.locator("#tournament-list tr.tournament-row")).to_have_count(1)
    alice.get_by_role("link", name="Open Turbo Six").click()
    alice.get_by_role("button", name="Register for 1,000 + 100").click()
    expect(alice.locator(".mine")).to_contain_text("You are in")
    assert sng.entries.count() == 1
    assert violations(alice) == []

    # A live table: WebSocket connected, both seated, a hand dealt and drawn.
    open_table(alice, room_url, table.pk)
    open_table(bob, room_url, table.pk)
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 150)
    expect(seat(alice, 1).locator(".card[data-card]")).to_have_count(2, timeout=TIMEOUT)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    assert violations(alice) == [] and violations(bob) == []

    # The tiles window: the table framed (the one page the room lets a page of its own frame).
    alice.goto(f"{room_url}/tables/tile/?t={table.pk}")
    tile = alice.frame_locator(f"#tile-{table.pk} iframe")
    expect(tile.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    frame = alice.frame(name=f"tile-{table.pk}")
    assert violations(alice) == [] and frame.evaluate("window.__cspViolations") == []

    # Staff: the login form, then admin pages.
    make_user("boss", is_staff=True, is_superuser=True)
    staff, staff_problems = watched(new_page("staff"))
    log_in(staff, room_url, "boss")
    for path in ("/admin/", "/admin/tables/tableconfig/", f"/admin/tables/tableconfig/{table.pk}/change/",
                 "/admin/axes/accessattempt/"):
        staff.goto(room_url + path)
        expect(staff.locator("#content")).to_be_visible()
        assert violations(staff) == [], path

    assert alice_problems == [] and bob_problems == [] and staff_problems == []


def test_the_browser_enforces_the_policy_and_the_watch_sees_it(room_url, new_page):
    page, _ = watched(new_page())
    response = page.goto(room_url + "/accounts/login/")

    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    # Injected inline code is refused, and the recorder used above notices.
    page.evaluate("""document.body.insertAdjacentHTML("beforeend",
        '<p id="injected" style="color: red"></p><img src="x" onerror="window.ran = 1">')""")
    page.wait_for_function("() => window.__cspViolations.length >= 2")
    assert page.evaluate("window.ran") is None
    assert any(v.startswith("style-src-attr") for v in violations(page))
