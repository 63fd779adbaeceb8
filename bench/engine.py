"""Hands per second: our engine against pokerkit on the same hands, 6-max no-limit, 100 big blinds.

How it measures:
1. Script generation (not timed): for each hand a seeded RNG picks random legal actions from OUR
   engine (fold 15% when facing a bet, bet/raise 35% with a min / pot-ish / random / all-in size,
   else check/call; every player shows at showdown). The same hand is then played once through
   pokerkit to record pokerkit's operation list (hole cards, board cards where pokerkit wants
   them, actions, plus pokerkit's extra "option" checks) and to check both end with equal stacks.
2. Timed, best of ``--repeat`` runs over all hands:
   * ours: ``start_hand`` with the hand's seed (shuffles and deals: SHA-256 deck) and every
     scripted ``apply_action`` until the hand is over (pots, showdown, events included);
   * ours+json: the same, plus a ``to_json``/``json.dumps``/``json.loads``/``from_json`` round trip
     after every action, as the live tables do (load, apply, save);
   * pokerkit: a fresh ``State`` (automatic antes/blinds/bet collection/burn/showdown/chip
     pushing) fed the recorded operations.
   No legal-action queries are timed on either side.
3. Prints hands/s for each, the JSON size of a mid-hand state (first flop decision of a hand
   with a flop), and last ``ratio_vs_pokerkit=<ours/pokerkit>``.

Run: ``.venv/bin/python bench/engine.py`` (about 45 s); ``--hands N``, ``--repeat R``,
``--profile`` prints the engine's hottest functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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

PLAYERS = 6
BIG_BLIND = 100
STACK = 100 * BIG_BLIND
RULES = TableRules(structure=Structure.NO_LIMIT, lower_stake=BIG_BLIND)
SEATS = [SeatIn(seat=k + 1, player_id=f"p{k + 1}", stack=STACK) for k in range(PLAYERS)]
BUTTON = PLAYERS
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
STREETS = tuple(
    Street(k > 0, (False, False) if k == 0 else (), count, False, Opening.POSITION, BIG_BLIND, None)
    for k, count in enumerate((0, 3, 1, 1))
)

Script = list[tuple[int, str, int | None]]
PokerkitOps = list[tuple[str, object]]


def pokerkit_state() -> State:
    return State(
        AUTOMATIONS, Deck.STANDARD, (StandardHighHand,), STREETS, BettingStructure.NO_LIMIT,
        True, 0, (BIG_BLIND // 2, BIG_BLIND), 0, [STACK] * PLAYERS, PLAYERS,
        mode=Mode.CASH_GAME,
    )


def make_script(rng: random.Random) -> tuple[bytes, Script, PokerkitOps, int]:
    """Play one random hand through our engine, then through pokerkit; return both recordings
    and the JSON size of the first flop decision (0 when the hand ended before the flop)."""
    seed = rng.randbytes(32)
    state, _ = start_hand(rules=RULES, seats=SEATS, button=BUTTON, seed=seed)
    script: Script = []
    json_size = 0
    while not state.is_over:
        la = legal_actions(state)
        assert la is not None
        if state.street == 1 and not json_size:
            json_size = len(json.dumps(state.to_json()).encode())
        if la.show or la.muck:
            action: tuple[int, str, int | None] = (la.seat, "show", None)
        elif la.call and rng.random() < 0.15:
            action = (la.seat, "fold", None)
        elif (la.bet or la.raise_) and rng.random() < 0.35:
            pot = state.pot_total
            size = rng.choice([la.min_to, la.min_to + pot, rng.randint(la.min_to, la.max_to),
                               la.max_to])
            action = (la.seat, "bet" if la.bet else "raise", max(la.min_to, min(size, la.max_to)))
        else:
            action = (la.seat, "check" if la.check else "call", None)
        apply_action(state, *action)
        script.append(action)
    return seed, script, pokerkit_ops(state, script), json_size


def pokerkit_ops(state: HandState, script: Script) -> PokerkitOps:
    """Translate a finished hand of ours into pokerkit operations, checking the final stacks."""
    pk = pokerkit_state()
    ops: PokerkitOps = []

    def do(op: str, arg: object = None) -> None:
        ops.append((op, arg))
        run_op(pk, op, arg)

    def sync(board_needed: int) -> None:
        while pk.can_deal_board() and dealt[0] < board_needed:
            count = pk.streets[pk.street_index].board_dealing_count
            do("board", "".join(state.board[dealt[0]:dealt[0] + count]))
            dealt[0] += count

    for p in state.players:
        do("hole", "".join(p.hole))
    dealt = [0]
    index = {p.seat: i for i, p in enumerate(state.players)}
    for seat, action, amount in script:
        if action == "show":
            continue
        sync(len(state.board))
        while pk.actor_index is not None and pk.actor_index != index[seat]:
            do("cc")  # pokerkit's option check for a player nobody can bet against
        do({"fold": "f", "check": "cc", "call": "cc"}.get(action, "cbr"), amount)
    while pk.status:
        if pk.actor_index is not None:
            do("cc")
        elif pk.can_deal_board():
            sync(len(state.board))
        else:
            break
    ours = [p.stack for p in state.players]
    # Equal up to odd chips (pokerkit gives a split pot's whole remainder to the first winner).
    close = all(abs(a - b) < PLAYERS for a, b in zip(pk.stacks, ours, strict=True))
    if pk.status or sum(pk.stacks) != sum(ours) or not close:
        raise AssertionError(f"pokerkit disagrees: {list(pk.stacks)} != {ours}")
    return ops


def run_op(pk: State, op: str, arg: object) -> None:
    if op == "hole":
        pk.deal_hole(arg)
    elif op == "board":
        pk.deal_board(arg)
    elif op == "f":
        pk.fold()
    elif op == "cc":
        pk.check_or_call()
    else:
        pk.complete_bet_or_raise_to(arg)


def run_ours(hands: list[tuple[bytes, Script]]) -> None:
    for seed, script in hands:
        state, _ = start_hand(rules=RULES, seats=SEATS, button=BUTTON, seed=seed)
        for seat, action, amount in script:
            apply_action(state, seat, action, amount)
        assert state.is_over


def run_ours_json(hands: list[tuple[bytes, Script]]) -> None:
    dumps, loads, from_json = json.dumps, json.loads, HandState.from_json
    for seed, script in hands:
        state, _ = start_hand(rules=RULES, seats=SEATS, button=BUTTON, seed=seed)
        saved = dumps(state.to_json())
        for seat, action, amount in script:
            state = from_json(loads(saved))
            apply_action(state, seat, action, amount)
            saved = dumps(state.to_json())
        assert state.is_over


def run_pokerkit(hands: list[PokerkitOps]) -> None:
    for ops in hands:
        pk = pokerkit_state()
        for op, arg in ops:
            run_op(pk, op, arg)
        assert not pk.status


def best_time(fn, arg, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", default="bench-engine")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # pokerkit warns on folds when checking is free

    rng = random.Random(args.seed)
    ours_hands: list[tuple[bytes, Script]] = []
    pk_hands: list[PokerkitOps] = []
    json_sizes: list[int] = []
    for _ in range(args.hands):
        seed, script, ops, json_size = make_script(rng)
        ours_hands.append((seed, script))
        pk_hands.append(ops)
        if json_size:
            json_sizes.append(json_size)
    actions = sum(len(s) for _, s in ours_hands)
    print(f"{args.hands} hands, {actions} actions ({actions / args.hands:.1f}/hand), "
          f"6-max no-limit {BIG_BLIND // 2}/{BIG_BLIND}, stacks {STACK}; best of {args.repeat}")

    ours = best_time(run_ours, ours_hands, args.repeat)
    ours_json = best_time(run_ours_json, ours_hands, args.repeat)
    pk = best_time(run_pokerkit, pk_hands, args.repeat)
    print(f"ours:      {args.hands / ours:10,.0f} hands/s ({ours / args.hands * 1e6:7.1f} us/hand)")
    print(f"ours+json: {args.hands / ours_json:10,.0f} hands/s "
          f"({ours_json / args.hands * 1e6:7.1f} us/hand, JSON round trip after every action)")
    print(f"pokerkit:  {args.hands / pk:10,.0f} hands/s ({pk / args.hands * 1e6:7.1f} us/hand)")
    if json_sizes:
        print(f"mid-hand state JSON (first flop decision): {json_sizes[0]} bytes "
              f"(mean {sum(json_sizes) / len(json_sizes):.0f} over {len(json_sizes)} hands)")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run_ours, ours_hands)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue())
    print(f"ratio_vs_pokerkit={pk / ours:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
