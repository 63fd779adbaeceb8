"""Player notes, colour tags and statistics in the browser (the player pop-up): alice tags and
notes bob from his seat, sees it on the seat (the tag's colour, the note on hover) and again
after a reload, edits it from the hand page and reaches it from the chat; bob never sees it.
After a few hands the pop-up shows the hands played together and the figures."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tables.models import Hand, HandStatsCounted
from tests.browser.players import TIMEOUT, open_table, play_passively, seat, shot
from tests.browser.test_table_browser import seated_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_card(page: Page, number: int) -> None:
    """Open the pop-up of the player on seat `number`; wait until it is loaded."""
    seat(page, number).locator(".player-name").click()
    expect(page.locator("#player-dialog")).to_be_visible()
    expect(page.locator("#player-tags input[name=tag]")).not_to_have_count(0, timeout=TIMEOUT)


def stat(page: Page, name: str):
    return page.locator(f'#player-dialog [data-stat="{name}"]')


def test_notes_and_tags_from_the_seat_the_hand_page_and_the_chat(room_url, new_page, make_user,
                                                                   make_table):
    table = make_table(name="Notes", structure="NL", lower_stake=2, hand_pause_seconds=1,
                       action_seconds=30)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)

    # Alice opens bob's pop-up from his seat, tags him red and writes a note.
    open_card(alice, 2)
    expect(alice.locator("#player-dialog-name")).to_have_text("bob")
    expect(alice.locator("#player-dialog-avatar")).to_have_attribute(
        "src", re.compile(r"^/accounts/avatars/\w+\.svg$"))
    alice.locator("#player-tags label", has_text="Red").click()
    alice.locator("#player-note-text").fill("Limps then shoves")
    alice.locator("#player-note-save").click()
    expect(alice.locator("#player-note-status")).to_have_text("Saved.", timeout=TIMEOUT)
    shot(alice, "player-dialog")
    alice.locator("#player-dialog-close").click()

    # The seat shows the tag's colour, and the note on hover.
    expect(seat(alice, 2)).to_have_attribute("data-tag", "red")
    expect(seat(alice, 2).locator(".player-tag-dot")).to_have_attribute("aria-label", "Tag: Red")
    expect(seat(alice, 2).locator(".player-name")).to_have_attribute(
        "title", "Your note: Limps then shoves")

    # After a reload it is still there; bob's page shows no note anywhere.
    alice.reload()
    expect(seat(alice, 2)).to_have_attribute("data-tag", "red", timeout=TIMEOUT)
    expect(seat(alice, 2).locator(".player-name")).to_have_attribute(
        "title", "Your note: Limps then shoves")
    for number in (1, 2):
        expect(seat(bob, number)).not_to_have_attribute("data-tag", "red")
    assert "Limps then shoves" not in bob.content()
    open_card(bob, 1)  # bob's pop-up on alice: nothing of hers
    expect(bob.locator("#player-note-text")).to_have_value("")
    expect(bob.locator("#player-tags input[value='']")).to_be_checked()
    bob.locator("#player-dialog-close").click()

    # From the chat: bob's line's author bar offers alice his notes on bob.
    bob.locator("#chat-input").fill("nice hand")
    bob.locator("#chat-input").press("Enter")
    alice.locator("#chat-lines button.chat-author", has_text="bob").first.click(timeout=TIMEOUT)
    alice.locator("#chat-player-notes").click()
    expect(alice.locator("#player-note-text")).to_have_value("Limps then shoves", timeout=TIMEOUT)
    alice.locator("#player-dialog-close").click()

    # From the hand page: the tag beside bob's name, and the note edited there.
    until = time.monotonic() + 30
    while (hand := Hand.objects.filter(table=table, finished_at__isnull=False).first()) is None:
        assert time.monotonic() < until, "no hand finished"
        for page in (alice, bob):
            play_passively(page, ("#act-fold",))
        time.sleep(0.2)
    alice.goto(f"{room_url}/tables/hands/{hand.pk}/")
    names = alice.locator(".hand-players .player-name")
    bob_name = names.filter(has_text="bob")
    expect(alice.locator(".hand-players .player-tag-dot[data-tag=red]")).to_be_visible(
        timeout=TIMEOUT)
    expect(bob_name).to_have_attribute("title", "Your note: Limps then shoves")
    bob_name.click()
    expect(alice.locator("#player-note-text")).to_have_value("Limps then shoves", timeout=TIMEOUT)
    alice.locator("#player-tags label", has_text="Blue").click()
    alice.locator("#player-note-text").fill("Folds to 3-bets")
    alice.locator("#player-note-save").click()
    expect(alice.locator("#player-note-status")).to_have_text("Saved.", timeout=TIMEOUT)
    expect(bob_name).to_have_attribute("title", "Your note: Folds to 3-bets")
    open_table(alice, room_url, table.pk)
    expect(seat(alice, 2)).to_have_attribute("data-tag", "blue", timeout=TIMEOUT)

    # A note too long is refused with the reason, in the dialog.
    open_card(alice, 2)
    alice.locator("#player-note-text").evaluate("(t) => { t.removeAttribute('maxlength'); }")
    alice.locator("#player-note-text").fill("x" * 1001)
    alice.locator("#player-note-save").click()
    expect(alice.locator("#player-note-error")).to_contain_text("at most 1000 characters")


def test_stats_after_a_few_hands(room_url, new_page, make_user, make_table):
    """Two hands the small blind folds (a walk: nobody's VPIP), one he completes and both
    check down: after the three, each sees 3 hands together, and exactly one of them (the
    small blind of the third) put money in voluntarily once — VPIP 33%."""
    table = make_table(name="Stats", structure="NL", lower_stake=2, hand_pause_seconds=1,
                       action_seconds=30)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)

    until = time.monotonic() + 90
    while (done := Hand.objects.filter(table=table, finished_at__isnull=False).count()) < 3:
        assert time.monotonic() < until, f"only {done} hands finished"
        buttons = ("#act-fold",) if done < 2 else ("#act-check", "#act-call", "#act-show")
        for page in (alice, bob):
            play_passively(page, buttons)
        time.sleep(0.2)
    until = time.monotonic() + 30
    while HandStatsCounted.objects.filter(hand__table=table).count() < 3:  # the worker's task
        assert time.monotonic() < until, "the hands were not counted"
        time.sleep(0.2)

    figures = []
    for page, other in ((alice, 2), (bob, 1)):
        open_card(page, other)
        expect(stat(page, "hands")).to_have_text("3", timeout=TIMEOUT)
        expect(stat(page, "pfr")).to_have_text("0%")
        expect(stat(page, "three_bet")).to_have_text("—")  # never faced a raise
        expect(page.locator("#player-note-status")).to_have_text(
            "From the 3 hands you were dealt into together.")
        figures.append(stat(page, "vpip").inner_text())
    assert sorted(figures) == ["0%", "33%"]
    shot(alice, "player-dialog-stats")
