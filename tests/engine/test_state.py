"""Starting a hand: who posts what, who acts first, the deal, and the JSON round trip."""

from __future__ import annotations

import json

import pytest

from tables.engine import (
    HandState,
    IllegalAction,
    SeatIn,
    Structure,
    TableRules,
    commitment,
    legal_actions,
    shuffled_deck,
    start_hand,
    view_for,
)
from tables.engine.scripted import ScriptedHand
from tests.purity import assert_imports_no_framework

NL = TableRules(lower_stake=10)
SEED = bytes(range(32))


def seats(*stacks: int) -> list[SeatIn]:
    return [SeatIn(seat=k + 1, player_id=f"p{k + 1}", stack=st) for k, st in enumerate(stacks)]


def blinds(events: list[dict]) -> dict[int, int]:
    return {e["seat"]: e["amount"] for e in events if e["type"] == "posted_blind"}


def test_small_blind_left_of_button_big_blind_next_and_utg_acts_first() -> None:
    state, events = start_hand(NL, seats(100, 100, 100, 100), button=1, seed=SEED)
    assert blinds(events) == {2: 5, 3: 10}
    assert legal_actions(state).seat == 4
    assert legal_actions(state).call_amount == 10


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() -> None:
    h = ScriptedHand(NL, {1: 100, 2: 100}, button=1, board="2c3d4h5s6c")
    assert blinds(h.events) == {1: 5, 2: 10}
    assert h.legal.seat == 1  # button acts first preflop
    h.act(1, "call")
    h.act(2, "check")
    assert h.state.street_name == "flop"
    assert h.legal.seat == 2  # and last after the flop


def test_heads_up_small_blind_plays_the_button_when_the_button_seat_is_not_dealt_in() -> None:
    # Seats 2 and 3 play, the button stays on empty seat 1 (e.g. a replayed hand): seat 2, first
    # left of the button, posts the small blind, acts first preflop and last after the flop.
    h = ScriptedHand(NL, {2: 100, 3: 100}, button=1, board="2c3d4h5s6c")
    assert blinds(h.events) == {2: 5, 3: 10}
    assert h.legal.seat == 2
    h.act(2, "call")
    h.act(3, "check")
    for street in ("flop", "turn", "river"):
        assert h.state.street_name == street
        assert h.legal.seat == 3
        h.act(3, "check")
        h.act(2, "check")


def test_heads_up_replay_with_forced_bets_and_an_empty_button_seat() -> None:
    h = ScriptedHand(NL, {2: 100, 3: 100}, button=1, forced_bets={2: 5, 3: 10},
                     board="2c3d4h5s6c")
    assert h.legal.seat == 2
    h.act(2, "call")
    h.act(3, "check")
    assert h.legal.seat == 3


def test_five_ten_small_blind_rounds_down_to_two_dollars() -> None:
    from tables.engine import SmallBlindRule, Structure

    rules = TableRules(structure=Structure.FIXED_LIMIT, lower_stake=500, upper_stake=1000,
                       small_blind_rule=SmallBlindRule.ROUND_DOWN, unit_whole=100)
    _, events = start_hand(rules, seats(10000, 10000, 10000), button=1, seed=SEED)
    assert blinds(events) == {2: 200, 3: 500}


def test_new_player_posts_an_extra_live_big_blind_and_may_check_his_option() -> None:
    players = seats(100, 100, 100, 100, 100)
    players[4] = SeatIn(5, "new", 100, post_bb=True)
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}, button=1, post_bb=[5])
    assert blinds(h.events) == {2: 5, 3: 10, 5: 10}
    h.act(4, "call")
    la = h.legal
    assert la.seat == 5 and la.check and la.raise_  # live: he has the option
    h.act(5, "check")
    assert h.legal.seat == 1


def test_antes_are_dead_money_before_the_blinds() -> None:
    rules = TableRules(lower_stake=10, ante=2)
    state, events = start_hand(rules, seats(100, 100, 100), button=1, seed=SEED)
    antes = [e for e in events if e["type"] == "posted_ante"]
    assert [e["amount"] for e in antes] == [2, 2, 2]
    assert state.pot_total == 6 + 15
    assert legal_actions(state).call_amount == 10  # antes are not part of the bet


def test_big_blind_ante_posts_the_ante_for_everyone() -> None:
    rules = TableRules(lower_stake=10, ante=2, bb_ante=True)
    state, events = start_hand(rules, seats(100, 100, 100, 100), button=1, seed=SEED)
    antes = [(e["seat"], e["amount"]) for e in events if e["type"] == "posted_ante"]
    assert antes == [(3, 8)]
    assert state.player(3).stack == 100 - 8 - 10


