"""Finished hands in a real Chromium: the replayer steps through a hand, and My hands hands out
the PokerStars text and the PHH as downloads."""
from __future__ import annotations

import tomllib
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, log_in
from tests.tables.decks import deck_key_fix
from tests.tables.histories.playing import SEED, check_down_first_shows_others_muck, fold_preflop

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_a_thread(fn):
    """Run ``fn`` in a thread of its own: the services broadcast on commit with async_to_sync,
    which refuses to run beside the event loop Playwright keeps in this thread."""
    from django.db import connections

    def run():
        try:
            return fn()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


@pytest.fixture
def two_hands(make_user, make_table, monkeypatch):
    """alice (seat 1) and bob (seat 2) play one hand to showdown and one folded preflop."""
    from cashier.services import play_money_grant
    from tables import services
    deck_key_fix(monkeypatch, SEED.hex())
    table = make_table(name="Birch", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=3600)  # no next hand on its own
    users = []
    for name in ("alice", "bob"):
        user = make_user(name)
        play_money_grant(user=user)
        users.append(user)

    def play():
        for number, user in enumerate(users, start=1):
            services.seat_take(table_id=table.pk, user=user, number=number, amount=200,
                               idempotency_key=f"sit-{uuid.uuid4().hex}")
        return check_down_first_shows_others_muck(table.pk), fold_preflop(table.pk)

    return in_a_thread(play)


def test_the_replayer_steps_through_a_hand(room_url, new_page, two_hands):
    showdown, _ = two_hands
    page = new_page("alice")
    log_in(page, room_url, "alice")
    page.goto(f"{room_url}/tables/hands/{showdown.pk}/")
    replayer = page.locator("#replayer")
    expect(replayer).to_be_visible(timeout=TIMEOUT)
    expect(replayer).to_have_attribute("data-step", "0")
    expect(page.locator("#replay-prev")).to_be_disabled()
    first = page.locator(".replay-felt").inner_html()

    page.locator("#replay-next").click()  # the small blind
    expect(replayer).to_have_attribute("data-step", "1")
    expect(page.locator("#replay-step")).to_contain_text("posts small blind 1")
    expect(page.locator(".replay-bet")).to_have_count(1)
    assert page.locator(".replay-felt").inner_html() != first

    replayer.focus()
    page.keyboard.press("ArrowRight")  # the big blind
    expect(replayer).to_have_attribute("data-step", "2")
    expect(page.locator(".replay-bet")).to_have_count(2)
    page.keyboard.press("End")  # the pot awarded: five board cards, the shown hand face up
    expect(page.locator(".replay-board .card")).to_have_count(5)
    # The last frame is the result: the final pot (blinds 2 + 2, checked down) and its winner.
    expect(page.locator(".replay-pot")).to_have_text("Pot 4")
    expect(page.locator(".replay-seat.winner")).to_have_count(1)
    expect(page.locator(".replay-seat.winner .replay-won")).to_have_text("Wins 4")
    expect(page.locator("#replay-next")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-next")).to_be_enabled()

    page.keyboard.press("Home")
    page.locator("#replay-play").click()  # plays on by itself
    expect(page.locator("#replay-play")).to_have_text("Pause")
    expect(replayer).not_to_have_attribute("data-step", "0", timeout=TIMEOUT)
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_text("Play")

    # The proof of the deal is folded away, and still checked in the browser.
    expect(page.locator("details.hand-proof-box")).not_to_have_attribute("open", "")
    expect(page.locator("#verify-result")).to_contain_text("✓ Verified", timeout=TIMEOUT)


def test_my_hands_downloads_pokerstars_text_and_phh(room_url, new_page, two_hands):
    showdown, folded = two_hands
    page = new_page("bob")
    log_in(page, room_url, "bob")
    page.get_by_role("link", name="My hands").click()
    expect(page.locator(".my-hands-list tbody tr")).to_have_count(2)

    with page.expect_download() as info:
        page.locator("#download-pokerstars").click()
    download = info.value
    assert download.suggested_filename == "my-hands.txt"
    text = Path(download.path()).read_text(encoding="utf-8")
    assert text.count("PokerStars Hand #") == 2
    assert f"PokerStars Hand #{showdown.pk}:  Hold'em No Limit (1/2)" in text
    assert "Dealt to bob [" in text and "Dealt to alice" not in text

    with page.expect_download() as info:
        page.locator("#download-phh").click()
    hands = tomllib.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert sorted(h["hand"] for h in hands.values()) == sorted([showdown.pk, folded.pk])

    # One hand from its row, PHH.
    row = page.locator(f'tr[data-hand-id="{folded.pk}"]')
    with page.expect_download() as info:
        row.get_by_role("link", name="PHH").click()
    assert info.value.suggested_filename == f"hand-{folded.pk}.phh"
    one = tomllib.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert one["hand"] == folded.pk and one["players"] == ["alice", "bob"]


# Phones (390 px wide): nothing wider than the screen, replayer seats apart, a short header.
WIDEST = """() => ({
  page: document.documentElement.scrollWidth,
  header: document.querySelector(".site-header").getBoundingClientRect().height,
  wide: [...document.querySelectorAll("body *")].filter((e) => e.checkVisibility())
    .filter((e) => e.getBoundingClientRect().right > 391)
    .map((e) => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className).slice(0, 8),
})"""
SEATS = """() => [...document.querySelectorAll(".replay-seat")]
  .map((e) => e.getBoundingClientRect().toJSON())"""
# A full ten-seat table drawn by the replayer on this page: long names, cards, bets.
FULL_TABLE = """async () => {
  const { drawFrame } = await import("/static/js/replayer.js");
  const seats = Array.from({ length: 10 }, (_, i) => ({
    seat: i + 1, name: `player${i + 1}long`, position: i === 0 ? "BTN" : "", stack: 12345,
    bet: 200, folded: false, allin: false, cards: null, won: 0 }));
  const frame = { board: ["As", "Kd", "7c"], pot: 0, seats, actor: 3 };
  drawFrame(document.querySelector(".replay-felt"), { currency: "PLAY", max_seats: 10 },
            { frame, pot: 2000 });
}"""


def overlapping(boxes: list[dict]) -> list[tuple[int, int]]:
    return [(i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes) if i < j
            and a["left"] < b["right"] and b["left"] < a["right"]
            and a["top"] < b["bottom"] and b["top"] < a["bottom"]]


def test_the_hand_page_and_my_hands_fit_a_phone(room_url, browser, two_hands):
    showdown, _ = two_hands
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        log_in(page, room_url, "alice")
        for path, replayer in ((f"/tables/hands/{showdown.pk}/", True),
                               ("/tables/hands/mine/", False)):
            page.goto(room_url + path)
            if replayer:
                expect(page.locator("#replayer")).to_be_visible(timeout=TIMEOUT)
                page.locator("#replayer").focus()
                for _ in range(4):  # bets out, as the seats are most crowded
                    page.keyboard.press("ArrowRight")
                assert overlapping(page.evaluate(SEATS)) == []
                page.evaluate(FULL_TABLE)
                assert page.locator(".replay-seat").count() == 10
                assert overlapping(page.evaluate(SEATS)) == []
            got = page.evaluate(WIDEST)
            assert got["page"] <= 390, (path, got)
            assert got["header"] <= 64, (path, got)
        page.get_by_role("link", name="PHH").first.scroll_into_view_if_needed()
        expect(page.get_by_role("link", name="PHH").first).to_be_in_viewport()
    finally:
        context.close()
