"""The one pipeline every hand step goes through — a hand's start, an action, a timeout:
decide (the engine, under the table lock) → commit (the new state, its events, the table row,
settlement when the hand ends) → publish (effects.py, after the commit)."""
from __future__ import annotations

import datetime

from tables.engine import HandState, collected_pots, leavers_fold
from tables.models import Hand
from tables.recent import iso
from tables.services.copies import NotOnCopy
from tables.services.eventlog import EventLog
from tables.services.finishing import hand_finish
from tables.services.next_turn import owners_of, turn_next
from tables.services.time_bank import bank_stop


def engine_step(hand: Hand, state: HandState, events: list[dict], log: EventLog,
                now: datetime.datetime) -> list[dict]:
    """Record the engine's `events` and save its new `state` (with whatever else the step
    changed: the log writes it), then finish the hand or start the next turn. Returns what was
    recorded. A player who left during the hand (`hand.leavers`, leaving.py) is folded here
    whenever the action reaches him, in this same step. A time bank running this turn stops
    (the player keeps what he did not use: time_bank.py). Needs the table lock, or the log's
    copy of the table (a step that ends the hand is NotOnCopy: it settles under the lock)."""
    if hand.leavers and not state.is_over:
        events = events + leavers_fold(state, hand.leavers)
    if log.on_copy and state.is_over:  # before anything changed: the locked path redoes it
        raise NotOnCopy("a hand's end settles under the table lock")
    bank_stop(hand, log, now)
    pots = collected_pots(state)  # no bets between a step's board events and its end
    for e in events:
        if e["type"] == "board":
            e["pots"] = pots
        elif e["type"] == "run_twice_offer":  # the answers' deadline: the hand's timer
            hand.deadline = now + datetime.timedelta(seconds=log.held.table.action_seconds)
            e["deadline"] = iso(hand.deadline)
    log.add_engine(events, owners_of(state))
    if not hand.players_saw_flop and state.flop_seen:
        hand.players_saw_flop = sum(1 for p in state.players if not p.folded)
    hand.state = state.to_json()
    hand.version = state.version
    if state.is_over:
        hand_finish(hand, state, log, now)
    else:
        turn_next(hand, state, log, now)
        log.flush()
    return log.held.effects.items
