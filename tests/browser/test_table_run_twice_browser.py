"""A run-it-twice hand end to end in the browser: heads-up at a table that offers it, alice
moves all in and bob calls; both are asked, both click "Run it twice", and both pages show
two boards; the hand's page replays the second run and the PokerStars download writes both."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, seat
from tests.browser.test_table_browser import seated_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_both_players_agree_and_see_two_boards(room_url, new_page, make_user, make_table):
    from tables.engine import HandState
    from tables.models import Hand, TableConfig

    table = make_table(name="Twice Oak", structure="NL", lower_stake=2, max_seats=6,
                       run_it_twice_allowed=True, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # the button first
    TableConfig.objects.filter(pk=table.pk).update(hand_pause_seconds=60)  # time to look
    alice.locator("#bet-amount").fill("100")
    alice.locator("#act-raise").click()
    expect(bob.locator("#act-call")).to_be_visible(timeout=TIMEOUT)
    bob.locator("#act-call").click()

    for page in (alice, bob):  # both all in: both asked, nothing dealt yet
        expect(page.locator("#run-twice")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#run-twice-left")).to_contain_text("no answer is once")
        expect(page.locator("#board .card[data-card]")).to_have_count(0)
        expect(page.locator("#action-bar")).to_be_hidden()
    alice.locator("#run-twice-yes").click()
    expect(alice.locator("#run-twice")).to_be_hidden()
    expect(bob.locator("#hand-log")).to_contain_text("alice says twice", timeout=TIMEOUT)
    bob.locator("#run-twice-yes").click()

    for page in (alice, bob):
        expect(page.locator("#board .card[data-card]")).to_have_count(5, timeout=TIMEOUT)
        expect(page.locator("#board2 .card[data-card]")).to_have_count(5)
        expect(page.locator("#hand-log")).to_contain_text("The board is run twice")
    hand = Hand.objects.filter(table=table).order_by("-pk").first()
    state = HandState.from_json(hand.state)
    assert hand.finished_at is not None and state.board2 is not None
    shown = alice.locator("#board2 .card[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert shown == state.board2
    [pot] = state.result["pots"]
    for number, won in pot["shares"]:
        if won:
            expect(seat(bob, number).locator(".result")).to_contain_text("Wins")

    alice.goto(f"{room_url}/tables/hands/{hand.pk}/")
    expect(alice.locator("#replayer")).to_be_visible(timeout=TIMEOUT)
    alice.locator("#replayer").focus()
    alice.keyboard.press("End")
    expect(alice.locator(".replay-board2 .card")).to_have_count(5)
    # The deal is proven in the browser, the second board's cards included.
    expect(alice.locator("#verify-result")).to_contain_text("✓ Verified", timeout=TIMEOUT)
    seen = alice.evaluate("""async (id) => {
        const { seenCards } = await import("/static/js/verify.js");
        const history = await (await fetch(`/tables/hands/${id}.json`)).json();
        return seenCards(history).cards.size;
    }""", hand.pk)
    assert seen == 10 + 4  # two boards and both hands, shown
    text = alice.request.get(f"{room_url}/tables/hands/{hand.pk}/download/pokerstars/").text()
    assert "Hand was run twice" in text and f"SECOND Board [{' '.join(state.board2)}]" in text
