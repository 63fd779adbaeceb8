"""Run it twice, worked examples (tables/engine/runs.py): everyone still in is all in before
the river; the table offers it, every player asked must say "twice"; the rest of the board is
dealt twice from the same deck and each pot is split between the runs, odd chip to run one."""

from __future__ import annotations

import pytest

from tables.engine import (
    HandState,
    IllegalAction,
    SeatIn,
    TableRules,
    apply_action,
    choose_runs,
    start_hand,
)
from tables.engine.scripted import split_cards

NL = TableRules(lower_stake=10)
FRESH = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def deck_of(holes: list[str], board: str) -> list[str]:
    """A deck in dealing order: ``holes`` per player in dealing order (first cards to all, then
    second cards), then ``board`` = the deal positions after the hole cards, burns included
    (``x`` for a card that does not matter); the rest filled from unused cards."""
    n = len(holes)
    cards = [split_cards(h) for h in holes]
    deck: list[str | None] = [cards[i][0] for i in range(n)] + [cards[i][1] for i in range(n)]
    deck += [None if c == "xx" else c for c in split_cards(board)]
    unused = iter(c for c in FRESH if c not in deck)
    deck = [c if c is not None else next(unused) for c in deck]
    return deck + list(unused)


def three_handed(board: str, **kw) -> tuple[HandState, list[dict]]:
    """Button 1, small blind 2, big blind 3: players in dealing order [2, 3, 1]. Seat 1 (aces)
    moves all in for 100, the small blind folds (5 dead), seat 3 (kings) calls: pot 205."""
    seats = [SeatIn(k, f"p{k}", 100) for k in (1, 2, 3)]
    state, ev = start_hand(NL, seats, button=1, deck=deck_of(["7c2d", "KsKd", "AsAd"], board),
                           commitment="c" * 64, **kw)
    ev += apply_action(state, 1, "raise", 100)
    ev += apply_action(state, 2, "fold")
    ev += apply_action(state, 3, "call")
    return state, ev


#          burn flop     burn turn burn river | run 2: burn flop     burn turn burn river
BOARDS = "xx   2h7h9c   xx   3s   xx   4c      xx   Kh8c5d   xx   Jc   xx   Qh".replace(" ", "")


def test_both_all_in_preflop_are_asked_and_nothing_is_dealt_until_they_answer() -> None:
    state, ev = three_handed(BOARDS, run_it_twice=True)
    offer = [e for e in ev if e["type"] == "run_twice_offer"]
    assert offer == [{"type": "run_twice_offer", "seats": [3, 1], "version": state.version}]
    assert state.board == [] and not state.is_over and state.to_act == -1
    assert all(state.player(seat).shown for seat in (1, 3))  # the hands are face up first
    assert HandState.from_json(state.to_json()).votes == {3: None, 1: None}


def test_twice_deals_two_boards_and_splits_the_pot_odd_chip_to_the_first_run() -> None:
    state, _ = three_handed(BOARDS, run_it_twice=True)
    assert choose_runs(state, 3, True)[-1]["type"] == "run_twice_vote"  # waits for seat 1
    ev = choose_runs(state, 1, True)
    assert state.board == split_cards("2h7h9c3s4c")  # run one: the aces hold
    assert state.board2 == split_cards("Kh8c5dJcQh")  # run two: a set of kings
    assert [e["street"] for e in ev if e["type"] == "second_board"] == ["flop", "turn", "river"]
    [pot] = state.result["pots"]
    assert pot["amount"] == 205 and [r["amount"] for r in pot["runs"]] == [103, 102]
    assert [r["winners"] for r in pot["runs"]] == [[1], [3]]
    assert pot["shares"] == [[3, 102], [1, 103]]
    assert state.player(1).stack == 103 and state.player(3).stack == 102
    assert state.result["board2"] == state.board2


def test_one_player_saying_once_deals_the_board_once() -> None:
    state, _ = three_handed(BOARDS, run_it_twice=True)
    choose_runs(state, 3, True)
    ev = choose_runs(state, 1, False)
    assert {"type": "run_twice_decided", "runs": 1, "version": state.version} in ev
    assert state.is_over and state.board2 is None and "second_board" not in [e["type"] for e in ev]
    assert state.player(1).stack == 205 and "runs" not in state.result["pots"][0]


def test_the_second_run_shares_the_cards_out_when_all_in_on_the_flop() -> None:
    seats = [SeatIn(1, "p1", 100), SeatIn(2, "p2", 100)]  # heads-up: [2 (big blind), 1 (button)]
    board = "xx 2h7h9c xx 3s xx 4c xx Kh xx Qh".replace(" ", "")
    state, _ = start_hand(NL, seats, button=1, deck=deck_of(["KsKd", "AsAd"], board),
                          commitment="c" * 64, run_it_twice=True)
    apply_action(state, 1, "call")
    apply_action(state, 2, "check")
    apply_action(state, 2, "bet", 90)
    apply_action(state, 1, "call")
    assert state.votes == {2: None, 1: None} and state.board == split_cards("2h7h9c")
    choose_runs(state, 1, True)
    choose_runs(state, 2, True)
    assert state.board2 == split_cards("2h7h9cKhQh")  # the flop, then the turn and river anew
    assert state.deck_pos == 2 * 2 + 12  # run two's river is deal position 2n + 11
    assert state.player(1).stack == 100 and state.player(2).stack == 100


def test_refusals_and_a_table_that_does_not_offer_it() -> None:
    state, _ = three_handed(BOARDS, run_it_twice=True)
    with pytest.raises(IllegalAction) as refused:
        choose_runs(state, 2, True)  # folded: not asked
    assert refused.value.reason == "not_asked"
    choose_runs(state, 3, True)
    with pytest.raises(IllegalAction) as refused:
        choose_runs(state, 3, False)
    assert refused.value.reason == "already_answered"
    plain, ev = three_handed(BOARDS)
    assert plain.is_over and "run_twice_offer" not in [e["type"] for e in ev]
    with pytest.raises(IllegalAction) as refused:
        choose_runs(plain, 1, True)
    assert refused.value.reason == "no_run_offer"
