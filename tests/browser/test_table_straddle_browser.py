"""A straddle hand end to end in the browser: three players tick "Straddle" at a table that
allows it; in the next three-handed hand the player under the gun posts two big blinds, every
page marks his seat ST and says so, the others act first, he acts last with his option, and
the hand's page replays the straddle and downloads it as PokerStars writes it."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, open_table, play_passively, seat, sign_up, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def running_straddle(table_id: int):
    """The running hand with a straddle, or None."""
    from tables.engine import HandState
    from tables.models import Hand

    hand = Hand.objects.filter(table_id=table_id, finished_at__isnull=True).first()
    if hand is None:
        return None
    state = HandState.from_json(hand.state)
    return (hand, state) if state.straddle is not None and len(state.players) == 3 else None


def test_a_straddle_hand_from_the_seat_box_to_the_download(room_url, new_page, make_table):
    from tables.engine import HandState
    from tables.models import Hand, Seat

    table = make_table(name="Straddle Oak", structure="NL", lower_stake=2, max_seats=6,
                       straddle_allowed=True, hand_pause_seconds=1)
    names = ("gina", "hugo", "ivan")
    pages = {name: new_page(name) for name in names}
    for number, (name, page) in enumerate(pages.items(), start=1):
        sign_up(page, room_url, name)
        open_table(page, room_url, table.pk)
        take_seat(page, number, 200)
    for page in pages.values():  # everyone straddles when under the gun
        box = page.locator("#straddle")
        expect(box).to_be_visible(timeout=TIMEOUT)
        box.check()
    deadline = time.monotonic() + 15
    while Seat.objects.filter(table=table, straddle=True).count() < 3:
        assert time.monotonic() < deadline, "the choices did not reach the server"
        time.sleep(0.05)

    # Play along until a three-handed hand with a straddle runs (a page that shows a straddle
    # stops clicking: the marker comes in the frame that deals the hand and opens the action).
    deadline = time.monotonic() + 90
    while (found := running_straddle(table.pk)) is None:
        assert time.monotonic() < deadline, "no straddle hand was dealt"
        for page in pages.values():
            play_passively(page, unless=".blind-marker.st")
        time.sleep(0.1)
    hand, state = found
    straddler = state.straddle
    by_seat = {number: pages[name] for number, name in enumerate(names, start=1)}
    order = [p.seat for p in state.players]
    assert order.index(straddler) == 2  # under the gun: left of the big blind
    assert state.to_act_seat == order[0]  # action opens left of the straddler
    for page in pages.values():
        marker = seat(page, straddler).locator(".blind-marker.st")
        expect(marker).to_have_text("ST", timeout=TIMEOUT)
        expect(marker).to_have_attribute("title", "Straddle")
        expect(page.locator("#hand-log")).to_contain_text("posts a straddle of 4")

    # The other two call; the straddler acts last, with the option to check or raise to 8.
    for number in order[:2]:
        page = by_seat[number]
        expect(page.locator("#act-call")).to_contain_text("Call", timeout=TIMEOUT)
        page.locator("#act-call").click()
    mine = by_seat[straddler]
    expect(mine.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    expect(mine.locator("#act-raise")).to_contain_text("Raise to 8")
    mine.locator("#act-check").click()
    for page in pages.values():
        expect(page.locator("#hand-info")).to_contain_text("Flop", timeout=TIMEOUT)
    assert HandState.from_json(Hand.objects.get(pk=hand.pk).state).pot_total == 12

    # The rest checks down; the hand's page replays the straddle, the download writes it.
    deadline = time.monotonic() + 60
    while Hand.objects.get(pk=hand.pk).finished_at is None:
        assert time.monotonic() < deadline, "the hand did not end"
        for page in pages.values():
            play_passively(page)
        time.sleep(0.1)
    for page in pages.values():
        page.locator("#straddle").uncheck()
    page = by_seat[straddler]
    page.goto(f"{room_url}/tables/hands/{hand.pk}/")
    expect(page.locator("#replayer")).to_be_visible(timeout=TIMEOUT)
    for _step in range(3):
        page.locator("#replay-next").click()
    expect(page.locator("#replay-step")).to_contain_text("posts straddle 4")
    expect(page.locator(".replay-bet")).to_have_count(3)
    text = page.request.get(f"{room_url}/tables/hands/{hand.pk}/download/pokerstars/").text()
    assert f"{names[straddler - 1]}: posts straddle 4" in text
