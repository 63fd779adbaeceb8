"""Timeouts: the rule applied when a turn's deadline passes, and the reconnect bonus."""
from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from observability import metrics
from tables.engine import HandState, TimeoutPolicy, apply_action, choose_runs
from tables.models import Hand, Seat, SeatStatus, TimeoutAllIn
from tables.recent import iso
from tables.services.eventlog import EventLog
from tables.services.locks import table_lock
from tables.services.next_turn import TIMER_SLACK, countdown_at, owners_of, timer_arm, timer_armed
from tables.services.sitout import seat_sit_out
from tables.services.steps import engine_step
from tables.services.time_bank import bank_start


def hand_timeout(*, hand_id: int, version: int) -> bool:
    """Act for the player to act when the turn's deadline has passed (table policy), and sit
    him out: an absent player is not dealt the next hands until he sends `sit_in`.

    Idempotent and duplicate-safe: does nothing to the hand unless it is still at `version`
    and its deadline is over. A task that finds the turn moved on (or extended) re-arms the
    timer for the current turn unless a queued task already covers it (`timer_arm`).
    Timeout all-ins are capped per player per day (then he folds). Players asked to run it
    twice who have not answered by the deadline answer "once" (nobody is sat out for it). At a table with a time
    bank, a player with seconds in his bank gets them first (`bank_start`: the deadline moves
    on, nobody acts for him yet; returns False); the rule applies when they run out too.
    Locks: the table row (a finishing hand adds the cashier's)."""
    now = timezone.now()
    peek = (Hand.objects.filter(pk=hand_id)  # the timer fields only, not the state JSON
            .only("table_id", "version", "deadline", "timer_at", "finished_at").first())
    if peek is None or peek.finished_at is not None or (
            timer_armed(peek, now + TIMER_SLACK) and not _due(peek, version, now)):
        return False  # over, or a later queued task covers the turn: no lock needed
    with transaction.atomic():
        held = table_lock(peek.table_id)
        hand = held.hand
        now = timezone.now()
        if hand is None or hand.pk != hand_id or hand.finished_at is not None:
            return False
        if not _due(hand, version, now):
            # A task due within TIMER_SLACK is taken to be this one (a task may run a moment
            # early): queue the next for the current deadline.
            if timer_arm(held, hand, now + TIMER_SLACK):
                EventLog(held, hand).flush()  # the timer's field, no event
            return False
        state = HandState.from_json(hand.state)
        seat = state.to_act_seat
        if seat is None and state.votes is not None:  # run it twice unanswered: once
            silent = next(s for s, v in state.votes.items() if v is None)
            engine_step(hand, state, choose_runs(state, silent, False), EventLog(held, hand),
                        now)
            return True
        if seat is None:
            return False
        if bank_start(held, hand, seat, now):
            return False
        player_id = owners_of(state)[seat]
        metrics.TIMER_LATENESS.observe((now - hand.deadline).total_seconds())
        held.effects.count(metrics.ACTIONS.labels("timeout").inc)
        allow = True
        if state.rules.timeout_policy is TimeoutPolicy.SEEDS:
            midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
            used = TimeoutAllIn.objects.filter(player_id=player_id, created_at__gte=midnight).count()
            allow = used < held.table.timeout_allin_daily_cap
        events = apply_action(state, seat, "timeout", None, allow_timeout_allin=allow)
        if any(e.get("action") == "timeout_allin" for e in events):
            TimeoutAllIn.objects.create(player_id=player_id, hand=hand)
        log = EventLog(held, hand)
        log.add_engine(events[:1], owners_of(state))  # what the server did for him, then
        absent = _sit_out_absent(log, seat_id=hand.seat_ids[str(seat)], now=now)  # his status
        if absent is not None:
            log.add(absent)
        engine_step(hand, state, events[1:], log, now)  # the hand goes on (or ends)
        return True


def _due(hand: Hand, version: int, now: datetime.datetime) -> bool:
    return hand.version == version and hand.deadline is not None and hand.deadline <= now


def _sit_out_absent(log: EventLog, *, seat_id: int, now: datetime.datetime
                    ) -> dict[str, Any] | None:
    """A player the server had to act for sits out from the next hand on, exactly as if he had
    sent `sit_out` (`seat_sit_out`). Returns the `status` event, or None when he already sits
    out or leaves after this hand. Needs the table lock."""
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None or seat.status == SeatStatus.SITTING_OUT or seat.leave_after_hand:
        return None
    return seat_sit_out(log.track(seat), now)


def hand_reconnect_bonus(*, table_id: int, user_id: int,
                         dropped_at: datetime.datetime | None) -> bool:
    """The rule: "if a player gets disconnected and reconnects and it is still his turn (he
    has some seconds left), he gets 20 more seconds" (`countdown_seconds`). Only a player whose
    every socket had dropped (`dropped_at`, from `presence_join`) during his own turn and who
    is back before its deadline; once per turn. A second tab, or a reconnect after the
    deadline, gets nothing. Locks: the table row (only when the rule may apply)."""
    if dropped_at is None:
        return False
    with transaction.atomic():
        held = table_lock(table_id)
        hand, now = held.hand, timezone.now()
        if (hand is None or hand.finished_at is not None or hand.bonus_used
                or hand.deadline is None or hand.deadline <= now
                or hand.turn_started_at is None or dropped_at < hand.turn_started_at):
            return False
        state = HandState.from_json(hand.state)
        seat = state.to_act_seat
        if seat is None or owners_of(state)[seat] != user_id:
            return False
        table = held.table
        hand.deadline += datetime.timedelta(seconds=table.countdown_seconds)
        hand.bonus_used = True
        log = EventLog(held, hand)
        log.add({"type": "deadline_extended", "seat": seat, "deadline": iso(hand.deadline),
                 "countdown_at": iso(countdown_at(hand, table)), "reason": "reconnect"})
        log.flush()  # the armed timer re-arms
        return True
