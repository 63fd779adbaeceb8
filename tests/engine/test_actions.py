"""Betting: what is offered (limit, no-limit, pot-limit sizes), re-opening, timeouts, and every
refusal leaving the state unchanged."""

from __future__ import annotations

import pytest

from tables.engine import IllegalAction, Structure, TableRules, TimeoutPolicy
from tables.engine.scripted import ScriptedHand

LIMIT_10_20 = TableRules(structure=Structure.FIXED_LIMIT, lower_stake=10, upper_stake=20)
NL_5_10 = TableRules(structure=Structure.NO_LIMIT, lower_stake=10)
PL_5_10 = TableRules(structure=Structure.POT_LIMIT, lower_stake=10)
BOARD = "2c7d9hJsKc"


def four(rules: TableRules, stack: int = 1000, **kw) -> ScriptedHand:
    """Seats 1-4, button 1: SB 2, BB 3, UTG 4 opens preflop, seat 2 opens after the flop."""
    return ScriptedHand(rules, {1: stack, 2: stack, 3: stack, 4: stack}, button=1,
                        board=BOARD, **kw)


def refused(h: ScriptedHand, seat: int, action: str, amount: int | None = None, **kw) -> str:
    """The refusal reason; asserts the state did not change at all."""
    before = h.state.to_json()
    with pytest.raises(IllegalAction) as e:
        h.act(seat, action, amount, **kw)
    assert h.state.to_json() == before
    return e.value.reason


# -- fixed limit -------------------------------------------------------------------------------

def test_limit_preflop_raise_is_one_lower_stake_bet() -> None:
    h = four(LIMIT_10_20)
    la = h.legal
    assert (la.seat, la.call_amount, la.raise_, la.min_to, la.max_to) == (4, 10, True, 20, 20)
    assert refused(h, 4, "raise", 30) == "above_limit"
    assert refused(h, 4, "raise", 15) == "below_min_raise"


def test_limit_flop_uses_lower_stake_turn_and_river_upper() -> None:
    h = four(LIMIT_10_20)
    for seat in (4, 1, 2):
        h.act(seat, "call")
    h.act(3, "check")
    la = h.legal  # flop
    assert (la.seat, la.bet, la.min_to, la.max_to) == (2, True, 10, 10)
    h.act(2, "bet", 10)
    assert (h.legal.min_to, h.legal.max_to) == (20, 20)
    for seat in (3, 4, 1):
        h.act(seat, "call")
    assert h.state.street_name == "turn"
    assert (h.legal.min_to, h.legal.max_to) == (20, 20)
    h.act(2, "bet", 20)
    assert (h.legal.min_to, h.legal.max_to) == (40, 40)


def test_limit_cap_after_a_bet_and_three_raises_then_call_or_fold_only() -> None:
    h = four(LIMIT_10_20)
    # preflop the big blind is the bet: raise to 20, 30, 40 -> capped
    h.act(4, "raise", 20)
    h.act(1, "raise", 30)
    h.act(2, "raise", 40)
    la = h.legal
    assert la.seat == 3 and la.call and la.fold and not la.raise_
    assert la.actions == ["fold", "call"]
    assert refused(h, 3, "raise", 50) == "betting_capped"


def test_limit_flop_cap_counts_the_bet() -> None:
    h = four(LIMIT_10_20)
    for seat in (4, 1, 2):
        h.act(seat, "call")
    h.act(3, "check")
    h.act(2, "bet", 10)
    h.act(3, "raise", 20)
    h.act(4, "raise", 30)
    h.act(1, "raise", 40)
    assert not h.legal.raise_ and h.legal.seat == 2


# -- no limit / pot limit -----------------------------------------------------------------------

def test_no_limit_min_raise_is_the_largest_increment_at_least_the_big_blind() -> None:
    h = four(NL_5_10)
    assert (h.legal.min_to, h.legal.max_to) == (20, 1000)
    h.act(4, "raise", 35)  # a raise of 25
    assert h.legal.min_to == 60
    assert refused(h, 1, "raise", 59) == "below_min_raise"
    assert refused(h, 1, "raise", 1001) == "above_stack"
    h.act(1, "raise", 1000)  # all-in is always allowed
    assert h.state.player(1).allin


def test_no_limit_postflop_min_bet_is_the_big_blind() -> None:
    h = four(NL_5_10)
    for seat in (4, 1, 2):
        h.act(seat, "call")
    h.act(3, "check")
    assert (h.legal.bet, h.legal.min_to, h.legal.max_to) == (True, 10, 990)
    assert refused(h, 2, "bet", 9) == "below_min_raise"


