"""A blind all-in for less than its size does not lower the bet.

Rules: "in a $10/$20 Hold'em game, the value of each bet in the first round is $10". At 5/10 a
big blind who can post only 4 still leaves 10 to call and a raise to 20 (limit) or at least 20
(no-limit, pot-limit). Pokerkit lowers the bet to what the blind posted, so it is compared only
where the actions of both agree (a raise that is legal in both, a small blind with nothing to
call), and there the stacks must be identical.
"""

from __future__ import annotations

import warnings

import pytest
from pokerkit import Automation, NoLimitTexasHoldem

from tables.engine import Structure, TableRules, legal_actions, start_hand
from tables.engine.scripted import ScriptedHand

from .test_state import SEED, seats

NL = TableRules(lower_stake=10)
PL = TableRules(structure=Structure.POT_LIMIT, lower_stake=10)
FL = TableRules(structure=Structure.FIXED_LIMIT, lower_stake=10, upper_stake=20)


def test_no_limit_short_big_blind_call_ten_raise_at_least_twenty() -> None:
    # Seat 1 button, seat 2 small blind 5, seat 3 big blind all-in for 4.
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 4}, button=1)
    la = h.legal
    assert la.seat == 1
    assert (la.call_amount, la.min_to, la.max_to) == (10, 20, 100)


def test_fixed_limit_short_big_blind_call_ten_raise_to_twenty() -> None:
    h = ScriptedHand(FL, {1: 100, 2: 100, 3: 4}, button=1)
    la = h.legal
    assert (la.call_amount, la.min_to, la.max_to) == (10, 20, 20)


def test_pot_limit_short_big_blind_call_ten_raise_twenty_to_the_real_pot() -> None:
    # The pot limit counts the chips really in: 5 + 4 on the table, call 10 -> 10 + (9 + 10).
    h = ScriptedHand(PL, {1: 100, 2: 100, 3: 4}, button=1)
    la = h.legal
    assert (la.call_amount, la.min_to, la.max_to) == (10, 20, 29)


@pytest.mark.parametrize("rules", [NL, PL, FL], ids=["NL", "PL", "FL"])
def test_short_small_blind_leaves_the_big_blinds_bet(rules: TableRules) -> None:
    # The small blind has 3 and posts them all-in; the bet is the big blind's 10.
    h = ScriptedHand(rules, {1: 100, 2: 3, 3: 100}, button=1)
    la = h.legal
    assert la.seat == 1 and la.call_amount == 10 and la.min_to == 20


@pytest.mark.parametrize("rules", [NL, PL, FL], ids=["NL", "PL", "FL"])
def test_both_blinds_short_still_cost_a_full_big_blind(rules: TableRules) -> None:
    # Seat 2 posts 3 and seat 3 posts 4, both all-in; seat 4 is first to act.
    state, _ = start_hand(rules, seats(100, 3, 4, 100), button=1, seed=SEED)
    la = legal_actions(state)
    assert la.seat == 4 and la.call_amount == 10 and la.min_to == 20


def test_small_blind_completes_to_ten_and_the_short_big_blind_gets_a_main_pot() -> None:
    # Button calls 10, small blind calls 5 more, big blind is all-in for 4.
    # Main pot 3 x 4 = 12 (big blind's aces win it); side pot 2 x 6 = 12 to the button's kings.
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 4}, button=1,
                     holes={1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3s4c")
    h.act(1, "call")
    assert h.legal.seat == 2 and h.legal.call_amount == 5
    h.act(2, "call")
    assert h.state.street_name == "flop"  # the all-in big blind has no option
    for _ in range(3):
        h.act(2, "check")
        h.act(1, "check")
    while h.legal is not None:
        h.act(h.legal.seat, "show")
    pots = [(p["amount"], p["winners"]) for p in h.state.result["pots"]]
    assert pots == [(12, [3]), (12, [1])]
    assert h.stacks() == {1: 102, 2: 90, 3: 12}


def test_lone_small_blind_need_not_call_up_to_a_bet_nobody_can_match() -> None:
    # Button folds. The small blind's 5 already covers the big blind's 4: nobody can bet against
    # him, so he is not asked to put in 5 more; his unmatched 1 comes back.
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 4}, button=1,
                     holes={1: "7c2d", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3s4c")
    h.act(1, "fold")
    assert h.state.is_over
    returned = h.of_type("returned_uncalled")
    assert [(e["seat"], e["amount"]) for e in returned] == [(2, 1)]
    assert h.stacks() == {1: 100, 2: 96, 3: 8}


def test_heads_up_button_has_nothing_to_call_against_a_short_big_blind() -> None:
    # Heads-up the button posts 5, the big blind is all-in for 4: the board is dealt at once.
    h = ScriptedHand(NL, {1: 100, 2: 4}, button=1,
                     holes={1: "QsQd", 2: "AsAd"}, board="2c7h9d3s4c")
    assert h.state.is_over
    assert h.stacks() == {1: 96, 2: 8}


# --- pokerkit agrees where the actions are the same -----------------------------------------

def _pokerkit(stacks: list[int], holes: list[str], blinds=(5, 10)):
    state = NoLimitTexasHoldem.create_state(
        (
            Automation.ANTE_POSTING, Automation.BET_COLLECTION,
            Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
            Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
            Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
        ),
        True, 0, blinds, 10, stacks, len(stacks),
    )
    for cards in holes:
        state.deal_hole(cards)
    return state


def test_side_pot_of_a_short_big_blind_matches_pokerkit() -> None:
    # Button raises to 30 (legal in both engines), small blind calls, big blind all-in for 4.
    # Main pot 3 x 4 = 12 to the big blind's aces, side pot 2 x 26 = 52 to the button's kings.
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 4}, button=1,
                     holes={1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3s4c")
    h.act(1, "raise", 30)
    h.act(2, "call")
    for _ in range(3):
        h.act(2, "check")
        h.act(1, "check")
    while h.legal is not None:
        h.act(h.legal.seat, "show")
    assert h.stacks() == {1: 122, 2: 70, 3: 12}

    # pokerkit, players in our dealing order: small blind, big blind, button.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = _pokerkit([100, 4, 100], ["QsQd", "AsAd", "KsKd"])
        pk.complete_bet_or_raise_to(30)
        pk.check_or_call()
        for board in ("2c7h9d", "3s", "4c"):
            pk.deal_board(board)
            while pk.actor_index is not None:
                pk.check_or_call()
    assert list(pk.stacks) == [70, 12, 122]


def test_heads_up_short_big_blind_matches_pokerkit() -> None:
    h = ScriptedHand(NL, {1: 100, 2: 4}, button=1,
                     holes={1: "QsQd", 2: "AsAd"}, board="2c7h9d3s4c")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = _pokerkit([4, 100], ["AsAd", "QsQd"])  # heads-up: big blind first, button last
        while pk.actor_index is not None:
            pk.check_or_call()
        for board in ("2c7h9d", "3s", "4c"):
            if pk.can_deal_board():
                pk.deal_board(board)
    assert list(pk.stacks) == [h.stacks()[2], h.stacks()[1]]
