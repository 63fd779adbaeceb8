"""Differential test: our engine against pokerkit (a test-only oracle) on thousands of random hands.

Each hand: random structure (no-limit, pot-limit, fixed-limit), 2-9 players with a mix of short
(1-8 big blinds) and deep (20-300 big blinds) stacks, sometimes antes or a big-blind ante. Our
engine deals from a random seed; pokerkit gets exactly the same hole and board cards. At every
decision we pick a random legal action from OUR engine, check that pokerkit agrees on who acts,
the amount to call, whether a raise is allowed and its min/max "raise to", apply it to both, and
at the end compare every final stack. Now and then our state is saved to JSON and loaded back
between actions, as the live tables do.

Where the two differ by convention, the scenario is set so they agree or the difference is
converted explicitly:
* fixed limit: pokerkit counts completions per street; its preflop cap is configured to 3 so that
  with the big blind it allows a bet and three raises (4 bets), like ours on every street;
* odd chips: pokerkit gives a split pot's whole remainder to the first winner (in player order),
  we give the odd chips one at a time clockwise from the button. Before comparing, our result is
  re-split per pot with pokerkit's convention (``pokerkit_odd_chips``): identical for two-way
  splits, different only when three or more players split a pot with two or more odd chips;
* showdown: every player shows when asked (pokerkit's automation shows winners and mucks losers;
  payoffs are the same either way). No rake, no timeouts (pokerkit has neither);
* pokerkit gives a player who already matches the bet an "option" even when every opponent is
  all-in; we skip him (there is nobody to bet against), so the driver checks for him in pokerkit;
* raise permission, two documented pokerkit conventions (we follow the room's rule, docs/engine.md
  "Acting"): pokerkit starts each round with a last full raise of 0, so the round's first short
  all-in counts as a full raise and re-opens betting for players who already acted (we do not
  re-open); and in fixed limit pokerkit counts a short all-in towards the cap (we count the bet and
  full raises). In those spots the driver picks no raise and counts the occurrence in the printed
  statistics;
* a big blind all-in for less than the big blind: pokerkit lowers the bet to what he posted, we
  keep it at the big blind (rules: "the value of each bet in the first round is $10"). So the
  big blind always has at least his ante plus the big blind here (``cover_the_big_blind``);
  tests/engine/test_short_blinds.py plays short big blinds, against pokerkit where they agree.
Any other difference (who acts, call amount, raise allowed, min/max raise-to, final stacks) fails.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from dataclasses import dataclass, field

import pytest
from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    StandardHighHand,
    State,
    Street,
)

from tables.engine import (
    HandState,
    SeatIn,
    Structure,
    TableRules,
    apply_action,
    legal_actions,
    start_hand,
)

BIG_BLIND = 10
SMALL_BLIND = 5
BIG_BET = 20
HANDS_PER_STRUCTURE = 1200
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
_PK_STRUCTURE = {
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
    Structure.POT_LIMIT: BettingStructure.POT_LIMIT,
    Structure.FIXED_LIMIT: BettingStructure.FIXED_LIMIT,
}


def pokerkit_state(
    structure: Structure, stacks: list[int], antes: list[int], trim_antes: bool
) -> State:
    """A pokerkit hold'em state for our table rules; players in our dealing order."""
    limit = structure is Structure.FIXED_LIMIT
    caps = (3, 4, 4, 4) if limit else (None,) * 4
    late = BIG_BET if limit else BIG_BLIND
    streets = (
        Street(False, (False, False), 0, False, Opening.POSITION, BIG_BLIND, caps[0]),
        Street(True, (), 3, False, Opening.POSITION, BIG_BLIND, caps[1]),
        Street(True, (), 1, False, Opening.POSITION, late, caps[2]),
        Street(True, (), 1, False, Opening.POSITION, late, caps[3]),
    )
    return State(
        AUTOMATIONS, Deck.STANDARD, (StandardHighHand,), streets, _PK_STRUCTURE[structure],
        trim_antes, antes, (SMALL_BLIND, BIG_BLIND), 0, stacks, len(stacks),
        mode=Mode.CASH_GAME,
    )