def test_pot_limit_pot_200_bet_150_call_150_max_raise_to_800() -> None:
    h = four(TableRules(structure=Structure.POT_LIMIT, lower_stake=20))
    h.act(4, "raise", 50)
    h.act(1, "call")
    h.act(2, "call")
    h.act(3, "call")
    assert h.state.pot_total == 200
    la = h.legal
    assert (la.seat, la.min_to, la.max_to) == (2, 20, 200)  # a pot-sized bet is 200
    h.act(2, "bet", 150)
    h.act(3, "call")
    la = h.legal
    assert (la.seat, la.call_amount, la.max_to) == (4, 150, 800)
    assert refused(h, 4, "raise", 801) == "above_pot_limit"
    h.act(4, "raise", 800)


def test_pot_limit_preflop_max_raise() -> None:
    # blinds 5 + 10, UTG calls 10 and raises the pot (5 + 10 + 10 = 25): to 35
    h = four(PL_5_10)
    assert h.legal.max_to == 35


# -- re-opening ---------------------------------------------------------------------------------

def short_flop(rules: TableRules) -> ScriptedHand:
    """Seats 1-3, button 3; seat 2 has 3 chips behind after posting the 2 big blind."""
    h = ScriptedHand(rules, {1: 100, 2: 5, 3: 100}, button=3, board=BOARD)
    h.act(3, "call")
    h.act(1, "call")
    h.act(2, "check")
    return h


def test_limit_short_all_in_does_not_reopen_but_next_player_raises_a_full_bet_above_it() -> None:
    h = short_flop(TableRules(structure=Structure.FIXED_LIMIT, lower_stake=2, upper_stake=4))
    h.act(1, "bet", 2)
    assert (h.legal.seat, h.legal.min_to, h.legal.max_to) == (2, 3, 3)  # all-in for less
    h.act(2, "raise", 3)
    la = h.legal
    assert (la.seat, la.call_amount, la.min_to, la.max_to) == (3, 3, 5, 5)
    h.act(3, "call")
    la = h.legal  # seat 1 bet 2 and already acted: call 1 or fold, no raise
    assert la.seat == 1 and la.call_amount == 1 and not la.raise_
    assert refused(h, 1, "raise", 5) == "raise_not_reopened"


def test_limit_full_raise_after_short_all_in_reopens() -> None:
    h = short_flop(TableRules(structure=Structure.FIXED_LIMIT, lower_stake=2, upper_stake=4))
    h.act(1, "bet", 2)
    h.act(2, "raise", 3)
    h.act(3, "raise", 5)
    la = h.legal
    assert la.seat == 1 and la.raise_ and la.min_to == 7


def test_no_limit_short_all_in_does_not_reopen() -> None:
    h = ScriptedHand(NL_5_10, {1: 500, 2: 40, 3: 500}, button=3, board=BOARD)
    h.act(3, "call")
    h.act(1, "call")
    h.act(2, "check")
    h.act(1, "bet", 20)
    h.act(2, "raise", 30)  # all-in, 10 more: not a full raise
    la = h.legal
    assert (la.seat, la.min_to) == (3, 50)  # seat 3 has not acted: full raise above 30
    h.act(3, "call")
    la = h.legal
    assert la.seat == 1 and not la.raise_ and la.call_amount == 10


def test_nobody_raises_against_only_all_in_players() -> None:
    h = ScriptedHand(NL_5_10, {1: 100, 2: 500}, button=1, board=BOARD)
    h.act(1, "raise", 100)  # all-in
    la = h.legal
    assert la.seat == 2 and la.call_amount == 90 and not la.raise_
    assert refused(h, 2, "raise", 200) == "no_opponent_to_raise"


# -- refusals -----------------------------------------------------------------------------------

def test_every_refusal_reason_leaves_the_state_unchanged() -> None:
    h = four(NL_5_10, stack=100)
    assert refused(h, 1, "call") == "not_your_turn"
    assert refused(h, 7, "call") == "not_in_hand"
    assert refused(h, 4, "dance") == "unknown_action"
    assert refused(h, 4, "check") == "cannot_check"
    assert refused(h, 4, "bet", 20) == "cannot_bet"
    assert refused(h, 4, "raise") == "bad_amount"
    assert refused(h, 4, "raise", "20") == "bad_amount"  # type: ignore[arg-type]
    assert refused(h, 4, "call", 5) == "bad_amount"
    assert refused(h, 4, "raise", 15) == "below_min_raise"
    assert refused(h, 4, "raise", 101) == "above_stack"
    assert refused(h, 4, "show") == "not_at_showdown"
    h.act(4, "call")
    h.act(1, "call")
    h.act(2, "call")
    assert refused(h, 3, "call") == "nothing_to_call"
    h.act(3, "check")
    assert refused(h, 2, "raise", 20) == "cannot_raise"
    for seat in (2, 3, 4):
        h.act(seat, "fold") if seat != 2 else h.act(seat, "check")
    h.act(1, "bet", 10)
    h.act(2, "fold")
    assert h.state.is_over
    assert refused(h, 1, "check") == "hand_over"