def test_straddle_via_forced_bets_opens_left_of_it_and_sizes_raises() -> None:
    state, _ = start_hand(NL, seats(200, 200, 200, 200), button=1, seed=SEED,
                          forced_bets={2: 5, 3: 10, 4: 20})
    la = legal_actions(state)
    assert la.seat == 1 and la.call_amount == 20 and la.min_to == 40


def test_short_stack_posts_what_it_has_and_is_all_in() -> None:
    state, events = start_hand(NL, seats(100, 100, 4), button=1, seed=SEED)
    assert blinds(events) == {2: 5, 3: 4}
    assert state.player(3).allin


def test_auto_deal_comes_from_the_seed_in_dealing_order() -> None:
    state, events = start_hand(NL, seats(100, 100, 100), button=3, seed=SEED)
    deck = shuffled_deck(SEED)
    holes = {e["seat"]: e["cards"] for e in events if e["type"] == "hole_cards"}
    # seat 1 is first left of the button
    assert holes == {1: [deck[0], deck[3]], 2: [deck[1], deck[4]], 3: [deck[2], deck[5]]}
    again, _ = start_hand(NL, seats(100, 100, 100), button=3, seed=SEED)
    assert again.to_json() == state.to_json()


def test_commitment_public_from_the_start_and_the_seed_never_published() -> None:
    state, events = start_hand(NL, seats(100, 100), button=1, seed=SEED)
    assert events[0]["commitment"] == commitment(SEED)
    ev = []
    while (la := legal_actions(state)) is not None:
        from tables.engine import apply_action

        action = "show" if la.show else "check" if la.check else "call"
        ev += apply_action(state, la.seat, action)
    assert ev[-1]["type"] == "hand_end"
    for published in [*events, *ev, view_for(state, None), view_for(state, 1)]:
        assert SEED.hex() not in str(published)


def test_a_given_deck_is_dealt_in_order_under_its_commitment() -> None:
    deck = list(reversed(shuffled_deck(SEED)))
    state, events = start_hand(NL, seats(100, 100, 100), button=3, deck=deck, commitment="ab" * 32)
    holes = {e["seat"]: e["cards"] for e in events if e["type"] == "hole_cards"}
    assert holes == {1: [deck[0], deck[3]], 2: [deck[1], deck[4]], 3: [deck[2], deck[5]]}
    assert events[0]["commitment"] == "ab" * 32 and state.seed is None
    with pytest.raises(IllegalAction):
        start_hand(NL, seats(100, 100), button=1, deck=deck[:51] + deck[:1], commitment="ab" * 32)


def test_manual_deal_waits_for_cards() -> None:
    state, _ = start_hand(NL, seats(100, 100), button=1, seed=None, deal="manual")
    assert legal_actions(state) is None
    assert state.pending_deal == {"kind": "hole", "seats": [2, 1]}


def test_bad_starts_are_refused() -> None:
    with pytest.raises(IllegalAction) as e:
        start_hand(NL, seats(100), button=1, seed=SEED)
    assert e.value.reason == "too_few_players"
    with pytest.raises(IllegalAction) as e:
        start_hand(NL, seats(100, 0), button=1, seed=SEED)
    assert e.value.reason == "bad_stack"


def test_json_round_trip_is_identical_through_text() -> None:
    h = ScriptedHand(NL, {1: 100, 2: 100, 3: 100}, button=1, holes={1: "AsKs"}, board="2c3d4h")
    h.act(1, "raise", 30)
    d = h.state.to_json()
    again = HandState.from_json(json.loads(json.dumps(d)))
    assert again.to_json() == d
    assert legal_actions(again) == legal_actions(h.state)


def test_engine_imports_no_framework() -> None:
    assert_imports_no_framework("tables.engine")


def test_manual_deal_refusals_leave_the_state_unchanged() -> None:
    from tables.engine import deal_board, deal_hole

    state, _ = start_hand(NL, seats(100, 100), button=1, seed=None, deal="manual")
    before = state.to_json()
    for call, reason in [
        (lambda: deal_board(state, ["2c", "3c", "4c"]), "no_deal_pending"),
        (lambda: deal_hole(state, 1, ["As"]), "bad_cards"),
        (lambda: deal_hole(state, 1, ["As", "As"]), "bad_cards"),
        (lambda: deal_hole(state, 1, ["As", "Xx"]), "bad_cards"),
        (lambda: deal_hole(state, 9, ["As", "Ks"]), "not_in_hand"),
    ]:
        with pytest.raises(IllegalAction) as e:
            call()
        assert e.value.reason == reason
        assert state.to_json() == before
    deal_hole(state, 1, ["As", "Ks"])
    with pytest.raises(IllegalAction) as e:
        deal_hole(state, 1, ["Qs", "Js"])
    assert e.value.reason == "already_dealt"
    with pytest.raises(IllegalAction) as e:
        deal_hole(state, 2, ["As", "Js"])
    assert e.value.reason == "bad_cards"  # the ace of spades is already out
    deal_hole(state, 2, None)  # unknown cards (replays)
    assert legal_actions(state).seat == 1


