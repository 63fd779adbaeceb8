"""Random finished hands played by the engine, as hand records (no database): every kind of
hand the room's tables produce, for the export tests to read back with pokerkit.

Each hand: a random structure (NL, PL, FL), 2-6 players with short and deep stacks, sometimes
antes or a big-blind ante, rake, a new player posting a big blind out of position, timeouts
(a timeout all-in while money is in, else a fold), and cards shown after the hand as the room
allows (``tables.services.showing.hand_show``: any dealt hand, in the pause).
"""
from __future__ import annotations

import datetime
import random

from tables.engine import (
    RakeRule,
    SeatIn,
    Structure,
    TableRules,
    apply_action,
    describe,
    legal_actions,
    start_hand,
)
from tables.histories.record import HandRecord
from tests.engine.random_play import random_action

STRUCTURES = {Structure.NO_LIMIT: "NL", Structure.POT_LIMIT: "PL", Structure.FIXED_LIMIT: "FL"}
STARTED = datetime.datetime(2026, 11, 26, 6, 2, 3, tzinfo=datetime.UTC)


def random_record(rng: random.Random, number: int = 1) -> HandRecord:
    """One random finished hand; seat ``s`` is user ``100 + s`` named ``player{s}``."""
    structure = rng.choice(list(Structure))
    real = rng.random() < 0.5
    ante = rng.choice([0, 0, 1, 3])
    rules = TableRules(
        structure=structure, lower_stake=10, ante=ante, bb_ante=bool(ante) and rng.random() < 0.3,
        rake=RakeRule(percent_bp=rng.choice([0, 500]), cap=rng.choice([None, 30])),
    )
    seat_numbers = rng.sample(range(1, 10), rng.randint(2, 6))
    # Now and then a new player posts a live big blind at once (from any seat: the engine
    # ignores it for the blinds themselves).
    newcomer = rng.choice(seat_numbers) if len(seat_numbers) > 2 and rng.random() < 0.25 else 0
    seats = [SeatIn(seat=s, player_id=str(100 + s), post_bb=s == newcomer, stack=rng.choice(
        [rng.randint(1, 60), rng.randint(100, 400), 1000])) for s in seat_numbers]
    button = rng.choice(seat_numbers)
    state, events = start_hand(rules=rules, seats=seats, button=button, seed=rng.randbytes(32))
    while not state.is_over:
        la = legal_actions(state)
        assert la is not None
        events += apply_action(state, la.seat, *random_action(la, rng, timeout_rate=0.04))
    for p in state.players:  # shown in the pause after the hand, as hand_show does
        if not p.shown and rng.random() < 0.1:
            p.shown = True
            shown = {"type": "shown", "seat": p.seat, "cards": list(p.hole)}
            if len(state.board) == 5:
                shown["description"] = describe(state.board + list(p.hole))
            events.append(shown)
    seat_list = [p.seat for p in state.players]
    return HandRecord(
        hand_id=1000 + number, number=number, table_id=1, table_name="Elm", max_seats=9,
        structure=STRUCTURES[structure], real_money=real,
        started_at=STARTED + datetime.timedelta(minutes=number),
        finished_at=STARTED + datetime.timedelta(minutes=number, seconds=40),
        state=state, events=events, names={s: f"player{s}" for s in seat_list},
        users={s: 100 + s for s in seat_list},
    )


def random_records(seed: str, count: int) -> list[HandRecord]:
    rng = random.Random(seed)
    return [random_record(rng, k) for k in range(1, count + 1)]


def pokerkit_convention_differs(record: HandRecord) -> str:
    """Why pokerkit may end this hand with other stacks than the room, by a convention that
    tests/engine/test_vs_pokerkit.py documents ("" when none applies): a big blind posted short
    or not at all (all in on the ante: pokerkit lowers the bet to the post), a short all-in
    raise (pokerkit re-opens the betting or counts it towards the fixed-limit cap), or a pot
    split three or more ways with two odd chips or more (pokerkit gives them all to the first
    winner, the room one each clockwise from the button)."""
    state = record.state
    rules = state.rules
    if not any(e["type"] == "posted_blind" and e["kind"] == "bb" for e in record.events):
        return "short big blind"  # all in on his big-blind ante: he posts no blind at all
    for e in record.events:
        if e["type"] == "posted_blind" and e["kind"] == "bb" and e["amount"] < rules.lower_stake:
            return "short big blind"
        if e["type"] == "action" and e["action"] in ("bet", "raise") and e.get("allin"):
            return "all-in raise"
    for pot in (state.result or {}).get("pots", []):
        if len(pot["winners"]) > 2 and pot["amount"] % len(pot["winners"]) > 1:
            return "split pot with odd chips"
    return ""