def test_bet_unit_refuses_odd_amounts_but_allows_all_in() -> None:
    rules = TableRules(lower_stake=100, bet_unit=25)
    h = ScriptedHand(rules, {1: 1000, 2: 1013}, button=1, board=BOARD)
    assert refused(h, 1, "raise", 210) == "not_whole_unit"
    h.act(1, "raise", 225)
    h.act(2, "raise", 1013)  # all-in for an odd amount is fine
    assert h.state.player(2).allin


def test_pot_limit_and_showdown_refusals() -> None:
    h = four(PL_5_10)
    assert refused(h, 4, "raise", 36) == "above_pot_limit"
    h2 = ScriptedHand(NL_5_10, {1: 100, 2: 100}, button=1, board=BOARD)
    h2.act(1, "call")
    h2.act(2, "check")
    for _ in range(3):
        h2.act(2, "check")
        h2.act(1, "check")
    assert h2.state.street_name == "showdown"
    assert refused(h2, h2.legal.seat, "check") == "at_showdown"


def test_manual_deal_refuses_actions_while_cards_are_due() -> None:
    h = ScriptedHand(NL_5_10, {1: 100, 2: 100}, button=1)  # no board given
    h.act(1, "call")
    h.act(2, "check")
    assert h.state.pending_deal == {"kind": "board", "street": "flop", "count": 3}
    assert refused(h, 2, "check") == "waiting_for_deal"


# -- timeouts ----------------------------------------------------------------------------------

def test_seeds_timeout_without_money_in_folds() -> None:
    h = four(NL_5_10)
    ev = h.act(4, "timeout")
    assert ev[0]["action"] == "fold" and ev[0]["timeout"]


def test_seeds_timeout_with_money_in_is_all_in_for_what_he_put_in() -> None:
    # Seat 3 (big blind, best hand) times out facing a raise: he stays in for his 10 only.
    h = ScriptedHand(NL_5_10, {1: 500, 2: 500, 3: 500}, button=1,
                     holes={1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7d9h3s4c")
    h.act(1, "raise", 30)
    h.act(2, "call")
    ev = h.act(3, "timeout")
    assert ev[0]["action"] == "timeout_allin"
    assert h.state.player(3).stack == 490
    h.act(2, "bet", 100)  # post-flop betting goes on without him
    h.act(1, "call")
    for _ in range(2):
        h.act(2, "check")
        h.act(1, "check")
    while h.legal is not None:
        h.act(h.legal.seat, "show")
    result = h.state.result
    main, side = result["pots"]
    assert main == {**main, "amount": 30, "winners": [3]}  # 10 from each
    assert side["amount"] == 40 + 200 and side["winners"] == [1] and 3 not in side["eligible"]
    assert h.stacks() == {1: 500 - 130 + 240, 2: 370, 3: 490 + 30}


def test_timeout_all_in_cap_reached_folds_instead() -> None:
    h = four(NL_5_10)
    h.act(4, "raise", 30)
    h.act(1, "fold")
    ev = h.act(2, "timeout", allow_timeout_allin=False)
    assert ev[0]["action"] == "fold"


def test_modern_timeout_checks_when_free_else_folds() -> None:
    rules = TableRules(lower_stake=10, timeout_policy=TimeoutPolicy.MODERN)
    h = four(rules)
    for seat in (4, 1, 2):
        h.act(seat, "call")
    assert h.act(3, "timeout")[0]["action"] == "check"
    h.act(2, "bet", 10)
    assert h.act(3, "timeout")[0]["action"] == "fold"


def test_can_act_and_verify_action_answer_without_changing_anything() -> None:
    from tables.engine import can_act, verify_action

    h = four(NL_5_10)
    before = h.state.to_json()
    assert can_act(h.state, 4, "raise", 20) and not can_act(h.state, 4, "check")
    with pytest.raises(IllegalAction):
        verify_action(h.state, 1, "call")
    assert h.state.to_json() == before


def test_every_action_event_carries_the_actors_stack_even_the_fold_that_ends_the_hand() -> None:
    h = four(NL_5_10)
    for seat in (4, 1, 2):  # UTG, button and small blind fold: the big blind wins
        h.act(seat, "fold")

    actions = h.of_type("action")
    assert [(e["seat"], e["stack"]) for e in actions] == [(4, 1000), (1, 1000), (2, 995)]
    assert h.state.is_over
