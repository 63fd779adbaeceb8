"""Rake: percentage floored to the unit, capped (also by players dealt in), no flop no drop."""

from __future__ import annotations

from tables.engine import RakeRule, TableRules
from tables.engine.rake import compute_rake
from tables.engine.scripted import ScriptedHand

FIVE_PERCENT = RakeRule(percent_bp=500, cap=300, cap_by_players={2: 50, 3: 100})


def test_percentage_floored_to_the_unit() -> None:
    assert compute_rake(RakeRule(percent_bp=500), 1999, 6, True) == 99
    assert compute_rake(RakeRule(percent_bp=500), 1999, 6, True, unit=25) == 75


def test_cap_and_cap_by_players_dealt_in() -> None:
    assert compute_rake(FIVE_PERCENT, 100_000, 6, True) == 300
    assert compute_rake(FIVE_PERCENT, 100_000, 2, True) == 50
    assert compute_rake(FIVE_PERCENT, 100_000, 3, True) == 100
    assert compute_rake(FIVE_PERCENT, 1000, 2, True) == 50


def test_no_flop_no_drop() -> None:
    assert compute_rake(FIVE_PERCENT, 100_000, 6, False) == 0
    rules = TableRules(lower_stake=100, rake=FIVE_PERCENT)
    h = ScriptedHand(rules, {1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    h.act(1, "raise", 1000)
    h.act(2, "call")
    h.act(3, "fold")
    assert h.state.street_name == "flop"
    h2 = ScriptedHand(rules, {1: 10_000, 2: 10_000}, button=1)
    h2.act(1, "raise", 300)
    h2.act(2, "fold")
    assert h2.state.result["rake"] == 0
    assert h2.of_type("rake") == []


def test_rake_comes_out_of_the_main_pot_and_is_reported() -> None:
    rules = TableRules(lower_stake=100, rake=FIVE_PERCENT)
    h = ScriptedHand(rules, {1: 10_000, 2: 10_000, 3: 10_000}, button=1,
                     holes={1: "AsAd", 2: "KsKd", 3: "2c3d"}, board="4h7d9cJsQc")
    h.act(1, "raise", 1000)
    h.act(2, "call")
    h.act(3, "call")
    h.act(2, "bet", 1000)
    h.act(3, "fold")
    h.act(1, "fold")  # won on the flop: rake applies (the flop was dealt)
    # pot 3000; the uncalled 1000 went back; 5% = 150, capped at 100 for three players
    assert h.state.result["rake"] == 100
    assert h.state.result["pots"][0]["amount"] == 2900
    assert h.of_type("rake")[0]["amount"] == 100
    total = sum(h.stacks().values()) + h.state.result["rake"]
    assert total == 30_000
