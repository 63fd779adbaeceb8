"""The live table in a real Chromium: two players, their own browsers, one hand to showdown."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.players import (
    TIMEOUT,
    open_table,
    play_balance,
    seat,
    shot,
    sign_up,
    stack_of,
    take_seat,
    wait_hand_over,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_play_a_hand_to_showdown(room_url, new_page, make_table):
    from cashier.models import AccountKind, LedgerAccount
    from tables.models import Hand, Seat

    table = make_table(name="Oak", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=1)
    alice, bob = new_page("alice"), new_page("bob")

    # Both sign up and get the play-money grant, shown in the header.
    sign_up(alice, room_url, "alice")
    sign_up(bob, room_url, "bob")
    grant = play_balance(alice)
    assert grant > 0 and play_balance(bob) == grant

    # Both open the table from the lobby and buy in through the dialog.
    shot(alice, "lobby")
    alice.get_by_role("link", name="Play at Oak").click()
    expect(alice.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    open_table(bob, room_url, table.pk)
    take_seat(alice, 1, 200)
    take_seat(bob, 2, 150)

    # The hand starts: each sees his own cards face up and the other's face down.
    for page, mine, other in ((alice, 1, 2), (bob, 2, 1)):
        expect(seat(page, mine).locator(".card[data-card]")).to_have_count(2, timeout=TIMEOUT)
        expect(seat(page, other).locator(".card.back")).to_have_count(2)
        expect(seat(page, other).locator(".card[data-card]")).to_have_count(0)
    alice_cards = seat(alice, 1).locator(".card[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    # A spectator (not logged in) sees both hands face down and no seat to take.
    spectator = new_page("spectator")
    spectator.goto(f"{room_url}/tables/{table.pk}/?watch=1")
    expect(spectator.locator(".hole .card.back")).to_have_count(4, timeout=TIMEOUT)
    expect(spectator.locator(".hole .card[data-card]")).to_have_count(0)
    expect(spectator.locator(".sit-here")).to_have_count(0)

    # Heads-up, alice has the button and acts first: she raises to 6 with the keyboard.
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    expect(alice.locator("#act-raise")).to_contain_text("Raise to 4")
    # Buttons have accessible names; a screen reader hears whose turn it is and the options.
    expect(alice.get_by_role("button", name="Raise to 4")).to_be_visible()
    expect(alice.get_by_role("button", name="Call 1")).to_be_visible()
    expect(alice.locator("#turn-announcer[aria-live=assertive]")).to_contain_text("Your turn: fold, call 1")
    shot(alice, "table-alice-to-act")
    alice.set_viewport_size({"width": 390, "height": 844})
    alice.locator("#action-bar").scroll_into_view_if_needed()
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390  # fits a phone
    expect(alice.get_by_role("button", name="Fold", exact=True)).to_be_in_viewport()
    shot(alice, "table-phone-to-act")
    alice.set_viewport_size({"width": 1280, "height": 860})
    alice.keyboard.press("r")
    expect(alice.locator("#bet-amount")).to_be_focused()
    alice.keyboard.type("6")
    alice.keyboard.press("Enter")
    expect(seat(bob, 1).locator(".plate")).to_be_visible()
    expect(bob.locator(".bet-chips[data-seat='1']")).to_contain_text("6", timeout=TIMEOUT)

    # Bob calls with C (the button says so).
    expect(bob.locator("#act-call")).to_contain_text("Call 4", timeout=TIMEOUT)
    expect(bob.locator("#act-call kbd")).to_have_text("C")
    shot(bob, "table-bob-facing-raise")
    bob.keyboard.press("c")

    # Both decide to sit out after this hand (it takes effect from the next one).
    for page in (alice, bob):
        page.locator("#sit-out").click()

    # On the flop bob (big blind) acts first; alice ticks "Check" in advance, so when bob
    # checks, her check goes out by itself.
    expect(alice.locator("#hand-info")).to_contain_text("Flop", timeout=TIMEOUT)
    expect(bob.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    alice.get_by_label("Check", exact=True).check()
    bob.locator("#act-check").click()
    # Turn and river: both check.
    for street in ("Turn", "River"):
        expect(alice.locator("#hand-info")).to_contain_text(street, timeout=TIMEOUT)
        assert seat(bob, 1).locator(".card[data-card]").count() == 0  # hidden before showdown
        for page in (bob, alice):
            expect(page.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
            page.locator("#act-check").click()
    expect(alice.locator("#board .card[data-card]")).to_have_count(5)
    for page in (alice, bob):  # the state built from events equals a fresh snapshot
        assert page.evaluate("window.pokerTable.selfCheck()") == []
    shot(bob, "table-bob-river")

    # Showdown at a real room's pace: nobody is asked. Bob (first left of the button, no river
    # bet) shows; alice's hand is shown if it can win and mucked if it cannot.
    wait_hand_over(alice)
    wait_hand_over(bob)
    from tables.engine import HandState

    state = HandState.from_json(Hand.objects.get(table=table).state)
    shown = {p.seat for p in state.players if p.shown}
    assert 2 in shown
    expect(seat(alice, 2).locator(".card[data-card]")).to_have_count(2)
    if 1 in shown:
        expect(seat(bob, 1).locator(".card[data-card]")).to_have_count(2)
        assert seat(bob, 1).locator(".card[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)") == alice_cards
    else:  # mucked: bob never sees them
        expect(seat(bob, 1).locator(".card[data-card]")).to_have_count(0)
    expect(alice.locator(".seat.winner .result").first).to_contain_text(re.compile(r"Wins \d+"))
    # The last hands panel verifies the deal in the browser: the cards alice saw against the
    # commitment, and her browser's entropy (sent when she sat down, seconds before bob did)
    # in the deal order.
    alice.get_by_role("button", name="Verify hand #1").click()
    expect(alice.locator("#history .verify-result")).to_contain_text(
        "Your browser's entropy was part of the deal order", timeout=TIMEOUT)
    alice.wait_for_timeout(600)  # let the chips fly
    shot(alice, "table-alice-showdown")
    alice.set_viewport_size({"width": 390, "height": 844})
    shot(alice, "table-phone-showdown")
    alice.set_viewport_size({"width": 1280, "height": 860})

    # Both sat out during the hand, so no new hand starts: compare the page with the ledger.
    for page in (alice, bob):
        expect(page.locator("#sit-in")).to_be_visible(timeout=TIMEOUT)
    seats = {s.number: s for s in Seat.objects.filter(table=table)}
    for page in (alice, bob):
        assert stack_of(page, 1) == seats[1].chips
        assert stack_of(page, 2) == seats[2].chips
    assert seats[1].chips + seats[2].chips == 350
    escrow = LedgerAccount.objects.get(kind=AccountKind.ESCROW, table=table)
    assert escrow.balance == 350

    # Both leave the table: the chips go back to the wallets the header shows.
    for page in (alice, bob):
        page.locator("#leave").click()
        expect(page.get_by_role("button", name="Sit in seat 1")).to_be_visible(timeout=TIMEOUT)
    for page, name in ((alice, "alice"), (bob, "bob")):
        page.reload()
        wallet = LedgerAccount.objects.get(kind=AccountKind.WALLET, currency="PLAY",
                                           user__username=name)
        assert play_balance(page) == wallet.balance
    assert play_balance(alice) + play_balance(bob) == 2 * grant

    # The hand's own page recomputes the deck in the browser too.
    hand = Hand.objects.get(table=table)
    bob.goto(f"{room_url}/tables/hands/{hand.pk}/")
    expect(bob.locator("#verify-result")).to_contain_text("✓ Verified", timeout=TIMEOUT)


def seated_pair(room_url, new_page, make_user, table, *, buy_in: int):
    """alice (seat 1, the button) and bob (seat 2), signed in, at `table`."""
    from cashier.services import play_money_grant
    from tests.browser.players import log_in

    pages = []
    for name, number in (("alice", 1), ("bob", 2)):
        play_money_grant(user=make_user(name))
        page = new_page(name)
        log_in(page, room_url, name)
        open_table(page, room_url, table.pk)
        take_seat(page, number, buy_in)
        pages.append(page)
    return pages


def sit_out_both(*pages) -> None:
    for page in pages:
        if page.locator("#sit-out").is_visible():
            page.locator("#sit-out").click()


def test_a_player_who_does_nothing_is_timed_out(room_url, new_page, make_user, make_table):
    table = make_table(name="Quick", structure="NL", lower_stake=2, action_seconds=2,
                       countdown_seconds=4, timeout_policy="modern", hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)

    # Alice is first to act and does nothing: a quiet bar first…
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    expect(seat(bob, 1).locator(".timer.quiet")).to_be_visible()
    # …then the countdown is clearly visible, to her and to bob.
    expect(alice.locator("#my-countdown")).to_have_text(re.compile(r"^\d s left$"), timeout=5000)
    expect(seat(bob, 1).locator(".timer.countdown .timer-num")).to_have_text(re.compile(r"^\d$"))
    shot(alice, "timeout-countdown")

    # At the deadline the server acts for her: under the modern policy, she folds the small blind.
    expect(bob.locator("#hand-log")).to_contain_text("alice timed out and folds", timeout=10_000)
    expect(alice.locator("#action-bar")).to_be_hidden()
    expect(bob.locator(".seat.winner")).to_have_attribute("data-seat", "2", timeout=TIMEOUT)
    sit_out_both(alice, bob)


def test_a_limit_table_shows_fixed_sizes_and_refuses_a_raise_after_the_cap(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Limit 2/4", structure="FL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    sit_out_both(alice, bob)  # after this hand

    # Preflop the big blind is the bet; each raise is one small bet, fixed: no slider, no presets.
    raises = [(alice, 4), (bob, 6), (alice, 8)]
    for page, to in raises:
        expect(page.locator("#act-raise")).to_contain_text(f"Raise to {to}", timeout=TIMEOUT)
        expect(page.locator("#sizing-range")).to_have_text(f"Fixed limit: {to}")
        expect(page.locator("#bet-slider")).to_be_hidden()
        expect(page.locator("#presets")).to_be_hidden()
        if to == 4:
            shot(page, "limit-fixed-raise")
        page.locator("#act-raise").click()

    # A bet and three raises: capped. Bob may only call or fold…
    expect(bob.locator("#act-call")).to_contain_text("Call 2", timeout=TIMEOUT)
    expect(bob.locator("#act-fold")).to_be_visible()
    expect(bob.locator("#act-raise")).to_be_hidden()
    # …and a raise sent anyway (a hand-made message) is refused by the server.
    bob.evaluate("window.pokerTable.act('raise', 10)")
    expect(bob.locator("#table-error")).to_be_visible(timeout=TIMEOUT)
    assert bob.locator("#table-error").get_attribute("data-code") == "betting_capped"
    shot(bob, "limit-capped")
    bob.locator("#act-call").click()
    expect(bob.locator("#hand-info")).to_contain_text("Flop", timeout=TIMEOUT)
    # On the flop the bet is still the small bet: 2.
    expect(bob.locator("#act-raise")).to_contain_text("Bet 2", timeout=TIMEOUT)
    for page in (alice, bob):
        assert page.evaluate("window.pokerTable.selfCheck()") == []

    # Bob wants to leave mid-hand, on his turn: asked first, he folds and leaves at once (the
    # hand ends with his fold: heads-up).
    expect(bob.locator("#leave")).to_have_text("Fold and leave")
    bob.locator("#leave").click()
    expect(bob.locator("#leave-dialog")).to_be_visible()
    bob.locator("#leave-confirm").click()
    expect(alice.locator("#hand-log")).to_contain_text("bob folds", timeout=TIMEOUT)
    expect(seat(alice, 2)).to_have_class(re.compile("empty"), timeout=TIMEOUT)


def test_a_dropped_connection_resyncs_without_a_reload(room_url, new_page, make_user, make_table):
    table = make_table(name="Wobbly", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    sit_out_both(alice, bob)  # after this hand
    bob.evaluate("window.__sameDocument = true")
    version_before = int(bob.locator("#table").get_attribute("data-version"))

    # Bob's network drops; the page says so.
    bob.context.set_offline(True)
    expect(bob.locator("#offline-banner")).to_be_visible(timeout=TIMEOUT)
    expect(bob.locator("#offline-banner")).to_contain_text("offline")
    shot(bob, "offline-banner")

    # Meanwhile alice raises.
    alice.locator("#bet-amount").fill("8")
    alice.locator("#act-raise").click()
    expect(alice.locator(".bet-chips[data-seat='1']")).to_contain_text("8", timeout=TIMEOUT)
    bob.wait_for_timeout(500)
    expect(bob.locator(".bet-chips[data-seat='1']")).not_to_contain_text("8")

    # The network comes back: the page reconnects by itself and catches up from its version.
    bob.context.set_offline(False)
    expect(bob.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(bob.locator("#offline-banner")).to_be_hidden()
    expect(bob.locator(".bet-chips[data-seat='1']")).to_contain_text("8", timeout=TIMEOUT)
    expect(bob.locator("#act-call")).to_contain_text("Call 6")
    assert bob.locator("#table").get_attribute("data-resync") == "events"
    assert int(bob.locator("#table").get_attribute("data-version")) > version_before
    assert bob.evaluate("window.__sameDocument") is True  # no reload
    assert bob.evaluate("window.pokerTable.selfCheck()") == []
    bob.locator("#act-fold").click()
    expect(alice.locator(".seat.winner")).to_have_attribute("data-seat", "1", timeout=TIMEOUT)


def test_a_newcomer_posts_the_big_blind_tops_up_and_leaves(
        room_url, new_page, make_user, make_table):
    from cashier.services import play_money_grant
    from tests.browser.players import log_in

    table = make_table(name="Busy", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    sit_out_both(alice, bob)

    # Carol arrives while a hand runs and chooses to post a big blind rather than wait.
    play_money_grant(user=make_user("carol"))
    carol = new_page("carol")
    log_in(carol, room_url, "carol")
    open_table(carol, room_url, table.pk)
    expect(carol.locator(".hole .card.back")).to_have_count(4, timeout=TIMEOUT)
    take_seat(carol, 4, 100, post_bb=True)
    expect(carol.locator("#wait-bb")).to_be_visible(timeout=TIMEOUT)  # she may change her mind
    expect(carol.locator("#seat-controls")).to_contain_text("Your stack: 100")

    # She tops up 50: the chips wait for the next hand.
    carol.locator("#top-up").click()
    expect(carol.locator("#topup-dialog")).to_contain_text("Max 100")
    carol.locator("#topup-amount").fill("50")
    carol.locator("#topup-confirm").click()
    expect(seat(carol, 4).locator(".plate")).to_contain_text("+50 next hand", timeout=TIMEOUT)
    expect(seat(alice, 4).locator(".plate")).to_contain_text("+50 next hand")
    shot(carol, "newcomer-top-up")

    # And leaves again: not in the running hand, so at once, with her chips back.
    carol.locator("#leave").click()
    expect(carol.get_by_role("button", name="Sit in seat 4")).to_be_visible(timeout=TIMEOUT)
    expect(seat(alice, 4)).to_have_class(re.compile("empty"))
