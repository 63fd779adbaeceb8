"""The accessible table (issue 29; Lichess's blind mode is the model): a hand played with typed
commands only, the live regions that keep game events, chat and "your turn" apart, and the action
bar driven from the keyboard alone."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, seat, shot, stack_of, wait_hand_over
from tests.browser.test_table_browser import seated_pair, sit_out_both

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RANKS = {"2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
         "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def in_words(cards: list[str]) -> str:
    """["As", "Kh"] → "Ace of spades, King of hearts" (how the text mode says cards)."""
    return ", ".join(f"{RANKS[c[0]]} of {SUITS[c[1]]}" for c in cards)


def text_mode_on(page: Page) -> None:
    page.locator("#toggle-text-mode").click()
    expect(page.locator("#text-mode-input")).to_be_focused()


def command(page: Page, text: str) -> str:
    """Type a command into the text mode and return the answer its live region speaks."""
    answers = page.locator("#text-mode-history li")
    before = answers.count()
    page.locator("#text-mode-input").fill(text)
    page.keyboard.press("Enter")
    expect(answers).to_have_count(min(before + 1, 30))
    return page.locator("#text-mode-answer").inner_text()


def cards_on(page: Page, where) -> list[str]:
    return where.locator(".card[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")


def test_a_hand_played_with_typed_commands_only(room_url, new_page, make_user, make_table):
    table = make_table(name="Braille", structure="NL", lower_stake=2, hand_pause_seconds=1,
                       time_bank_seconds=30, time_bank_cap_seconds=30)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    text_mode_on(alice)
    text_mode_on(bob)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # alice, the button

    # What she hears is what the table shows, in words.
    expect(seat(alice, 1).locator(".card[data-card]")).to_have_count(2)
    mine = cards_on(alice, seat(alice, 1))
    assert command(alice, "hand") == f"Your cards: {in_words(mine)}."
    assert command(alice, "board") == "Board: no cards yet."
    assert command(alice, "pot") == "Pot: 3. To call: 1."
    assert (stack_of(alice, 1), stack_of(alice, 2)) == (99, 98)
    assert command(alice, "stacks") == (
        "Seat 1: alice (you, button, small blind), stack 99, bet 1, in the hand, to act. "
        "Seat 2: bob (big blind), stack 98, bet 2, in the hand.")
    assert re.fullmatch(r"Your turn: \d+ seconds left\. Your time bank: 30 seconds\.",
                        command(alice, "time"))
    assert alice.locator("#my-time-bank").get_attribute("data-seconds") == "30"
    assert command(alice, "last") == (
        "Hand #1 begins. alice has the button. alice posts the small blind of 1. "
        f"bob posts the big blind of 2. Your cards: {in_words(mine)}. "
        "Your turn: fold, call 1, raise to 4 up to 100.")
    assert command(bob, "time").startswith("alice to act: ")
    assert command(bob, "hand") == f"Your cards: {in_words(cards_on(bob, seat(bob, 2)))}."

    # Refusals are answered in words and send nothing; help lists the commands.
    assert command(alice, "check") == ("You cannot check now. Your turn preflop: fold, "
                                       "call 1, raise to 4 up to 100.")
    assert command(alice, "raise 500") == "You cannot raise to 500: you may raise to 4 up to 100."
    assert command(alice, "raise") == "Say how much: you may raise to 4 up to 100."
    assert command(bob, "call") == "It is not your turn: alice is to act."
    assert "stacks (every seat)" in command(alice, "help")
    assert command(alice, "dance") == 'Unknown command "dance". Type help for the list.'
    shot(alice, "table-text-mode")

    # The actions send what the action bar sends: alice calls, bob checks, the flop comes.
    assert command(alice, "call") == "Sent: call 1."
    expect(bob.locator("#act-check")).to_be_visible(timeout=TIMEOUT)
    assert command(bob, "check") == "Sent: check."
    expect(bob.locator("#board .card[data-card]")).to_have_count(3, timeout=TIMEOUT)
    flop = cards_on(bob, bob.locator("#board"))
    assert command(bob, "board") == f"Board: {in_words(flop)}."
    assert command(bob, "pot") == "Pot: 4."
    expect(bob.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)  # postflop: bob first
    assert command(bob, "check") == "Sent: check."
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    bob.locator("#sit-out").click()  # after this hand: no next hand to move `last` on
    assert command(alice, "bet 6") == "Sent: bet 6."
    expect(bob.locator("#act-fold")).to_be_visible(timeout=TIMEOUT)
    assert command(bob, "fold") == "Sent: fold."
    wait_hand_over(alice)
    last = command(alice, "last 10")
    assert "alice bets 6. bob to act. bob folds." in last, last
    sit_out_both(alice, bob)


def test_game_events_chat_and_your_turn_have_their_own_live_regions(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Regions", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    assert alice.locator("#announcer").get_attribute("aria-live") == "polite"
    assert alice.locator("#chat-announcer").get_attribute("aria-live") == "polite"
    assert alice.locator("#turn-announcer").get_attribute("aria-live") == "assertive"

    # Her turn is urgent; what the others do is polite news.
    expect(alice.locator("#turn-announcer")).to_have_text("Your turn: fold, call 1, raise to 4 "
                                                          "up to 100.", timeout=TIMEOUT)
    # A burst (alice calls, bob is to act) reads as one sentence, not the last line only.
    alice.locator("#act-call").click()
    expect(alice.locator("#announcer")).to_have_text("alice calls 1. bob to act.",
                                                     timeout=TIMEOUT)
    expect(bob.locator("#turn-announcer")).to_contain_text("Your turn: fold, check", timeout=TIMEOUT)

    # A chat line is spoken apart from the game, and the game region never reads it.
    bob.locator("#chat-input").fill("good luck")
    bob.locator("#chat-input").press("Enter")
    expect(alice.locator("#chat-announcer")).to_have_text("bob says: good luck", timeout=TIMEOUT)
    bob.locator("#act-check").click()
    expect(alice.locator("#announcer")).to_contain_text("bob checks. Flop: ", timeout=TIMEOUT)
    expect(alice.locator("#chat-announcer")).to_have_text("bob says: good luck")
    assert "good luck" not in alice.locator("#announcer").inner_text()
    # The chat list itself is a log a screen reader does not re-read on every redraw: its
    # wrapper is the `log` (a list may not take that role) and holds the lines.
    log = alice.locator("#chat-log")
    assert (log.get_attribute("role"), log.get_attribute("aria-live")) == ("log", "off")
    expect(log.locator("#chat-lines")).to_contain_text("good luck")
    sit_out_both(alice, bob)


def focus_by_tab(page: Page, selector: str, *, limit: int = 80) -> None:
    """Press Tab until `selector` has the focus (fails after `limit` presses)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focus_ring(page: Page) -> str:
    return page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")


