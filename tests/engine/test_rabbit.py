"""The rabbit hunt's pure part: the board that would have come after a fold-out, drawn from the
board's own deal positions (a burn before each street), and who may ask."""

from __future__ import annotations

import pytest

from tables.engine import IllegalAction, SeatIn, TableRules, apply_action, shuffled_deck, start_hand
from tables.engine.rabbit import can_rabbit_hunt, rabbit_cards, rabbit_deals, verify_rabbit_hunt

NL = TableRules(lower_stake=10, auto_showdown=True)  # as the room plays
SEED = bytes(range(32))


def three_handed():
    """Seats 1-3, button 3: seat 1 (small blind) is first in dealing order, seat 3 acts first."""
    return start_hand(NL, [SeatIn(seat=k, player_id=f"p{k}", stack=1000) for k in (1, 2, 3)],
                      button=3, seed=SEED)[0]


def test_the_rabbit_positions_are_the_boards_own_after_a_burn_each_street() -> None:
    """Three players: holes are deal positions 0-5, burn 6, flop 7-9, burn 10, turn 11, burn 12,
    river 13. Folded preflop, the whole board is the rabbit; on the turn, only the river."""
    assert rabbit_deals(3, 0) == [7, 8, 9, 11, 13]
    assert rabbit_deals(3, 3) == [11, 13]
    assert rabbit_deals(3, 4) == [13]
    assert rabbit_deals(2, 0) == [5, 6, 7, 9, 11]
    assert rabbit_deals(3, 5) == []


def test_a_preflop_fold_out_shows_the_five_cards_that_would_have_come() -> None:
    s = three_handed()
    apply_action(s, 3, "fold")
    apply_action(s, 1, "fold")  # the big blind wins without a flop
    assert s.is_over and s.board == []
    deck = shuffled_deck(SEED)
    assert rabbit_cards(s) == [deck[7], deck[8], deck[9], deck[11], deck[13]]
    holes = {c for p in s.players for c in p.hole}
    assert holes.isdisjoint(rabbit_cards(s))  # never a hole card
    assert s.board == [] and s.result is not None  # the hand is untouched
    for seat in ("p1", "p2", "p3"):  # folded or not, dealt in
        verify_rabbit_hunt(s, seat)


def test_a_fold_out_on_the_flop_shows_the_turn_and_the_river() -> None:
    s = three_handed()
    for seat in (3, 1):
        apply_action(s, seat, "call")
    apply_action(s, 2, "check")
    assert len(s.board) == 3
    apply_action(s, 1, "bet", 20)
    apply_action(s, 2, "fold")
    apply_action(s, 3, "fold")
    deck = shuffled_deck(SEED)
    assert s.board == deck[7:10]
    assert rabbit_cards(s) == [deck[11], deck[13]]


@pytest.mark.parametrize(("player", "reason"), [("p9", "not_dealt_in")])
def test_who_may_ask_and_when(player: str, reason: str) -> None:
    s = three_handed()
    with pytest.raises(IllegalAction) as running:
        verify_rabbit_hunt(s, "p1")
    assert running.value.reason == "hand_not_over"
    assert rabbit_cards(s) == []
    apply_action(s, 3, "fold")
    apply_action(s, 1, "fold")
    with pytest.raises(IllegalAction) as refused:
        verify_rabbit_hunt(s, player)
    assert refused.value.reason == reason
    assert can_rabbit_hunt(s, "p1") and not can_rabbit_hunt(s, player)


def test_a_hand_played_to_the_river_has_no_rabbit() -> None:
    s = three_handed()
    for seat in (3, 1):
        apply_action(s, seat, "call")
    apply_action(s, 2, "check")
    while not s.is_over:
        apply_action(s, s.to_act_seat, "check")
    assert len(s.board) == 5
    with pytest.raises(IllegalAction) as refused:
        verify_rabbit_hunt(s, "p1")
    assert refused.value.reason == "board_complete"
    assert rabbit_cards(s) == []

