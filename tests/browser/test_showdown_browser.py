"""Showdowns between two humans at a real room's pace: a checked-down hand ends at once with
the winning hand shown, the losing one mucked and nobody sat out; the loser may still show his
cards in the pause before the next hand, and a player who ticks "Always show" is shown."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.players import open_table, play_passively, seat, sign_up, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def check_down(pages: dict, table_id: int, hands_before: int) -> float:
    """Both players check or call every street until the hand is over. Returns the seconds
    from the last click to the hand's end as the database records it."""
    from tables.models import Hand

    deadline, last_click = time.monotonic() + 60, None
    while not Hand.objects.filter(table_id=table_id, finished_at__isnull=False)[hands_before:]:
        assert time.monotonic() < deadline, "the hand did not end"
        for page in pages.values():
            if play_passively(page):
                last_click = time.time()
        time.sleep(0.05)
    hand = Hand.objects.filter(table_id=table_id, finished_at__isnull=False).order_by("pk")[
        hands_before]
    return hand.finished_at.timestamp() - last_click


def deal_now(table_id: int) -> None:
    """The next hand without its pause (the pause is long for the loser's Show button)."""
    from tables import services

    services.hand_start(table_id=table_id, force=True)


def showdown_of(table_id: int, index: int):
    """(engine state, winners' seats, losers' seats) of the table's `index`-th finished hand."""
    from tables.engine import HandState
    from tables.models import Hand

    hand = Hand.objects.filter(table_id=table_id, finished_at__isnull=False).order_by("pk")[index]
    state = HandState.from_json(hand.state)
    winners = set(state.result["pots"][0]["winners"])
    return state, winners, {p.seat for p in state.players} - winners


def shown_cards(page, number: int) -> list[str]:
    return seat(page, number).locator(".hole .card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)")


def test_a_checked_down_hand_ends_at_once_and_the_loser_may_still_show(room_url, new_page,
                                                                       make_table):
    from tables.models import Seat, SeatStatus

    table = make_table(name="Ash", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=8)
    pages = {name: new_page(name) for name in ("erin", "fred")}
    numbers = {"erin": 1, "fred": 2}
    for name, page in pages.items():
        sign_up(page, room_url, name)
        open_table(page, room_url, table.pk)
        take_seat(page, numbers[name], 200)

    finished = 0
    for _ in range(14):  # each hand, 1 in 2 that the loser is not first to show
        took = check_down(pages, table.pk, finished)
        state, winners, losers = showdown_of(table.pk, finished)
        finished += 1
        if len(winners) > 1:
            deal_now(table.pk)
            continue  # a split pot shows both hands
        (loser,) = losers
        first = state.players[state.showdown_order[0]].seat
        if not state.player(loser).mucked:  # the first in order shows, whatever he holds
            assert first == loser
            deal_now(table.pk)
            continue
        break
    else:
        pytest.fail("no hand ended with a loser to muck")
    assert took < 2.5, f"the hand took {took:.1f} s to end after the last check"
    (winner,), (loser,) = winners, losers
    by_seat = {number: pages[name] for name, number in numbers.items()}
    winner_cards = list(state.player(winner).hole)
    loser_cards = list(state.player(loser).hole)
    assert state.player(winner).shown and state.player(loser).mucked
    for page in pages.values():  # the winner is shown to both
        expect(seat(page, winner).locator(".result")).to_contain_text("Wins")
        assert shown_cards(page, winner) == winner_cards
    other = by_seat[winner]
    expect(seat(other, loser)).to_contain_text("Mucked")
    assert shown_cards(other, loser) == []  # nobody else ever sees a mucked hand
    assert shown_cards(by_seat[loser], loser) == loser_cards  # his own page keeps them
    assert {s.status for s in Seat.objects.filter(table=table)} == {SeatStatus.PLAYING}

    # In the pause, the loser turns his cards up after all: the other page shows them.
    show = by_seat[loser].locator("#act-show")
    expect(show).to_be_visible()
    show.click()
    expect(seat(other, loser).locator(".hole .card")).to_have_count(2)
    assert shown_cards(other, loser) == loser_cards
    expect(show).to_be_hidden()
    assert not by_seat[winner].locator("#act-show").is_visible()  # his cards are up already

    # Both tick "Always show": the next checked-down hand ends with both hands face up.
    for page in pages.values():
        page.locator("#always-show").check()
    deadline = time.monotonic() + 10
    while Seat.objects.filter(table=table, always_show=True).count() < 2:
        assert time.monotonic() < deadline, "the choice did not reach the server"
        time.sleep(0.05)
    deal_now(table.pk)
    for _ in range(3):  # a hand dealt before both choices arrived keeps the old one
        check_down(pages, table.pk, finished)
        state, winners, losers = showdown_of(table.pk, finished)
        finished += 1
        if all(p.always_show for p in state.players):
            break
        deal_now(table.pk)
    assert all(p.shown and not p.mucked for p in state.players)
    for page in pages.values():
        for number in numbers.values():
            expect(seat(page, number).locator(".hole .card")).to_have_count(2)
    assert {s.status for s in Seat.objects.filter(table=table)} == {SeatStatus.PLAYING}
