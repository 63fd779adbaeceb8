"""The next turn: who acts, his deadline, the `turn` event, and the one timeout task a hand
keeps queued."""
from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from tables.engine import HandState, legal_actions, street_name
from tables.models import Hand, Seat, SeatStatus, TableConfig
from tables.recent import iso
from tables.services.eventlog import EventLog

if TYPE_CHECKING:
    from tables.services.locks import Locked

TIMER_SLACK = datetime.timedelta(seconds=1)


def owners_of(state: HandState) -> dict[int, int]:
    """Seat number → user id of the players dealt in (the engine's player_id is the user id)."""
    return {p.seat: int(p.player_id) for p in state.players}


def countdown_at(hand: Hand, table: TableConfig) -> datetime.datetime | None:
    """When the visible countdown starts: `countdown_seconds` before the deadline, or, while
    the player's time bank runs (time_bank.py), when it started (it counts down to the end)."""
    if hand.deadline is None:
        return None
    if hand.bank_started_at is not None:
        return hand.bank_started_at
    return hand.deadline - datetime.timedelta(seconds=table.countdown_seconds)


def turn_next(hand: Hand, state: HandState, log: EventLog, now: datetime.datetime) -> None:
    """The next turn of a running hand: its deadline, the `turn` event (the legal actions in
    the acting player's copy) and, if needed, a timeout task queued after the commit."""
    seat = state.to_act_seat
    if seat is None:  # nobody to act: the players all in are asked to run it twice
        if state.votes is None:
            hand.deadline = None
        else:  # the offer set the deadline (steps.py): no answer by then is "once"
            timer_arm(log.held, hand, now)
        return
    table = log.held.table
    seconds = 0 if away_at_tournament(table, hand, seat) else (
        table.action_seconds + table.countdown_seconds)
    hand.deadline = now + datetime.timedelta(seconds=seconds)
    hand.bonus_used, hand.turn_started_at = False, now
    la = legal_actions(state)
    log.add({"type": "turn", "seat": seat, "street": street_name(state),
             "deadline": iso(hand.deadline), "countdown_at": iso(countdown_at(hand, table)),
             "legal": la.to_json() if la else None}, owner=owners_of(state)[seat])
    timer_arm(log.held, hand, now)


def away_at_tournament(table: TableConfig, hand: Hand, seat: int) -> bool:
    """A player sitting out at a tournament's table is dealt in and blinded off: his turn
    ends at once (the timeout rule acts for him) instead of waiting out his timer."""
    return table.is_tournament and Seat.objects.filter(
        pk=hand.seat_ids[str(seat)], status=SeatStatus.SITTING_OUT).exists()


def timer_armed(hand: Hand, now: datetime.datetime) -> bool:
    """Will the timeout task already queued fire by the turn's deadline?"""
    return (hand.deadline is not None and hand.timer_at is not None
            and now < hand.timer_at <= hand.deadline)


def timer_arm(held: Locked, hand: Hand, now: datetime.datetime) -> bool:
    """Make sure a timeout task fires by the turn's deadline: when none will, set `timer_at`
    (the caller saves it) and queue one after the commit. True when it did.

    One task per hand is outstanding: deadlines only move later, so while the queued task
    fires no later than the current deadline, a new turn queues nothing. When that task finds
    the turn moved on it re-arms for the turn then current (`hand_timeout`). This spares a
    queued task (and the worker's work on it) for every action. Needs the table lock."""
    if hand.deadline is None or timer_armed(hand, now):
        return False
    hand.timer_at = hand.deadline
    held.effects.timeout_queue(hand_id=hand.pk, version=hand.version, deadline=hand.deadline)
    return True
