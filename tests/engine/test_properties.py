"""Properties over random hands: chips conserved, offered actions accepted, everything else
refused without a trace, JSON round trip at every step, deterministic deal from the seed."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import (
    HandState,
    IllegalAction,
    LegalActions,
    RakeRule,
    SeatIn,
    Structure,
    TableRules,
    TimeoutPolicy,
    apply_action,
    legal_actions,
    start_hand,
    view_for,
)

rules_strategy = st.builds(
    TableRules,
    structure=st.sampled_from(list(Structure)),
    lower_stake=st.sampled_from([2, 10]),
    ante=st.sampled_from([0, 0, 1]),
    bb_ante=st.booleans(),
    timeout_policy=st.sampled_from(list(TimeoutPolicy)),
    rake=st.sampled_from([RakeRule(), RakeRule(percent_bp=500, cap=7, cap_by_players={2: 3})]),
    bet_unit=st.sampled_from([1, 1, 2]),
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[TableRules, list[SeatIn], int, bytes]:
    rules = draw(rules_strategy)
    seat_numbers = draw(st.lists(st.integers(1, 9), min_size=2, max_size=6, unique=True))
    stacks = draw(st.lists(st.integers(1, 300), min_size=len(seat_numbers),
                           max_size=len(seat_numbers)))
    seats = [SeatIn(n, f"p{n}", stack, post_bb=draw(st.booleans()) and k == 0)
             for k, (n, stack) in enumerate(zip(seat_numbers, stacks, strict=True))]
    button = draw(st.integers(1, 9))
    seed = draw(st.binary(min_size=32, max_size=32))
    return rules, seats, button, seed


@st.composite
def forced(draw: st.DrawFn, seats: list[SeatIn]) -> dict:
    """Explicit blinds/straddles and antes, as PHH replays pass them."""
    amounts = st.sampled_from([0, 1, 2, 5, 10, 20])
    forced_bets = {s.seat: draw(amounts) for s in seats if draw(st.booleans())}
    antes = {s.seat: draw(st.sampled_from([0, 1, 3])) for s in seats if draw(st.booleans())}
    return {"forced_bets": forced_bets, "antes": antes,
            "dead_antes": draw(st.sampled_from([None, True, False]))}


def offered(la: LegalActions) -> list[tuple[str, int | None, bool]]:
    opts: list[tuple[str, int | None, bool]] = []
    if la.show:
        return [("show", None, True), ("muck", None, True), ("timeout", None, True)]
    if la.check:
        opts.append(("check", None, True))
    if la.call:
        opts.append(("call", None, True))
    if la.bet or la.raise_:
        name = "bet" if la.bet else "raise"
        opts += [(name, la.min_to, True), (name, la.max_to, True),
                 (name, max(la.min_to, (la.min_to + la.max_to) // 4 * 2), True)]
    opts += [("fold", None, True), ("timeout", None, True), ("timeout", None, False)]
    return opts


def refused_actions(state: HandState, la: LegalActions) -> list[tuple[int, str, int | None]]:
    others = [p.seat for p in state.players if p.seat != la.seat]
    bad: list[tuple[int, str, int | None]] = [(others[0], "fold", None), (la.seat, "jump", None)]
    if la.show:
        return [*bad, (la.seat, "check", None)]
    bad.append((la.seat, "call" if la.check else "check", None))
    if la.bet or la.raise_:
        bad.append((la.seat, "bet" if la.bet else "raise", la.max_to + 1))
        if la.min_to > 1 and la.min_to < la.max_to:
            bad.append((la.seat, "bet" if la.bet else "raise", la.min_to - 1))
    else:
        bad.append((la.seat, "raise", la.call_amount + state.current_bet + 100))
    return bad


def chips_in_play(state: HandState) -> int:
    rake = state.result["rake"] if state.result else 0
    pots = 0 if state.is_over else sum(p.total for p in state.players)
    return sum(p.stack for p in state.players) + pots + rake


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.data())
def test_random_hands_keep_every_invariant(table, data) -> None:
    rules, seats, button, seed = table
    extra = data.draw(forced(seats)) if data.draw(st.booleans()) else {}
    state, _ = start_hand(rules, seats, button, seed, **extra)
    total = sum(s.stack for s in seats)
    steps = 0
    while (la := legal_actions(state)) is not None:
        steps += 1
        assert steps < 400
        assert chips_in_play(state) == total
        assert all(p.stack >= 0 for p in state.players)
        view = view_for(state, la.seat)
        assert sum(p["amount"] for p in view["pots"]) + sum(p.bet for p in state.players) == sum(
            p.total for p in state.players)
        assert view["legal"] == la.to_json()
        before = state.to_json()
        assert HandState.from_json(json.loads(json.dumps(before))).to_json() == before
        for seat, action, amount in refused_actions(state, la):
            try:
                apply_action(state, seat, action, amount)
            except IllegalAction:
                pass
            else:  # pragma: no cover - a failure report
                raise AssertionError(f"{action} {amount} by {seat} accepted: {la}")
            assert state.to_json() == before
        opts = offered(la)
        action, amount, allow = opts[data.draw(st.integers(0, len(opts) - 1))]
        twin = HandState.from_json(json.loads(json.dumps(before)))
        version = state.version
        ev = apply_action(state, la.seat, action, amount, allow_timeout_allin=allow)
        assert state.version == version + 1 and all(e["version"] == state.version for e in ev)
        twin_ev = apply_action(twin, la.seat, action, amount, allow_timeout_allin=allow)
        assert twin.to_json() == state.to_json() and twin_ev == ev
    assert state.is_over
    assert chips_in_play(state) == total
    assert state.result is not None
    assert sum(p["net"] for p in state.result["players"]) == -state.result["rake"]
    json.dumps(state.to_json())


@settings(max_examples=30, deadline=None)
@given(table=tables())
def test_the_deal_is_deterministic_from_the_seed(table) -> None:
    rules, seats, button, seed = table
    a, ev_a = start_hand(rules, seats, button, seed)
    b, ev_b = start_hand(rules, seats, button, seed)
    assert ev_a == ev_b and a.to_json() == b.to_json()
