"""The one pipeline every hand step goes through — a hand's start, an action, a timeout:
decide (the engine, under the table lock) → commit (the new state, its events, the table row,
settlement when the hand ends) → publish (effects.py, after the commit)."""
from __future__ import annotations

import datetime
from collections.abc import Sequence

from tables.engine import HandState, collected_pots
from tables.models import Hand, TableState
from tables.services.finishing import hand_finish
from tables.services.log import EventLog
from tables.services.timebank import BANK_FIELDS, bank_stop
from tables.services.turns import owners_of, turn_next

HAND_TURN_FIELDS = ["state", "version", "deadline", "bonus_used", "turn_started_at",
                    "players_saw_flop", "timer_at"]


def engine_step(ts: TableState, hand: Hand, state: HandState, events: list[dict],
                log: EventLog, now: datetime.datetime, *,
                table_fields: Sequence[str] = ()) -> list[dict]:
    """Record the engine's `events` and save its new `state` (and the table row's
    `table_fields`), then finish the hand or start the next turn. Returns what was recorded.
    A time bank running this turn stops (the player keeps what he did not use: timebank.py).
    Needs the table lock."""
    hand_fields = HAND_TURN_FIELDS
    if hand.bank_seat is not None:  # only then: an ordinary action writes no bank field
        bank_stop(hand, log, now)
        hand_fields = [*HAND_TURN_FIELDS, *BANK_FIELDS]
    pots = collected_pots(state)  # no bets between a step's board events and its end
    for e in events:
        if e["type"] == "board":
            e["pots"] = pots
    log.add_engine(events, owners_of(state))
    if not hand.players_saw_flop and state.flop_seen:
        hand.players_saw_flop = sum(1 for p in state.players if not p.folded)
    hand.state = state.to_json()
    hand.version = state.version
    if state.is_over:
        hand_finish(ts, hand, state, log, now, table_fields=table_fields)
    else:
        turn_next(ts, hand, state, log, now)
        log.flush(hand_fields=hand_fields, table_fields=table_fields)
    return ts.effects.items