# --- UTG straddle (a table option; the service passes SeatIn.straddle only where allowed) ------
def straddle_hand(rules: TableRules = NL, stacks: tuple[int, ...] = (1000,) * 5, **kw) -> ScriptedHand:
    """Five players at 5/10, button seat 1: SB 2, BB 3, UTG 4 straddles (20), then 5 and 1."""
    return ScriptedHand(rules, {k + 1: st for k, st in enumerate(stacks)}, button=1,
                        straddles=kw.pop("straddles", [4]), board="2c3d4h5s9c", **kw)


def test_utg_straddle_posts_two_big_blinds_and_action_opens_left_of_him() -> None:
    h = straddle_hand()
    assert blinds(h.events) == {2: 5, 3: 10, 4: 20}
    assert [e["kind"] for e in h.of_type("posted_blind")] == ["sb", "bb", "straddle"]
    assert h.legal.seat == 5
    assert h.legal.call_amount == 20
    assert h.legal.min_to == 40  # the straddle sizes raises: a raise is to 4 BB or more


def test_the_straddler_acts_last_preflop_with_the_option_to_raise() -> None:
    h = straddle_hand()
    h.act(5, "call")
    h.act(1, "call")
    h.act(2, "call")  # 15 more
    h.act(3, "call")  # 10 more
    assert h.legal.seat == 4  # everyone called: the straddler still has his option
    assert h.legal.check and h.legal.raise_ and h.legal.min_to == 40
    h.act(4, "raise", 60)
    assert h.legal.seat == 5  # reopened: everyone answers the raise again
    for seat in (5, 1, 2, 3):
        h.act(seat, "call")
    assert h.state.street_name == "flop"
    assert h.state.pot_total == 5 * 60


def test_after_the_flop_the_smallest_bet_is_the_big_blind_again() -> None:
    h = straddle_hand()
    for seat in (5, 1, 2, 3):
        h.act(seat, "call")
    h.act(4, "check")
    assert h.state.street_name == "flop"
    assert h.legal.seat == 2 and h.legal.min_to == 10


def test_a_raise_before_the_straddler_still_leaves_him_to_act() -> None:
    h = straddle_hand()
    h.act(5, "raise", 50)
    for seat in (1, 2, 3):
        h.act(seat, "fold")
    assert h.legal.seat == 4 and h.legal.call_amount == 30
    h.act(4, "fold")
    assert h.state.is_over and h.stacks()[5] == 1000 + 5 + 10 + 20


def test_no_straddle_when_not_under_the_gun_heads_up_fixed_limit_or_short() -> None:
    assert "straddle" not in kinds(straddle_hand(straddles=[5]))  # seat 5 is not UTG
    heads_up = ScriptedHand(NL, {1: 1000, 2: 1000}, button=1, straddles=[1, 2])
    assert "straddle" not in kinds(heads_up)
    limit = straddle_hand(TableRules(structure=Structure.FIXED_LIMIT, lower_stake=10))
    assert "straddle" not in kinds(limit) and limit.legal.seat == 4
    short = straddle_hand(stacks=(1000, 1000, 1000, 20, 1000))  # a straddle is never all in
    assert "straddle" not in kinds(short) and short.legal.seat == 4


def test_three_handed_the_button_is_under_the_gun_and_may_straddle() -> None:
    h = ScriptedHand(NL, {1: 1000, 2: 1000, 3: 1000}, button=1, straddles=[1])
    assert blinds(h.events) == {2: 5, 3: 10, 1: 20}
    assert h.legal.seat == 2 and h.legal.call_amount == 15


def test_a_new_player_under_the_gun_who_straddles_posts_no_extra_big_blind() -> None:
    h = straddle_hand(post_bb=[4])
    assert [e["kind"] for e in h.of_type("posted_blind")] == ["sb", "bb", "straddle"]
    assert h.state.player(4).total == 20


def test_pot_limit_straddle_pot_sized_raise() -> None:
    h = straddle_hand(TableRules(structure=Structure.POT_LIMIT, lower_stake=10))
    # pot 35 (5 + 10 + 20); calling 20 makes it 55, raised by 55: to 75
    assert h.legal.min_to == 40 and h.legal.max_to == 75


def kinds(h: ScriptedHand) -> list[str]:
    return [e["kind"] for e in h.of_type("posted_blind")]