def test_the_action_bar_works_from_the_keyboard_alone(room_url, new_page, make_user, make_table):
    table = make_table(name="Keys only", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)

    # Every control of the bar has a name a screen reader says.
    bar = alice.locator("#action-bar")
    for role, name in (("button", "Fold"), ("button", "Call 1"), ("button", "Raise to 4"),
                       ("spinbutton", "Amount"), ("slider", "Bet size slider"),
                       ("button", "Less (one big blind)"), ("button", "More (one big blind)")):
        expect(bar.get_by_role(role, name=name)).to_be_visible()

    # Bob, waiting, reaches a pre-action box with Tab and ticks it with Space.
    focus_by_tab(bob, "#pre-callany")
    assert focus_ring(bob) != "none"
    bob.keyboard.press("Space")
    expect(bob.locator("#pre-callany")).to_be_checked()

    # Alice tabs from her buttons to the amount (visible focus on each), types, Enter raises.
    focus_by_tab(alice, "#act-raise")
    assert focus_ring(alice) != "none"
    shot(alice, "action-bar-keyboard-focus")
    focus_by_tab(alice, "#bet-amount")
    assert focus_ring(alice) != "none"
    alice.keyboard.press("Control+A")
    alice.keyboard.type("6")
    alice.keyboard.press("Enter")
    # Bob's "Call any" answers at once: the flop comes without his touching anything.
    expect(alice.locator("#hand-log")).to_contain_text("bob calls 4", timeout=TIMEOUT)
    expect(alice.locator("#board .card[data-card]")).to_have_count(3, timeout=TIMEOUT)

    # No trap: Tab goes on past the slider, out of the bar (bob acts first after the flop).
    expect(bob.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    focus_by_tab(bob, "#bet-slider")
    bob.keyboard.press("Tab")
    assert not bob.evaluate("() => !!document.activeElement.closest('#bet-sizing')")

    # Escape closes a dialog and changes nothing: bob stays seated.
    focus_by_tab(bob, "#leave")
    bob.keyboard.press("Enter")
    expect(bob.locator("#leave-dialog")).to_be_visible()
    bob.keyboard.press("Escape")
    expect(bob.locator("#leave-dialog")).to_be_hidden()
    expect(bob.locator("#leave")).to_have_text("Fold and leave")  # his turn: still seated
    sit_out_both(alice, bob)