def pokerkit_odd_chips(state) -> list[int]:
    """Our final stacks, with split pots re-split the pokerkit way.

    Pokerkit merges consecutive pots once losers have mucked (so pots with the same winners
    become one) and gives the whole remainder to the first winner in player order.
    """
    stacks = [p.stack for p in state.players]
    index = {p.seat: i for i, p in enumerate(state.players)}
    merged: list[tuple[int, list[int], dict[int, int]]] = []  # amount, winners, our shares
    for pot in state.result["pots"]:
        winners = [index[seat] for seat in pot["winners"]]
        shares = {index[seat]: share for seat, share in pot["shares"]}
        if merged and merged[-1][1] == winners:
            amount, _, old = merged.pop()
            shares = {i: shares[i] + old[i] for i in winners}
            merged.append((amount + pot["amount"], winners, shares))
        else:
            merged.append((pot["amount"], winners, shares))
    for amount, winners, shares in merged:
        if len(winners) < 2:
            continue
        q, r = divmod(amount, len(winners))
        for k, i in enumerate(winners):
            stacks[i] += q + (r if k == 0 else 0) - shares[i]
    return stacks


def cover_the_big_blind(rng: random.Random, stacks: list[int], bb_ante: int) -> None:
    """Give the big blind (player 1; heads-up player 0) his ante plus a full big blind."""
    bb = 0 if len(stacks) == 2 else 1
    if stacks[bb] < bb_ante + BIG_BLIND:
        stacks[bb] = bb_ante + BIG_BLIND + rng.randint(0, 8 * BIG_BLIND)


def pk_to_call(pk: State) -> int:
    return pk.checking_or_calling_amount or 0


def known_raise_difference(ours, pk: State, ours_allows: bool) -> str | None:
    """Name the documented pokerkit convention behind a raise-permission difference, if any."""
    street = pk.street
    pk_full = pk.completion_betting_or_raising_amount
    incomplete_raise_pending = ours.current_bet > ours.last_full_to or (
        street is not None and 0 < pk_full < street.min_completion_betting_or_raising_amount
    )
    if not ours_allows and incomplete_raise_pending:
        # Pokerkit starts every round with a "last full raise" of 0, so the first short all-in of
        # a round counts as a full raise and re-opens betting; our rule: it does not.
        return "pokerkit re-opens after a first short all-in"
    if (
        ours_allows
        and street is not None
        and pk.completion_betting_or_raising_count == street.max_completion_betting_or_raising_count
    ):
        # Fixed limit: pokerkit counts a short all-in towards the cap; we count full raises only.
        return "pokerkit counts short all-ins towards the limit cap"
    return None


