"""The blind clock, late registration, and the forced bets a level puts on the engine — with
hands played through ``tables.engine`` to check the pots."""

from __future__ import annotations

import pytest

from tables.engine import SeatIn, TableRules, apply_action, collected_pots, start_hand
from tables.engine.scripted import ScriptedHand
from tables.tournaments.engine.levels import (
    Break,
    Clock,
    ForcedBets,
    Level,
    clock_at,
    forced_bets,
    hand_level,
    late_registration_open,
)
from tables.tournaments.engine.positions import Positions

L1 = Level(10, 20, minutes=10)
L2 = Level(15, 30, minutes=10)
L3 = Level(25, 50, minutes=10, ante=50, big_blind_ante=True)
L4 = Level(50, 100, minutes=10, ante=10)
STRUCTURE = (L1, L2, Break(5), L3, L4)


@pytest.mark.parametrize(("seconds", "clock"), [
    (0, Clock(0, False, 600)),
    (599, Clock(0, False, 1)),
    (600, Clock(1, False, 600)),      # level 2 starts at 10:00
    (1200, Clock(1, True, 300)),      # the break after level 2: still "level 1" (the one played)
    (1499, Clock(1, True, 1)),
    (1500, Clock(2, False, 600)),     # level 3 after the break
    (2100, Clock(3, False, None)),    # the last level never ends
    (99_999, Clock(3, False, None)),
])
def test_the_clock_counts_levels_and_breaks(seconds: int, clock: Clock) -> None:
    assert clock_at(STRUCTURE, seconds) == clock


def test_a_hand_takes_the_level_in_force_when_it_starts_and_none_starts_on_a_break() -> None:
    assert hand_level(STRUCTURE, 599) == L1  # dealt at 9:59, played at level 1 to its end
    assert hand_level(STRUCTURE, 600) == L2
    assert hand_level(STRUCTURE, 1300) is None
    assert hand_level(STRUCTURE, 1500) == L3


def test_late_registration_stays_open_through_the_break_after_its_last_level() -> None:
    # Late registration for two levels: open through level 2 and the break after it.
    assert late_registration_open(STRUCTURE, 1499, late_levels=2)
    assert not late_registration_open(STRUCTURE, 1500, late_levels=2)
    assert not late_registration_open(STRUCTURE, 0, late_levels=0)  # none at all


def test_a_structure_starts_and_ends_with_a_level() -> None:
    for bad in [(Break(5), L1), (L1, Break(5)), ()]:
        with pytest.raises(ValueError):
            clock_at(bad, 0)
    for bad_step in [lambda: Level(20, 20, minutes=10), lambda: Break(0)]:
        with pytest.raises(ValueError):
            bad_step()


FOUR = Positions(button=1, small_blind=2, big_blind=3)


def test_blinds_only() -> None:
    assert forced_bets(L1, FOUR, {1: 1000, 2: 1000, 3: 1000, 4: 1000}) == \
        ForcedBets({3: 20, 2: 10}, {}, False)


def test_ordinary_antes_from_every_player_dealt_in() -> None:
    fb = forced_bets(L4, FOUR, {1: 1000, 2: 1000, 3: 1000, 4: 1000})
    assert fb.antes == {1: 10, 2: 10, 3: 10, 4: 10} and not fb.dead_antes


def test_a_dead_small_blind_is_not_posted() -> None:
    dead = Positions(button=1, small_blind=2, big_blind=3)
    assert forced_bets(L1, dead, {1: 1000, 3: 1000, 4: 1000}).blinds == {3: 20}


def test_big_blind_ante_is_one_ante_from_the_big_blind() -> None:
    fb = forced_bets(L3, FOUR, {1: 1000, 2: 1000, 3: 1000, 4: 1000})
    assert fb == ForcedBets({3: 50, 2: 25}, {3: 50}, True)


