"""The seat choices in a real Chromium: waiting for the big blind (pre-selected) or posting now
in the buy-in dialog, "Sit out next big blind" in the seat menu, and "Fold and leave" on one's
own turn, end to end."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, log_in, open_table, seat, shot, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def players_at(room_url, new_page, make_user, table, names):
    from cashier.services import play_money_grant

    pages = []
    for name in names:
        play_money_grant(user=make_user(name))
        page = new_page(name)
        log_in(page, room_url, name)
        open_table(page, room_url, table.pk)
        pages.append(page)
    return pages


def test_the_buy_in_dialog_waits_for_the_big_blind_unless_told_to_post(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Choice", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, = players_at(room_url, new_page, make_user, table, ["alice"])
    alice.get_by_role("button", name="Sit in seat 1").click()
    dialog = alice.locator("#buyin-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("radio", name="Wait for the big blind")).to_be_checked()
    expect(dialog.get_by_role("radio", name="Post a big blind now and play at once")
           ).not_to_be_checked()
    shot(alice, "buy-in-wait-or-post")
    dialog.locator("button[value=cancel]").click()


def test_sit_out_next_big_blind_sits_him_out_when_the_big_blind_comes(
        room_url, new_page, make_user, make_table):
    from tables.models import Seat

    table = make_table(name="Blinds", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = players_at(room_url, new_page, make_user, table, ["alice", "bob"])
    take_seat(alice, 1, 100)
    take_seat(bob, 2, 100)
    # Heads-up, Alice has the button (small blind): the next hand's big blind is hers.
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    box = alice.get_by_role("checkbox", name="Sit out next big blind")
    expect(box).not_to_be_checked()
    box.check()
    expect(seat(bob, 1).locator(".plate")).to_contain_text("Sits out at BB", timeout=TIMEOUT)
    expect(box).to_be_checked()
    shot(alice, "sit-out-next-bb")
    alice.locator("#act-fold").click()
    # The next hand would make her post the big blind: she is sat out instead (heads-up, no
    # hand is dealt without her, so she missed no blind).
    expect(seat(bob, 1).locator(".plate")).to_contain_text("Sitting out", timeout=TIMEOUT)
    expect(alice.locator("#sit-in")).to_be_visible()
    expect(box).to_be_hidden()
    expect(bob.locator("#hand-log")).to_contain_text("alice sits out")
    s = Seat.objects.get(table=table, number=1)
    assert (s.status, s.missed_blinds, s.sit_out_next_bb) == ("sitting_out", False, False)
    # She sits in: two players again, the game goes on.
    alice.locator("#sit-in").click()
    expect(alice.locator("#hand-info")).to_contain_text("Hand #2", timeout=TIMEOUT)


def test_fold_and_leave_on_ones_turn(room_url, new_page, make_user, make_table):
    from cashier.models import AccountKind, LedgerAccount
    from tables.models import HandEvent

    table = make_table(name="Door", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob, carol = players_at(room_url, new_page, make_user, table,
                                   ["alice", "bob", "carol"])
    for number, page in enumerate((alice, bob, carol), start=1):
        take_seat(page, number, 100)
    # Button 1, blinds 2 and 3: Alice is first to act. Her leave button folds; theirs do not.
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    expect(alice.locator("#leave")).to_have_text("Fold and leave")
    expect(bob.locator("#leave")).to_have_text("Leave table")
    alice.locator("#leave").click()
    dialog = alice.locator("#leave-dialog")
    expect(dialog).to_contain_text("Your hand is folded now")
    shot(alice, "fold-and-leave")
    dialog.get_by_role("button", name="Fold and leave").click()
    # Folded at once (no clock waited out): Bob is to act, Alice leaves when the hand ends.
    expect(bob.locator("#hand-log")).to_contain_text("alice folds", timeout=TIMEOUT)
    expect(bob.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    expect(seat(carol, 1).locator(".plate")).to_contain_text("Leaving")
    expect(alice.locator("#leave")).to_have_text("Leaving after this hand")
    # Carol leaves before her turn: folded when the action reaches her.
    expect(carol.locator("#leave")).to_have_text("Leave table")
    carol.locator("#leave").click()
    expect(carol.locator("#leave-dialog")).to_contain_text("when the action reaches you")
    carol.locator("#leave-confirm").click()
    expect(seat(bob, 3).locator(".plate")).to_contain_text("Leaving", timeout=TIMEOUT)
    bob.locator("#act-call").click()  # the small blind completes; Carol's turn folds her
    # Bob wins alone; both leavers are cashed out and their seats are free.
    expect(seat(bob, 1)).to_have_class(re.compile("empty"), timeout=TIMEOUT)
    expect(seat(bob, 3)).to_have_class(re.compile("empty"), timeout=TIMEOUT)
    left = {e.payload["seat"]: e.payload["cashed_out"]
            for e in HandEvent.objects.filter(table=table, type="seat_left")}
    assert left == {1: 100, 3: 98}
    wallet = LedgerAccount.objects.get(kind=AccountKind.WALLET, user__username="alice")
    expect(alice.locator('[data-balance-currency="PLAY"]')).to_have_attribute(
        "data-amount", str(wallet.balance), timeout=TIMEOUT)


def test_a_seat_click_survives_a_redraw_between_press_and_release(
        room_url, new_page, make_user, make_table):
    """The felt is drawn again on every event: at a busy table one lands while a player's
    mouse is down on "Sit here". The empty seat's button must be the same one at the release,
    or the browser sends no click and the buy-in dialog never opens."""
    table = make_table(name="Busy", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = players_at(room_url, new_page, make_user, table, ["alice", "bob"])
    alice.get_by_role("button", name="Sit in seat 1").click()
    alice.locator("#buyin-confirm").click()
    expect(seat(bob, 1)).to_contain_text("alice", timeout=TIMEOUT)

    bob.get_by_role("button", name="Sit in seat 2").hover()
    bob.mouse.down()
    alice.locator("#sit-out").click()  # an event: bob's felt is drawn again
    expect(seat(bob, 1)).to_contain_text("Sitting out", timeout=TIMEOUT)
    bob.mouse.up()
    expect(bob.locator("#buyin-dialog")).to_be_visible()
