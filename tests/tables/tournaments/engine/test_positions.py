"""The dead button: the big blind moves forward one player a hand, whoever left."""

from __future__ import annotations

from tables.tournaments.engine.positions import (
    Positions,
    big_blind_order,
    hands_until_big_blind,
    next_positions,
    waits_for_big_blind,
)

NINE = range(1, 10)


def test_first_hand_button_on_seat_one_then_the_blinds() -> None:
    assert next_positions(NINE, seats=9, last_small_blind=None, last_big_blind=None) == \
        Positions(button=1, small_blind=2, big_blind=3)


def test_first_hand_button_on_the_first_occupied_seat_from_seat_one() -> None:
    assert next_positions([3, 5, 8], seats=9, last_small_blind=None, last_big_blind=None) == \
        Positions(button=3, small_blind=5, big_blind=8)


def test_everything_moves_one_seat_when_nobody_left() -> None:
    assert next_positions(NINE, seats=9, last_small_blind=4, last_big_blind=5) == \
        Positions(button=4, small_blind=5, big_blind=6)


def test_the_big_blind_busted_so_his_seat_is_a_dead_small_blind() -> None:
    # Last hand: small 4, big 5; seat 5 busted. Next: button 4, small blind on the empty seat 5
    # (not posted), big blind 6. Nobody skips the big blind.
    occupied = [1, 2, 3, 4, 6, 7, 8, 9]
    assert next_positions(occupied, seats=9, last_small_blind=4, last_big_blind=5) == \
        Positions(button=4, small_blind=5, big_blind=6)


def test_the_small_blind_busted_so_the_button_is_dead() -> None:
    occupied = [1, 2, 3, 5, 6, 7, 8, 9]
    pos = next_positions(occupied, seats=9, last_small_blind=4, last_big_blind=5)
    assert pos == Positions(button=4, small_blind=5, big_blind=6)  # button on empty seat 4


def test_heads_up_the_button_posts_the_small_blind_and_the_big_blind_alternates() -> None:
    pos = next_positions([2, 7], seats=9, last_small_blind=7, last_big_blind=2)
    assert pos == Positions(button=2, small_blind=2, big_blind=7)
    # Going heads-up from three: the big blind still moves forward, never twice in a row.
    pos = next_positions([2, 7], seats=9, last_small_blind=5, last_big_blind=7)
    assert pos == Positions(button=7, small_blind=7, big_blind=2)


def test_big_blind_order_and_where_a_newcomer_would_pay_it() -> None:
    pos = Positions(button=3, small_blind=4, big_blind=6)  # seat 5 is empty
    occupied = [1, 2, 3, 4, 6, 7, 8]
    assert big_blind_order(occupied, pos, 9) == [6, 7, 8, 1, 2, 3, 4]
    assert hands_until_big_blind(5, occupied, pos, 9) == 0  # takes the next big blind at once
    assert hands_until_big_blind(9, occupied, pos, 9) == 3  # after 6, 7 and 8
    assert hands_until_big_blind(6, occupied, pos, 9) == 0
    assert hands_until_big_blind(4, occupied, pos, 9) == 6  # just paid it: last


def test_a_newcomer_waits_only_between_the_button_and_the_small_blind() -> None:
    pos = Positions(button=2, small_blind=5, big_blind=6)  # 3 and 4 empty
    assert [s for s in NINE if waits_for_big_blind(s, pos, 9)] == [3, 4]
    heads_up = Positions(button=2, small_blind=2, big_blind=7)
    assert not any(waits_for_big_blind(s, heads_up, 9) for s in NINE)


def test_out_of_heads_up_the_button_never_lands_on_the_big_blind() -> None:
    # Heads-up, seat 1 had the button and the small blind, seat 3 the big blind; a newcomer sits
    # on seat 2. The big blind moves on to seat 1 and the small blind to seat 3; the button, which
    # would stay on seat 1, goes right of the small blind instead: the newcomer's seat 2.
    assert next_positions([1, 2, 3], seats=3, last_small_blind=1, last_big_blind=3) == \
        Positions(button=2, small_blind=3, big_blind=1)