def test_a_short_big_blind_posts_the_blind_first_and_the_ante_from_what_is_left() -> None:
    # TDA: the blind has priority. 70 chips: blind 50, ante 20. 40 chips: all-in on the blind.
    assert forced_bets(L3, FOUR, {1: 1000, 2: 1000, 3: 70, 4: 1000}).antes == {3: 20}
    assert forced_bets(L3, FOUR, {1: 1000, 2: 1000, 3: 40, 4: 1000}).antes == {}


def _start(level: Level, stacks: dict[int, int], pos: Positions, holes: dict[int, str],
           board: str) -> ScriptedHand:
    fb = forced_bets(level, pos, stacks)
    rules = TableRules(lower_stake=level.big_blind, auto_showdown=True)
    return ScriptedHand(rules, stacks, pos.button, holes, board, forced_bets=fb.blinds,
                        antes=fb.antes)


def test_engine_plays_a_big_blind_ante_hand_and_the_ante_feeds_the_main_pot() -> None:
    # 25/50, big-blind ante 50, four players of 1,000. Seat 4 raises to 150, the small blind
    # folds, the big blind calls. Pot before the flop: 50 ante + 25 + 150 + 150 = 375.
    h = _start(L3, {1: 1000, 2: 1000, 3: 1000, 4: 1000}, FOUR,
               {3: "AsAd", 4: "KsKd"}, "2c7d9h3s4c")
    posted = [(e["seat"], e["type"], e["amount"]) for e in h.events
              if e["type"] in ("posted_ante", "posted_blind")]
    assert posted == [(3, "posted_ante", 50), (2, "posted_blind", 25), (3, "posted_blind", 50)]
    h.act(4, "raise", 150)
    h.act(1, "fold")
    h.act(2, "fold")
    h.act(3, "call")
    assert h.state.street_name == "flop"
    assert collected_pots(h.state) == [{"amount": 375, "eligible": [3, 4]}]
    for _ in range(3):
        h.act(3, "check")
        h.act(4, "check")
    assert h.stacks() == {1: 1000, 2: 975, 3: 1175, 4: 850}
    assert sum(h.stacks().values()) == 4000


def test_engine_short_big_blind_ante_all_in_still_wins_the_ante_from_everyone() -> None:
    # The big blind has 70: blind 50 first, ante 20. He is all-in; seat 4 raises, seat 1 calls.
    # The dead 20 and the 25 small blind go to the pots he can win: main pot 20 + 25 + 50 x 3.
    h = _start(L3, {1: 1000, 2: 1000, 3: 70, 4: 1000}, FOUR,
               {3: "AsAd", 4: "KsKd", 1: "QsQd"}, "2c7d9h3s4c")
    h.act(4, "raise", 200)
    h.act(1, "call")
    h.act(2, "fold")
    for _ in range(3):
        h.act(4, "check")
        h.act(1, "check")
    pots = [(p["amount"], p["winners"]) for p in h.state.result["pots"]]
    assert pots == [(195, [3]), (300, [4])]
    assert h.stacks()[3] == 195 and sum(h.stacks().values()) == 3070


def test_engine_takes_forced_bets_for_a_dead_button_heads_up() -> None:
    # Heads-up: the button posts the small blind and acts first before the flop.
    pos = Positions(button=7, small_blind=7, big_blind=2)
    fb = forced_bets(L1, pos, {2: 500, 7: 500})
    state, events = start_hand(TableRules(lower_stake=20), [SeatIn(2, "a", 500),
                               SeatIn(7, "b", 500)], pos.button, seed=bytes(32),
                               forced_bets=fb.blinds, antes=fb.antes, dead_antes=fb.dead_antes)
    assert {e["seat"]: e["amount"] for e in events if e["type"] == "posted_blind"} == {7: 10,
                                                                                      2: 20}
    assert state.to_act_seat == 7
    apply_action(state, 7, "call")
    assert state.to_act_seat == 2
