"""Pots: side pots by contribution level, folded chips, uncalled bets."""

from __future__ import annotations

from tables.engine import TableRules
from tables.engine.pots import build_pots, uncalled_excess
from tables.engine.scripted import ScriptedHand

NL = TableRules(lower_stake=10)


def test_three_all_ins_make_a_main_pot_and_two_side_pots() -> None:
    # Seat 1 (50) has the best hand, seat 2 (100) second, seat 3 (200) third, seat 4 (400) worst.
    h = ScriptedHand(NL, {1: 50, 2: 100, 3: 200, 4: 400}, button=4,
                     holes={1: "AsAd", 2: "KsKd", 3: "QsQd", 4: "JsJd"}, board="2c7d9h3s4c")
    h.act(3, "raise", 200)
    assert not h.legal.raise_  # nobody left could match more than 200
    h.act(4, "call")
    h.act(1, "call")
    h.act(2, "call")
    pots = h.state.result["pots"]
    assert [(p["amount"], p["winners"]) for p in pots] == [
        (200, [1]),  # 50 from each of four
        (150, [2]),  # the next 50 from seats 2, 3, 4
        (200, [3]),  # the next 100 from seats 3 and 4
    ]
    assert h.stacks() == {1: 200, 2: 150, 3: 200, 4: 200}


def test_everyone_all_in_shows_every_hand_before_the_rest_of_the_board() -> None:
    h = ScriptedHand(NL, {1: 100, 2: 100}, button=1, holes={1: "AsAd", 2: "KsKd"},
                     board="2c7d9h3s4c")
    h.act(1, "raise", 100)
    h.act(2, "call")
    kinds = [e["type"] for e in h.events]
    first_board = kinds.index("board")
    assert kinds.count("shown") == 2 and kinds.index("shown") < first_board
    assert h.state.is_over


def test_folded_chips_stay_in_the_pots_they_fed() -> None:
    h = ScriptedHand(NL, {1: 100, 2: 30, 3: 100}, button=3,
                     holes={1: "KsKd", 2: "AsAd", 3: "QsQd"}, board="2c7d9h3s4c")
    h.act(3, "raise", 60)
    h.act(1, "call")
    h.act(2, "call")  # all-in for 30
    h.act(1, "bet", 40)
    h.act(3, "fold")
    pots = h.state.result["pots"]
    # main: 30 x 3; side: 30 from seats 1 and 3 (seat 3 folded); seat 1's 40 comes back
    assert [(p["amount"], p["winners"]) for p in pots] == [(90, [2]), (60, [1])]
    assert h.stacks() == {1: 100, 2: 90, 3: 40}


def test_uncalled_bet_is_returned_when_everyone_folds() -> None:
    h = ScriptedHand(NL, {1: 100, 2: 100}, button=1)
    h.act(1, "raise", 50)
    ev = h.act(2, "fold")
    assert ev[1]["type"] == "returned_uncalled" and ev[1]["amount"] == 40
    assert h.stacks() == {1: 110, 2: 90}
    assert h.state.result["pots"][0]["amount"] == 20


def test_pot_helpers() -> None:
    assert uncalled_excess([10, 50, 20]) == (1, 30)
    assert uncalled_excess([50, 50]) is None
    assert build_pots([10, 50, 50, 5], [True, True, True, False]) == [
        (35, [0, 1, 2]), (80, [1, 2]),
    ]


def test_dead_antes_are_never_returned_as_uncalled_and_go_to_the_main_pot() -> None:
    # Big-blind ante: seat 2 posts 30 ante + 10 blind, then goes all-in for 100 live; seat 3
    # calls 100. Nothing is uncalled, and the loser's ante is not a side pot of his own.
    rules = TableRules(lower_stake=10, ante=10, bb_ante=True)
    h = ScriptedHand(rules, {1: 200, 2: 130, 3: 200}, button=3,
                     holes={1: "2c3d", 2: "KsKd", 3: "AsAd"}, board="4h7d9cJsQc")
    h.act(3, "raise", 100)
    h.act(1, "fold")
    h.act(2, "call")  # all-in: 100 live after the 30 ante
    assert h.of_type("returned_uncalled") == []
    assert [(p["amount"], p["winners"]) for p in h.state.result["pots"]] == [(235, [3])]
    assert h.stacks() == {1: 195, 2: 0, 3: 335}


def test_a_player_all_in_on_his_ante_wins_only_up_to_it_from_each_opponent() -> None:
    # Seat 2 has 3 chips: all-in on the 5 ante. With the best hand he wins 3 from each player.
    rules = TableRules(lower_stake=10, ante=5)
    h = ScriptedHand(rules, {1: 100, 2: 3, 3: 100}, button=3,
                     holes={1: "KsKd", 2: "AsAd", 3: "2c3d"}, board="4h7d9cJsQc")
    # The big blind posted nothing, yet the bet is still the big blind's 10 (tests/engine/
    # test_short_blinds.py): the button calls 10 and the small blind completes to 10.
    assert h.legal.call_amount == 10
    h.act(3, "call")
    h.act(1, "call")
    for _ in range(3):
        h.act(1, "check")
        h.act(3, "check")
    while h.legal is not None:
        h.act(h.legal.seat, "show")
    # Main pot 3 x 3 = 9 to seat 2; side pot 2 x (5 + 10 - 3) = 24 to seat 1's kings.
    pots = [(p["amount"], p["winners"]) for p in h.state.result["pots"]]
    assert pots == [(9, [2]), (24, [1])]


def test_partial_ante_all_in_heads_up_gets_only_his_ante_matched() -> None:
    # E2's repro: the button has 2 chips and antes them; the big blind's unmatched 3 of ante
    # and his blind come back, the pot is 2 + 2.
    from tables.engine import Structure

    rules = TableRules(structure=Structure.FIXED_LIMIT, lower_stake=10, upper_stake=20, ante=5)
    h = ScriptedHand(rules, {1: 980, 2: 2}, button=2, holes={1: "TdJd", 2: "7c8c"},
                     board="Qc6sQd8s3h")
    assert h.state.is_over
    assert h.stacks() == {1: 978, 2: 4}
