"""Worked examples: one hand's public actions → each player's VPIP, PFR, 3-bet and aggression
counters (tables/engine/hand_stats.py). Seats 1-4, button 1: seat 2 posts the small blind 5,
seat 3 the big blind 10, seat 4 acts first preflop, seat 2 first after the flop."""
from __future__ import annotations

from tables.engine import Structure, TableRules
from tables.engine.hand_stats import Counters, hand_counters
from tables.engine.scripted import ScriptedHand

NL_5_10 = TableRules(structure=Structure.NO_LIMIT, lower_stake=10)
BOARD = "2c7d9hJsKc"


def four(stack: int = 1000, stacks: dict[int, int] | None = None) -> ScriptedHand:
    return ScriptedHand(NL_5_10, stacks or {1: stack, 2: stack, 3: stack, 4: stack}, button=1,
                        board=BOARD)


def public(h: ScriptedHand) -> list[dict]:
    """What every player saw: no hole cards (the counters never need them)."""
    return [e for e in h.events if e["type"] != "hole_cards"]


def test_a_walk_counts_a_hand_and_nothing_else_blinds_are_not_vpip() -> None:
    h = four()
    h.act(4, "fold"); h.act(1, "fold"); h.act(2, "fold")  # noqa: E702
    counts = hand_counters(public(h))
    assert counts == {seat: Counters(hands=1) for seat in (1, 2, 3, 4)}


def test_limps_are_vpip_not_pfr_and_the_big_blind_checking_his_option_is_neither() -> None:
    h = four()
    h.act(4, "call"); h.act(1, "fold"); h.act(2, "call"); h.act(3, "check")  # noqa: E702
    counts = hand_counters(public(h))
    assert counts[4] == Counters(hands=1, vpip=1)
    assert counts[2] == Counters(hands=1, vpip=1)  # the small blind completing is a choice
    assert counts[3] == Counters(hands=1)
    assert counts[1] == Counters(hands=1)


def test_an_open_raise_is_pfr_and_a_reraise_is_a_3bet_everyone_after_had_a_chance() -> None:
    h = four()
    h.act(4, "raise", 30)  # the open (the big blind was the bet)
    h.act(1, "raise", 90)  # the 3-bet
    h.act(2, "fold")  # faced two raises: no 3-bet chance
    h.act(3, "fold")
    h.act(4, "call")
    counts = hand_counters(public(h))
    assert counts[4] == Counters(hands=1, vpip=1, pfr=1)  # the opener had no 3-bet chance
    assert counts[1] == Counters(hands=1, vpip=1, pfr=1, three_bet_chances=1, three_bets=1)
    assert counts[2] == Counters(hands=1)
    assert counts[3] == Counters(hands=1)


def test_folding_or_calling_facing_one_raise_is_a_3bet_chance_not_taken() -> None:
    h = four()
    h.act(4, "raise", 30); h.act(1, "call"); h.act(2, "fold"); h.act(3, "fold")  # noqa: E702
    counts = hand_counters(public(h))
    assert counts[1] == Counters(hands=1, vpip=1, three_bet_chances=1)
    assert counts[2] == Counters(hands=1, three_bet_chances=1)
    assert counts[3] == Counters(hands=1, three_bet_chances=1)


def test_a_check_raise_and_a_bet_are_aggressive_calls_count_against_them() -> None:
    h = four()
    h.act(4, "call"); h.act(1, "fold"); h.act(2, "fold"); h.act(3, "check")  # noqa: E702
    h.act(3, "check"); h.act(4, "bet", 20); h.act(3, "raise", 60); h.act(4, "call")  # noqa: E702
    h.act(3, "bet", 50); h.act(4, "call")  # the turn  # noqa: E702
    h.act(3, "check"); h.act(4, "check")  # the river  # noqa: E702
    counts = hand_counters(public(h))
    assert counts[3] == Counters(hands=1, postflop_aggressive=2)  # check-raise, then a bet
    assert counts[4] == Counters(hands=1, vpip=1, postflop_aggressive=1, postflop_calls=2)


def test_all_ins_count_as_the_raise_or_call_they_are() -> None:
    h = four(stacks={1: 1000, 2: 1000, 3: 1000, 4: 200})
    h.act(4, "raise", 200)  # all-in open
    h.act(1, "call")  # an all-in call is a call
    h.act(2, "fold"); h.act(3, "fold")  # noqa: E702
    counts = hand_counters(public(h))
    assert counts[4] == Counters(hands=1, vpip=1, pfr=1)
    assert counts[1] == Counters(hands=1, vpip=1, three_bet_chances=1)
    assert h.state.is_over  # run out to showdown: no postflop action to count


def test_a_timeout_fold_counts_as_a_fold() -> None:
    h = four()
    h.act(4, "timeout")
    h.act(1, "fold"); h.act(2, "fold")  # noqa: E702
    assert hand_counters(public(h))[4] == Counters(hands=1)


def test_the_counters_are_the_sum_of_a_players_hands_names() -> None:
    assert Counters(hands=1, vpip=1).as_dict() == {
        "hands": 1, "vpip": 1, "pfr": 0, "three_bet_chances": 0, "three_bets": 0,
        "postflop_aggressive": 0, "postflop_calls": 0}
