"""Fold and leave: a player who leaves during a hand he is in never makes the table wait for
him. On his turn his hand is folded at once; before it, when the action reaches him — both
through the pipeline's engine step (steps.py), which acts for every seat in `Hand.leavers`.
He is cashed out and unseated when the hand ends (finishing.py, `leave_after_hand`), through
the cashier like any leave. The leave request itself is `seating.seat_leave`."""
from __future__ import annotations

from django.utils import timezone

from tables.engine import HandState
from tables.models import Hand, Seat
from tables.services.eventlog import EventLog
from tables.services.steps import engine_step


def hand_leave(log: EventLog, *, hand: Hand, seat: Seat) -> bool:
    """`seat` (tracked by `log`, in the running `hand`) leaves: he is marked to leave after
    the hand (not dealt again), named in `hand.leavers`, and a `leaving` event is recorded;
    if it is his turn he folds now (or shows or mucks at showdown), in this step. Returns True
    when that ended the hand and he is gone already. Saying it twice changes nothing.
    Needs the table lock; writes with `log` (flushed here)."""
    if seat.leave_after_hand:
        return False
    seat.leave_after_hand = True
    log.hand = hand  # the hand's `leavers` are written with the event
    hand.leavers = [*hand.leavers, seat.number]  # a new list: tracking compares by identity
    log.add({"type": "leaving", "seat": seat.number})
    log.flush()  # written before a fold that ends the hand reads the seats to settle it
    state = HandState.from_json(hand.state)
    if state.to_act_seat != seat.number:
        return False
    engine_step(hand, state, [], log, timezone.now())  # folds him: `Hand.leavers`
    return state.is_over
