"""Hand-for-hand on the bubble: every table finishes the current hand before any deals again."""

from __future__ import annotations

from tables.tournaments.engine.hand_for_hand import TableHands, hand_for_hand_on, may_deal


def test_it_starts_when_the_next_bust_is_the_bubble_and_stops_in_the_money() -> None:
    assert not hand_for_hand_on(players_left=12, paid_places=10, tables=2)
    assert hand_for_hand_on(players_left=11, paid_places=10, tables=2)
    assert not hand_for_hand_on(players_left=10, paid_places=10, tables=2)
    assert not hand_for_hand_on(players_left=11, paid_places=10, tables=1)  # one table: no need


def test_at_the_start_every_table_may_deal_the_first_synchronised_hand() -> None:
    tables = {"A": TableHands(0, False, 6), "B": TableHands(0, False, 5)}
    assert may_deal("A", tables) and may_deal("B", tables)


def test_both_deal_together_even_while_the_other_is_playing() -> None:
    tables = {"A": TableHands(1, True, 6), "B": TableHands(0, False, 5)}
    assert may_deal("B", tables)  # B deals hand 1 while A plays it


def test_a_table_that_finished_waits_for_the_others() -> None:
    tables = {"A": TableHands(1, False, 6), "B": TableHands(1, True, 5)}
    assert not may_deal("A", tables)
    tables["B"] = TableHands(1, False, 5)
    assert may_deal("A", tables) and may_deal("B", tables)


def test_a_table_that_has_not_dealt_this_hand_holds_back_the_finished_ones() -> None:
    tables = {"A": TableHands(1, False, 6), "B": TableHands(0, False, 5)}
    assert not may_deal("A", tables) and may_deal("B", tables)


def test_a_table_in_a_hand_may_not_deal_and_a_table_of_one_is_not_waited_for() -> None:
    tables = {"A": TableHands(2, True, 6), "B": TableHands(2, False, 5), "C": TableHands(0, False, 1)}
    assert not may_deal("A", tables)
    assert not may_deal("B", tables)  # A is still playing hand 2
    assert not may_deal("C", tables)  # one player cannot deal; nobody waits for him
    tables["A"] = TableHands(2, False, 6)
    assert may_deal("A", tables) and may_deal("B", tables)
