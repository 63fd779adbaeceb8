"""Positions from the dealing order, and money as people (and trackers) read it."""
from __future__ import annotations

import pytest

from tables.engine import SeatIn, TableRules, start_hand
from tables.histories.labels import positions, signed_money


def table_of(seats: list[int], button: int) -> dict[int, str]:
    state, _ = start_hand(TableRules(lower_stake=2),
                          [SeatIn(s, f"p{s}", 100) for s in seats], button, seed=bytes(32))
    return positions(state)


@pytest.mark.parametrize(("seats", "button", "expected"), [
    ([1, 2], 1, {1: "BTN/SB", 2: "BB"}),
    ([1, 2, 3], 3, {1: "SB", 2: "BB", 3: "BTN"}),
    ([1, 2, 3, 4, 5, 6], 6, {1: "SB", 2: "BB", 3: "UTG", 4: "HJ", 5: "CO", 6: "BTN"}),
    (list(range(1, 10)), 9, {1: "SB", 2: "BB", 3: "UTG", 4: "UTG+1", 5: "UTG+2", 6: "LJ",
                             7: "HJ", 8: "CO", 9: "BTN"}),
    ([2, 3, 5, 6], 4, {5: "SB", 6: "BB", 2: "UTG", 3: "CO"}),  # the button seat is empty
])
def test_positions_count_back_from_the_button(seats, button, expected) -> None:
    assert table_of(seats, button) == expected


def test_winnings_with_their_sign() -> None:
    assert signed_money(-150, "REAL") == "-$1.50" and signed_money(3, "PLAY") == "+3"
    assert signed_money(500, "REAL") == "+$5" and signed_money(0, "PLAY") == "0"
