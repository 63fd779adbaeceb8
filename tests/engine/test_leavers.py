"""Players who left during the hand (tables/services/leaving.py) are acted for whenever the
action is theirs: `leavers_fold` folds them while betting and, at showdown, shows a hand that
wins something and mucks one that does not."""
from __future__ import annotations

from tables.engine import Structure, TableRules, leavers_fold
from tables.engine.scripted import ScriptedHand

NL_5_10 = TableRules(structure=Structure.NO_LIMIT, lower_stake=10)


def four(**kw) -> ScriptedHand:
    """Seats 1-4, button 1: SB 2, BB 3, UTG 4 opens preflop, seat 2 opens after the flop."""
    return ScriptedHand(NL_5_10, {1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=1, **kw)


def test_leavers_in_turn_fold_until_someone_who_stayed_is_to_act() -> None:
    h = four(board="2c7d9hJsKc")
    assert leavers_fold(h.state, [2]) == []  # UTG is to act, and he stayed
    events = leavers_fold(h.state, [4, 1])
    assert [(e["seat"], e["action"]) for e in events] == [(4, "fold"), (1, "fold")]
    assert h.state.to_act_seat == 2


def test_a_leavers_fold_that_leaves_one_player_ends_the_hand() -> None:
    h = four(board="2c7d9hJsKc")
    h.act(4, "fold")
    h.act(1, "fold")
    h.act(2, "fold")
    assert leavers_fold(h.state, [3]) == [] and h.state.is_over  # he won: nothing to do
    h = four(board="2c7d9hJsKc")
    h.act(4, "fold")
    h.act(1, "fold")
    events = leavers_fold(h.state, [2])
    assert events[0]["action"] == "fold" and h.state.is_over


def test_at_showdown_a_leaver_shows_a_winner_and_mucks_a_loser() -> None:
    h = four(holes={2: "AsAd", 3: "3c4d"}, board="2c7d9hJsKc")
    h.act(4, "fold")
    h.act(1, "fold")
    h.act(2, "call")
    h.act(3, "check")
    for _street in range(3):  # flop, turn, river: checked down
        h.act(2, "check")
        h.act(3, "check")
    shown = leavers_fold(h.state, [2, 3])
    kinds = {e["seat"]: e["type"] for e in shown if e["type"] in ("shown", "mucked")}
    assert kinds.get(2) == "shown" and kinds.get(3, "mucked") == "mucked"
    assert h.state.is_over
