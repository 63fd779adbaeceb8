"""Showdown: order, show or muck, best five of seven, descriptions, splits and odd chips."""

from __future__ import annotations

import pytest

from tables.engine import TableRules
from tables.engine.scripted import ScriptedHand, split_cards
from tables.engine.showdown import describe, split_pot

NL = TableRules(lower_stake=10)


def to_river(h: ScriptedHand, first: int, second: int) -> None:
    for _ in range(3):
        h.act(first, "check")
        h.act(second, "check")


def heads_up(holes: dict[int, str], board: str) -> ScriptedHand:
    h = ScriptedHand(NL, {1: 100, 2: 100}, button=1, holes=holes, board=board)
    h.act(1, "call")
    h.act(2, "check")
    return h


def test_without_river_aggression_first_active_left_of_button_shows_first() -> None:
    h = heads_up({1: "AsAd", 2: "KsKd"}, "2c7d9h3s4c")
    to_river(h, 2, 1)
    la = h.legal
    assert la.seat == 2 and la.show and la.muck and not la.fold


def test_last_river_aggressor_shows_first() -> None:
    h = heads_up({1: "AsAd", 2: "KsKd"}, "2c7d9h3s4c")
    for _ in range(2):
        h.act(2, "check")
        h.act(1, "check")
    h.act(2, "check")
    h.act(1, "bet", 10)
    h.act(2, "call")
    assert h.legal.seat == 1


def test_mucking_forfeits_and_the_last_player_wins_without_showing() -> None:
    h = heads_up({1: "AsAd", 2: "KsKd"}, "2c7d9h3s4c")
    to_river(h, 2, 1)
    h.act(2, "muck")
    assert h.state.is_over
    assert h.state.result["pots"][0]["winners"] == [1]
    assert not h.state.player(1).shown  # never had to show
    assert h.stacks() == {1: 110, 2: 90}


def test_a_shown_loser_lets_the_winner_show_or_muck() -> None:
    h = heads_up({1: "AsAd", 2: "KsKd"}, "2c7d9h3s4c")
    to_river(h, 2, 1)
    h.act(2, "show")
    h.act(1, "show")
    pot = h.state.result["pots"][0]
    assert pot["winners"] == [1] and pot["hands"] == [[1, "a pair of Aces"]]


def test_timeout_at_showdown_mucks_a_beaten_hand_and_shows_a_winner() -> None:
    h = heads_up({1: "AsAd", 2: "KsKd"}, "2c7d9h3s4c")
    to_river(h, 2, 1)
    h.act(2, "show")
    assert h.act(1, "timeout")[0]["type"] == "shown"
    h2 = heads_up({1: "7s2d", 2: "KsKd"}, "2c8d9h3sJc")
    to_river(h2, 2, 1)
    h2.act(2, "show")
    assert h2.act(1, "timeout")[0]["type"] == "mucked"
    assert h2.state.result["pots"][0]["winners"] == [2]


def test_board_plays_and_ties_split() -> None:
    h = heads_up({1: "2c3d", 2: "4c5d"}, "AsKsQsJsTs")
    to_river(h, 2, 1)
    h.act(2, "show")
    h.act(1, "show")
    assert h.state.result["pots"][0]["winners"] == [2, 1]  # listed clockwise from the button
    assert h.stacks() == {1: 100, 2: 100}


def test_odd_chip_goes_to_the_first_winner_clockwise_from_the_button() -> None:
    # Button 3. Seat 1 (SB) folds 5 dead chips, seats 2 and 3 tie a 25 pot: seat 2 gets 13.
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 100}, button=3,
                     holes={2: "2c3d", 3: "4c5d"}, board="AsKsQsJsTs")
    h.act(3, "call")
    h.act(1, "fold")
    h.act(2, "check")
    to_river(h, 2, 3)
    h.act(2, "show")
    h.act(3, "show")
    shares = dict(map(tuple, h.state.result["pots"][0]["shares"]))
    assert shares == {2: 13, 3: 12}


def test_split_pot_odd_units_one_unit_at_a_time() -> None:
    assert split_pot(25, [2, 3]) == [13, 12]
    assert split_pot(1100, [4, 5, 6], unit=100) == [400, 400, 300]
    assert split_pot(7, [1, 2, 3]) == [3, 2, 2]


@pytest.mark.parametrize(("cards", "text"), [
    ("AsAdAhQcQd2s3s", "a full house, Aces full of Queens"),
    ("KsKd7h7c2d3s9s", "two pair, Kings and Sevens"),
    ("As9s7s4s2s3dKd", "a flush, Ace high"),
    ("AsKsQsJsTs2c3d", "a royal flush"),
    ("9s8s7s6s5s2c3d", "a straight flush, Nine high"),
    ("As2d3h4c5s9dTd", "a straight, Five high"),
    ("6s6d6h6cKs2d3d", "four of a kind, Sixes"),
    ("JsJdJh2c5s9dKd", "three of a kind, Jacks"),
    ("TsTd2h4c5s9dKd", "a pair of Tens"),
    ("As3d7h9cJs2dQd", "high card Ace"),
])
def test_descriptions(cards: str, text: str) -> None:
    assert describe(split_cards(cards)) == text


def test_a_live_rooms_showdown_asks_nobody_shows_the_winner_and_mucks_the_loser() -> None:
    """Two players check it down: the first in order (no river aggressor: left of the button)
    shows, the other's hand cannot win and is mucked, and the hand is over at once."""
    from tables.engine import TableRules
    from tables.engine.scripted import ScriptedHand

    h = ScriptedHand(TableRules(lower_stake=10, auto_showdown=True), {1: 100, 2: 100, 3: 100},
                     button=1, holes={1: "AsAd", 2: "KsKd", 3: "QsQd"}, board="2c7d9h3s4c")
    h.act(1, "call")
    h.act(2, "call")
    h.act(3, "check")
    for _ in range(3):
        for seat in (2, 3, 1):
            h.act(seat, "check")
    state = h.state
    assert state.is_over
    shown = {p.seat for p in state.players if p.shown}
    mucked = {p.seat for p in state.players if p.mucked}
    assert shown == {2, 1} and mucked == {3}  # KK shows first, QQ cannot beat it, AA wins
    assert state.result["pots"][0]["winners"] == [1]


def test_a_player_who_always_shows_shows_the_hand_that_loses() -> None:
    """The same hand, but the QQ player chose "always show": his losing hand is shown, not
    mucked, and still wins nothing."""
    from tables.engine import TableRules
    from tables.engine.scripted import ScriptedHand

    h = ScriptedHand(TableRules(lower_stake=10, auto_showdown=True), {1: 100, 2: 100, 3: 100},
                     button=1, holes={1: "AsAd", 2: "KsKd", 3: "QsQd"}, board="2c7d9h3s4c",
                     always_show=[3])
    h.act(1, "call")
    h.act(2, "call")
    h.act(3, "check")
    for _ in range(3):
        for seat in (2, 3, 1):
            h.act(seat, "check")
    state = h.state
    assert {p.seat for p in state.players if p.shown} == {1, 2, 3}
    assert not any(p.mucked for p in state.players)
    assert state.result["pots"][0]["winners"] == [1]
