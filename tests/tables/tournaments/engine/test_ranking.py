"""Places from busts: simultaneous busts rank by starting stack; equal stacks tie and split."""

from __future__ import annotations

import pytest

from tables.tournaments.engine.payouts import prizes
from tables.tournaments.engine.ranking import Bust, Finish, awards, places


def test_one_bust_a_hand_counts_down_from_the_field() -> None:
    finishes = places([[Bust("e", 100)], [Bust("d", 900)], [Bust("c", 50)]], field=5)
    assert [(f.entry_id, f.best) for f in finishes] == [("c", 3), ("d", 4), ("e", 5)]


def test_two_busts_on_one_hand_the_bigger_starting_stack_finishes_higher() -> None:
    # 4 left; a (3,000 at the start of the hand) and b (1,200) both bust: a 3rd, b 4th.
    finishes = places([[Bust("b", 1200), Bust("a", 3000)]], field=4)
    assert finishes == [Finish("a", 3, 3), Finish("b", 4, 4)]


def test_equal_starting_stacks_tie_and_cover_both_places() -> None:
    finishes = places([[Bust("b", 2000), Bust("a", 2000)]], field=4)
    assert finishes == [Finish("a", 3, 4), Finish("b", 3, 4)]
    assert finishes[0].tied


def test_busts_at_two_tables_during_hand_for_hand_count_as_one_hand() -> None:
    # 10 left, 9 paid. On the same synchronised hand x (table 1, 800) and y (table 2, 5,000)
    # bust: y is 9th and in the money, x 10th, the bubble.
    finishes = places([[Bust("x", 800), Bust("y", 5000)]], field=10)
    prize = prizes(10_000, (3000, 2000, 1500, 1000, 800, 600, 500, 350, 250))
    paid = awards(finishes, prize)
    assert paid == {"y": 250, "x": 0}


def test_a_tie_on_the_bubble_splits_the_last_prize() -> None:
    finishes = places([[Bust("x", 800), Bust("y", 800)]], field=4)
    assert awards(finishes, [600, 300, 101]) == {"x": 51, "y": 50}  # odd unit by entry id


def test_tied_in_the_money_they_split_the_sum_of_their_places() -> None:
    # Three left; two bust with equal stacks: they share 2nd and 3rd, the survivor wins.
    finishes = places([[Bust("p", 500), Bust("q", 500)]], field=3, winner="w")
    assert finishes[0] == Finish("w", 1, 1)
    assert awards(finishes, [5000, 3000, 2000]) == {"w": 5000, "p": 2500, "q": 2500}


def test_winner_only_when_one_entry_is_left() -> None:
    with pytest.raises(ValueError):
        places([[Bust("a", 1)]], field=3, winner="w")
    with pytest.raises(ValueError):
        places([[Bust("a", 1), Bust("b", 2)]], field=2, winner="w")


def test_an_entry_busts_only_once() -> None:
    with pytest.raises(ValueError):
        places([[Bust("a", 1)], [Bust("a", 1)]], field=5)


def test_every_prize_is_paid_once_whatever_the_ties() -> None:
    busts = [[Bust("f", 10)], [Bust("e", 30), Bust("d", 30), Bust("c", 20)], [Bust("b", 90)]]
    finishes = places(busts, field=6, winner="a")
    prize = prizes(1000, (5000, 3000, 2000))
    assert [f.entry_id for f in finishes] == ["a", "b", "d", "e", "c", "f"]
    assert finishes[2] == Finish("d", 3, 4) and finishes[4] == Finish("c", 5, 5)
    assert sum(awards(finishes, prize).values()) == 1000
    assert awards(finishes, prize) == {"a": 500, "b": 300, "d": 100, "e": 100, "c": 0, "f": 0}