@dataclass
class Stats:
    hands: int = 0
    actions: int = 0
    showdowns: int = 0
    all_ins: int = 0
    split_pots: int = 0
    odd_chip_resplits: int = 0
    pokerkit_option_checks: int = 0
    known_differences: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def play_both(rng: random.Random, structure: Structure, stats: Stats, label: str) -> None:
    n = rng.randint(2, 9)
    stacks = [
        rng.randint(1, 8 * BIG_BLIND) if rng.random() < 0.35 else rng.randint(20, 300) * BIG_BLIND
        for _ in range(n)
    ]
    ante_kind = rng.choice(["none", "none", "ante", "bb_ante"])
    ante = rng.choice([1, 2, 5]) if ante_kind != "none" else 0
    cover_the_big_blind(rng, stacks, ante * n if ante_kind == "bb_ante" else ante)
    rules = TableRules(
        structure=structure, lower_stake=BIG_BLIND, upper_stake=BIG_BET, ante=ante,
        bb_ante=ante_kind == "bb_ante",
    )
    seats = [SeatIn(seat=k + 1, player_id=str(k), stack=stacks[k]) for k in range(n)]
    ours, _ = start_hand(rules=rules, seats=seats, button=n, seed=rng.randbytes(32))
    if ante_kind == "bb_ante":  # big blind is player 1 (heads-up: player 0, reversed by pokerkit)
        pk_antes, trim = [0, ante * n] + [0] * (n - 2), False
    else:
        pk_antes, trim = [ante] * n, True
    pk = pokerkit_state(structure, stacks, pk_antes, trim)
    for p in ours.players:
        pk.deal_hole("".join(p.hole))
    dealt_board = 0

    def fail(why: str) -> None:
        stats.failures.append(f"{label}: {why}; rules={rules}; stacks={stacks}")

    while not ours.is_over:
        while dealt_board < len(ours.board) and pk.can_deal_board():
            count = pk.streets[pk.street_index].board_dealing_count
            pk.deal_board("".join(ours.board[dealt_board:dealt_board + count]))
            dealt_board += count
        la = legal_actions(ours)
        assert la is not None, "our engine stopped without finishing"
        if la.show or la.muck:
            apply_action(ours, la.seat, "show")
            continue
        i = ours.to_act
        while pk.actor_index is not None and pk.actor_index != i and not pk_to_call(pk):
            pk.check_or_call()  # pokerkit's option for a player nobody can bet against
            stats.pokerkit_option_checks += 1
        if pk.actor_index != i:
            return fail(f"actor: ours {i}, pokerkit {pk.actor_index}")
        pk_call = pk.checking_or_calling_amount
        if (la.call_amount if la.call else 0) != pk_call:
            return fail(f"call amount: ours {la.call_amount}, pokerkit {pk_call}")
        can_raise = la.bet or la.raise_
        if can_raise != pk.can_complete_bet_or_raise_to():
            known = known_raise_difference(ours, pk, can_raise)
            if known is None:
                return fail(f"raise allowed: ours {can_raise}, pokerkit {not can_raise}")
            stats.known_differences[known] = stats.known_differences.get(known, 0) + 1
            can_raise = False
        elif can_raise:
            pk_range = (
                pk.min_completion_betting_or_raising_to_amount,
                pk.max_completion_betting_or_raising_to_amount,
            )
            if (la.min_to, la.max_to) != pk_range:
                return fail(f"raise range: ours {(la.min_to, la.max_to)}, pokerkit {pk_range}")
        if rng.random() < 0.2:  # the live tables save and load the state between actions
            ours = HandState.from_json(json.loads(json.dumps(ours.to_json())))
        roll = rng.random()
        if la.call and roll < 0.15:
            apply_action(ours, la.seat, "fold")
            pk.fold()
        elif can_raise and roll < 0.5:
            pick = rng.random()
            to = la.min_to if pick < 0.4 else la.max_to if pick < 0.6 else rng.randint(
                la.min_to, la.max_to
            )
            apply_action(ours, la.seat, "bet" if la.bet else "raise", to)
            pk.complete_bet_or_raise_to(to)
        else:
            apply_action(ours, la.seat, "check" if la.check else "call")
            pk.check_or_call()
        stats.actions += 1
    while pk.actor_index is not None and not pk_to_call(pk):
        pk.check_or_call()
        stats.pokerkit_option_checks += 1
    while pk.status and pk.can_deal_board():
        count = pk.streets[pk.street_index].board_dealing_count
        pk.deal_board("".join(ours.board[dealt_board:dealt_board + count]))
        dealt_board += count
    if pk.status:
        return fail("pokerkit's hand is not over when ours is")
    stats.hands += 1
    stats.showdowns += any(p.shown for p in ours.players)
    stats.all_ins += any(p.allin for p in ours.players)
    pots = ours.result["pots"]
    stats.split_pots += sum(len(pot["winners"]) > 1 for pot in pots)
    expected = pokerkit_odd_chips(ours)
    if expected != [p.stack for p in ours.players]:
        stats.odd_chip_resplits += 1
    if expected != list(pk.stacks):
        fail(f"final stacks: ours {expected}, pokerkit {list(pk.stacks)}")


@pytest.mark.parametrize("structure", list(Structure), ids=lambda s: s.value)
def test_random_hands_match_pokerkit(structure: Structure) -> None:
    stats = Stats()
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about folds when checking is free
        for k in range(HANDS_PER_STRUCTURE):
            seed = f"{structure.value}-{k}"
            play_both(random.Random(seed), structure, stats, f"seed {seed!r}")
    elapsed = time.perf_counter() - started
    print(
        f"{structure.value}: {stats.hands} hands, {stats.actions} actions, "
        f"{stats.showdowns} showdowns, {stats.all_ins} with all-ins, {stats.split_pots} split "
        f"pots ({stats.odd_chip_resplits} re-split for pokerkit's odd chips), "
        f"{stats.pokerkit_option_checks} pokerkit-only option checks, "
        f"known convention differences {stats.known_differences}, {elapsed:.1f}s"
    )
    assert not stats.failures, "\n".join(stats.failures[:10])
    assert stats.hands == HANDS_PER_STRUCTURE
    assert stats.showdowns > HANDS_PER_STRUCTURE // 10
    assert stats.all_ins > HANDS_PER_STRUCTURE // 10
