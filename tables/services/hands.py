"""Hands: start, act, timeout, reconnect bonus, finish (settle through the cashier).

Every function runs in one transaction that takes the table lock first (see `locks.py`) and
schedules its side effects (broadcast, timers) with `transaction.on_commit`."""
from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from cashier.errors import CashierError
from cashier.services import apply_top_ups, cash_out, settle_hand
from tables import timers
from tables.engine import (
    HandState,
    IllegalAction,
    SeatIn,
    TimeoutPolicy,
    apply_action,
    blind_seats,
    legal_actions,
    new_seed,
    next_button,
    start_hand,
)
from tables.errors import TableError
from tables.models import (
    Hand,
    HandSummary,
    Seat,
    SeatStatus,
    TableConfig,
    TableState,
    TimeoutAllIn,
)
from tables.services import hot
from tables.services import log as event_log
from tables.services.locks import table_lock
from tables.services.log import EventLog
from tables.services.rows import statements_run, update_statement

TIMER_SLACK = datetime.timedelta(seconds=1)
PLAYER_ACTIONS = frozenset(("fold", "check", "call", "bet", "raise", "show", "muck"))
PREFLOP = 0


def owners_of(state: HandState) -> dict[int, int]:
    """Seat number → user id of the players dealt in (the engine's player_id is the user id)."""
    return {p.seat: int(p.player_id) for p in state.players}


def iso(moment: datetime.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# Starting ------------------------------------------------------------------------------------
def _dealt_seats(ts: TableState, seats: list[Seat]) -> tuple[int, list[Seat]] | None:
    """(button, seats dealt in) for the next hand, or None when fewer than two can play.

    Players who owe a big blind (`waiting_bb`) are dealt in when the big blind reaches them, or
    at once when they chose to post it (`post_bb`). A table where fewer than two players are
    playing is not a running game: everyone eligible is dealt in free."""
    eligible = [s for s in seats if s.chips > 0 and s.status != SeatStatus.SITTING_OUT
                and not s.leave_after_hand]
    playing = [s for s in eligible if s.status == SeatStatus.PLAYING]
    if len(playing) < 2:
        playing, waiting = eligible, []
    else:
        waiting = [s for s in eligible if s.status == SeatStatus.WAITING_BB]
    if len(playing) < 2:
        return None
    if ts.button_seat is None:
        order = [s.number for s in sorted(playing, key=lambda s: (s.created_at, s.pk))]
    else:
        order = sorted(s.number for s in playing)
    button = next_button(ts.button_seat, order)
    dealt = list(playing)
    for w in sorted(waiting, key=lambda s: s.number):
        numbers = sorted([s.number for s in playing] + [w.number])
        if blind_seats(button, numbers)[1] == w.number:
            dealt.append(w)
            break
    return button, sorted(dealt, key=lambda s: s.number)


def hand_start(*, table_id: int, force: bool = False) -> Hand | None:
    """Deal the next hand if none runs, the pause is over (or `force`) and two can play.

    Applies pending top-ups first, moves the button, posts blinds (and extra live big blinds),
    deals from a fresh committed seed and marks sitting-out players who miss a blind.
    Locks: the table row, then the cashier's (top-ups), then the seats."""
    with transaction.atomic():
        ts = table_lock(table_id)
        table = ts.table
        now = timezone.now()
        if ts.hand_running or not table.is_active:
            return None
        if not force and ts.next_hand_at is not None and ts.next_hand_at > now:
            return None
        log = EventLog(ts)
        applied = apply_top_ups(table=table)
        seats = list(Seat.objects.select_for_update().filter(table=table)
                     .select_related("player").order_by("pk"))
        if applied:
            log.add({"type": "stacks", "stacks": {str(s.number): s.chips for s in seats}})
        picked = _dealt_seats(ts, seats)
        if picked is None:
            ts.next_hand_at = None
            ts.save(update_fields=["next_hand_at"])
            log.flush()
            return None
        button, dealt = picked
        state, events = start_hand(
            rules=table.engine_rules(),
            seats=[SeatIn(seat=s.number, player_id=str(s.player_id), stack=s.chips,
                          post_bb=s.post_bb) for s in dealt],
            button=button, seed=new_seed(),
        )
        hand = Hand.objects.create(
            table=table, number=ts.hands_dealt + 1, state=state.to_json(), version=state.version,
            seat_ids={str(s.number): s.pk for s in dealt}, commitment=state.commitment or "",
        )
        dealt_numbers = [s.number for s in dealt]
        changed = []
        for s in seats:
            before = (s.post_bb, s.missed_blinds, s.status)
            if s in dealt:
                s.post_bb = s.missed_blinds = False
                s.status = SeatStatus.PLAYING
            elif s.status == SeatStatus.SITTING_OUT and s.number in blind_seats(
                    button, sorted([*dealt_numbers, s.number])):
                s.missed_blinds = True
            if (s.post_bb, s.missed_blinds, s.status) != before:
                changed.append(s)
        if changed:  # usually none: regulars are already playing, owing nothing
            statements_run([update_statement(s, ["post_bb", "missed_blinds", "status"])
                            for s in changed])
        ts.button_seat, ts.hand, ts.hands_dealt, ts.next_hand_at = button, hand, hand.number, None
        log.hand = hand
        names = {s.number: s.player.table_name for s in dealt}
        first, rest = events[0], events[1:]
        log.add({
            **{k: v for k, v in first.items() if k != "version"},
            "hand_id": hand.pk, "number": hand.number,
            "small_blind": table.small_blind_amount, "big_blind": table.big_blind,
            "players": [{"seat": p.seat, "player_id": int(p.player_id), "name": names[p.seat],
                         "stack": p.start_stack} for p in state.players],
        })
        log.add_engine(rest, owners_of(state))
        _after_engine(ts, hand, state, log, now,
                      table_fields=["button_seat", "hand", "hands_dealt", "next_hand_at"])
        return hand


# Acting --------------------------------------------------------------------------------------
def act(*, table_id: int, user_id: int, action: str, amount: int | None = None,
        expected_version: int | None = None) -> list[dict[str, Any]]:
    """Apply the player's action (fold/check/call/bet/raise, show/muck at showdown).

    `expected_version` is the table version the client had applied when it decided. It is
    refused (`stale_version`) only when the hand moved on since — an action, a timeout, a new
    street or a new hand: a decision made on an outdated view of the hand, or the same message
    sent twice. Table events that do not touch the hand (seating, sit out/in, top-ups, someone
    leaving after the hand, a reconnect bonus) do not make it stale. Returns the recorded
    events. Refusals: TableError with the engine's reason or `stale_version`, `no_hand`,
    `unknown_action`. Locks: the table row (a finishing hand adds the cashier's), except for
    a step in the middle of a hand at a table this process remembers (`_act_hot`)."""
    if action not in PLAYER_ACTIONS:
        raise TableError("unknown_action", f"Unknown action {action!r}: use one of "
                         f"{', '.join(sorted(PLAYER_ACTIONS))}.")
    sent = _act_hot(table_id=table_id, user_id=user_id, action=action, amount=amount,
                    expected_version=expected_version)
    if sent is not None:
        return sent
    with transaction.atomic():
        ts = table_lock(table_id)
        if expected_version is not None and _hand_moved_since(ts, expected_version):
            raise TableError("stale_version", f"You acted on version {expected_version}; the "
                             f"hand has moved on (the table is at version {ts.version}).")
        hand = ts.hand
        if hand is None or hand.finished_at is not None:
            raise TableError("no_hand", "No hand is running.")
        state = HandState.from_json(hand.state)
        seat = next((p.seat for p in state.players if p.player_id == str(user_id)), None)
        if seat is None:
            raise TableError("not_in_hand", "You are not in this hand.")
        try:
            events = apply_action(state, seat, action, amount)
        except IllegalAction as e:
            raise TableError(e.reason, f"Cannot {action}: {e.message}.") from None
        log = EventLog(ts, hand)
        log.add_engine(events, owners_of(state))
        return _after_engine(ts, hand, state, log, timezone.now())


def _act_hot(*, table_id: int, user_id: int, action: str, amount: int | None,
             expected_version: int | None) -> list[dict[str, Any]] | None:
    """The action decided on this process's copy of the table and written in one statement
    that applies only if the table is still at that copy's version (hot.py). Takes no lock.
    None, with nothing written, whenever the locked path must decide: no copy, a refusal of
    any kind (decided afresh under the lock), the hand ending (settlement), or the table
    having moved on."""
    entry = hot.get(table_id)
    if entry is None or connection.in_atomic_block:
        return None
    ts, hand = entry.checkout()
    if expected_version is not None and _hand_moved_since(ts, expected_version):
        return None
    state = HandState.from_json(hand.state)
    seat = next((p.seat for p in state.players if p.player_id == str(user_id)), None)
    if seat is None:
        return None
    try:
        events = apply_action(state, seat, action, amount)
    except IllegalAction:
        return None
    if state.is_over:
        return None
    before, now = ts.version, timezone.now()
    log = EventLog(ts, hand)
    log.add_engine(events, owners_of(state))
    _hand_update(hand, state)
    armed = _turn_next(ts, hand, state, log, now)
    rows, sent, _ = log.number()
    fields = HAND_TURN_FIELDS if armed else [f for f in HAND_TURN_FIELDS if f != "timer_at"]
    if not hot.apply(ts=ts, hand=hand, before=before, rows=rows, hand_fields=fields):
        return None
    event_log.events_broadcast(table_id=table_id, items=sent)  # committed: send at once
    if armed:
        timers.timeout_schedule(hand_id=hand.pk, version=hand.version, deadline=hand.deadline)
    return sent


def _hand_moved_since(ts: TableState, version: int) -> bool:
    """Did the current hand change after table version `version` (or is `version` from the
    future)? Needs the table lock."""
    if version == ts.version:
        return False
    if version > ts.version or ts.hand is None:
        return True
    return version < ts.hand_moved_version


def hand_timeout(*, hand_id: int, version: int) -> bool:
    """Act for the player to act when the turn's deadline has passed (table policy), and sit
    him out: an absent player is not dealt the next hands until he sends `sit_in`.

    Idempotent and duplicate-safe: does nothing to the hand unless it is still at `version`
    and its deadline is over. A task that finds the turn moved on (or extended) re-arms the
    timer for the current turn unless a queued task already covers it (`_arm_timer`).
    Timeout all-ins are capped per player per day (then he folds).
    Locks: the table row (a finishing hand adds the cashier's)."""
    now = timezone.now()
    peek = (Hand.objects.filter(pk=hand_id)  # the timer fields only, not the state JSON
            .only("table_id", "version", "deadline", "timer_at", "finished_at").first())
    if peek is None or peek.finished_at is not None or (
            _timer_armed(peek, now + TIMER_SLACK) and not _due(peek, version, now)):
        return False  # over, or a later queued task covers the turn: no lock needed
    with transaction.atomic():
        ts = table_lock(peek.table_id)
        hand = ts.hand
        now = timezone.now()
        if hand is None or hand.pk != hand_id or hand.finished_at is not None:
            return False
        if not _due(hand, version, now):
            # A task due within TIMER_SLACK is taken to be this one (a task may run a moment
            # early): queue the next for the current deadline.
            if _arm_timer(hand, now + TIMER_SLACK):
                hand.save(update_fields=["timer_at"])
                _timer_queue(hand)
            return False
        state = HandState.from_json(hand.state)
        seat = state.to_act_seat
        if seat is None:
            return False
        player_id = owners_of(state)[seat]
        table = ts.table
        allow = True
        if state.rules.timeout_policy is TimeoutPolicy.SEEDS:
            midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
            used = TimeoutAllIn.objects.filter(player_id=player_id, created_at__gte=midnight).count()
            allow = used < table.timeout_allin_daily_cap
        events = apply_action(state, seat, "timeout", None, allow_timeout_allin=allow)
        if any(e.get("action") == "timeout_allin" for e in events):
            TimeoutAllIn.objects.create(player_id=player_id, hand=hand)
        log = EventLog(ts, hand)
        owners = owners_of(state)
        log.add_engine(events[:1], owners)  # what the server did for him, then his seat's status
        absent = _sit_out_absent(seat_id=hand.seat_ids[str(seat)], now=now)
        if absent is not None:
            log.add(absent)
        log.add_engine(events[1:], owners)  # the hand goes on (or ends: hand_end stays last)
        _after_engine(ts, hand, state, log, now)
        return True


def _due(hand: Hand, version: int, now: datetime.datetime) -> bool:
    return hand.version == version and hand.deadline is not None and hand.deadline <= now


def _sit_out_absent(*, seat_id: int, now: datetime.datetime) -> dict[str, Any] | None:
    """A player the server had to act for sits out from the next hand on (he plays this one to
    its end as it stands), exactly as if he had sent `sit_out`: blinds he misses are owed,
    `sit_in` brings him back, the table's sit-out limit removes him. Returns the `status`
    event, or None when he already sits out or leaves after this hand. Needs the table lock."""
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None or seat.status == SeatStatus.SITTING_OUT or seat.leave_after_hand:
        return None
    seat.status, seat.post_bb, seat.sat_out_at = SeatStatus.SITTING_OUT, False, now
    seat.save(update_fields=["status", "post_bb", "sat_out_at"])
    return {"type": "status", "seat": seat.number, "status": seat.status,
            "post_bb": seat.post_bb, "missed_blinds": seat.missed_blinds}


def hand_reconnect_bonus(*, table_id: int, user_id: int) -> bool:
    """A player who (re)connects during his own turn gets `countdown_seconds` more, once per
    turn. Locks: the table row (only when it is the player's turn: every connect calls this)."""
    current = TableState.objects.filter(pk=table_id).select_related("hand").first()
    hand = current.hand if current is not None else None
    if hand is None or hand.finished_at is not None or hand.bonus_used:
        return False
    peek = HandState.from_json(hand.state)
    if peek.to_act_seat is None or owners_of(peek)[peek.to_act_seat] != user_id:
        return False
    with transaction.atomic():
        ts = table_lock(table_id)
        hand = ts.hand
        if hand is None or hand.finished_at is not None or hand.bonus_used or hand.deadline is None:
            return False
        state = HandState.from_json(hand.state)
        seat = state.to_act_seat
        if seat is None or owners_of(state)[seat] != user_id:
            return False
        table = ts.table
        hand.deadline += datetime.timedelta(seconds=table.countdown_seconds)
        hand.bonus_used = True
        hand.save(update_fields=["deadline", "bonus_used"])  # the armed timer re-arms
        log = EventLog(ts, hand)
        log.add({"type": "deadline_extended", "seat": seat, "deadline": iso(hand.deadline),
                 "countdown_at": iso(countdown_at(hand, table)), "reason": "reconnect"})
        log.flush()
        return True


def countdown_at(hand: Hand, table: TableConfig) -> datetime.datetime | None:
    if hand.deadline is None:
        return None
    return hand.deadline - datetime.timedelta(seconds=table.countdown_seconds)


def _timer_armed(hand: Hand, now: datetime.datetime) -> bool:
    """Will the timeout task already queued fire by the turn's deadline?"""
    return (hand.deadline is not None and hand.timer_at is not None
            and now < hand.timer_at <= hand.deadline)


def _arm_timer(hand: Hand, now: datetime.datetime) -> bool:
    """Make sure a timeout task fires by the turn's deadline: True when one must be queued
    (`timer_at` is set; the caller saves it and then calls `_timer_queue`).

    One task per hand is outstanding: deadlines only move later, so while the queued task fires
    no later than the current deadline, a new turn queues nothing. When that task finds the
    turn moved on it re-arms for the turn then current (`hand_timeout`). This spares a queued
    task (and the worker's work on it) for every action. Needs the table lock."""
    if hand.deadline is None or _timer_armed(hand, now):
        return False
    hand.timer_at = hand.deadline
    return True


def _timer_queue(hand: Hand) -> None:
    """On commit, queue the timeout task `_arm_timer` asked for. Call after the events are
    flushed: hooks run in the order they were registered, and queueing a Celery task takes a
    round trip to the broker that the broadcast should not wait for (a later commit's
    broadcast at the same table could overtake it, and sockets would see a gap)."""
    hand_id, version, deadline = hand.pk, hand.version, hand.deadline
    transaction.on_commit(lambda: timers.timeout_schedule(
        hand_id=hand_id, version=version, deadline=deadline))


HAND_TURN_FIELDS = ["state", "version", "deadline", "bonus_used", "players_saw_flop",
                    "timer_at"]


def _after_engine(ts: TableState, hand: Hand, state: HandState, log: EventLog,
                  now: datetime.datetime, *, table_fields: Sequence[str] = ()
                  ) -> list[dict[str, Any]]:
    """Save the engine's new state (and the table row's `table_fields`), then finish the hand
    or start the next turn's timer."""
    _hand_update(hand, state)
    if state.is_over:
        return _hand_finish(ts, hand, state, log, now, table_fields=table_fields)
    armed = _turn_next(ts, hand, state, log, now)
    events = log.flush(hand_fields=HAND_TURN_FIELDS, table_fields=table_fields)
    if armed:
        _timer_queue(hand)
    return events


def _hand_update(hand: Hand, state: HandState) -> None:
    if not hand.players_saw_flop and state.flop_seen:
        hand.players_saw_flop = sum(1 for p in state.players if not p.folded)
    hand.state = state.to_json()
    hand.version = state.version


def _turn_next(ts: TableState, hand: Hand, state: HandState, log: EventLog,
               now: datetime.datetime) -> bool:
    """The next turn of a running hand: its deadline and `turn` event (with the legal actions
    in the acting player's copy). True when a timeout task must be queued (`_arm_timer`)."""
    seat = state.to_act_seat
    if seat is None:  # the engine always names someone until the hand is over
        hand.deadline = None
        return False
    table = ts.table
    hand.deadline = now + datetime.timedelta(
        seconds=table.action_seconds + table.countdown_seconds)
    hand.bonus_used = False
    turn = {"type": "turn", "seat": seat, "deadline": iso(hand.deadline),
            "countdown_at": iso(countdown_at(hand, table))}
    la = legal_actions(state)
    log.add(turn, private_for=owners_of(state)[seat],
            private={**turn, "legal": la.to_json() if la else None})
    return _arm_timer(hand, now)


def _hand_finish(ts: TableState, hand: Hand, state: HandState, log: EventLog,
                 now: datetime.datetime, *, table_fields: Sequence[str] = ()
                 ) -> list[dict[str, Any]]:
    """Settle the finished hand in the same transaction as its final state: stacks and rake
    through the cashier, a HandSummary for the lobby, leavers cashed out, next hand timed."""
    table = ts.table
    result = state.result or {}
    rake = int(result.get("rake", 0))
    deltas = {hand.seat_ids[str(p.seat)]: p.stack - p.start_stack for p in state.players}
    try:
        settle_hand(table=table, hand_id=str(hand.pk), deltas=deltas, rake=rake)
    except CashierError as e:  # a bug, never a player's fault: do not lose the hand silently
        raise RuntimeError(f"settling hand {hand.pk} failed: {e.code}: {e.message}") from e
    hand.finished_at, hand.deadline, hand.seed = now, None, state.seed or ""
    HandSummary.objects.create(
        table=table, finished_at=now, pot=sum(p.total for p in state.players),
        players_dealt=len(state.players), players_saw_flop=hand.players_saw_flop,
    )
    ts.next_hand_at = now + datetime.timedelta(seconds=table.hand_pause_seconds)
    # the engine's hand_end is last: enrich it
    tail = log.items[-1][0] if log.items and log.items[-1][0]["type"] == "hand_end" else None
    if tail is not None:
        tail.update({"hand_id": hand.pk, "next_hand_at": iso(ts.next_hand_at)})
    log.add({"type": "stacks", "stacks": {str(p.seat): p.stack for p in state.players}})
    for seat in Seat.objects.filter(table=table, leave_after_hand=True).order_by("pk"):
        log.add(seat_remove(seat=seat, key=f"leave:{seat.pk}:{hand.pk}"))
    busted = [hand.seat_ids[str(p.seat)] for p in state.players if p.stack == 0]
    if busted:  # out of chips and nothing coming: sit out (a top-up brings him back)
        for seat in (Seat.objects.filter(pk__in=busted, leave_after_hand=False)
                     .exclude(status=SeatStatus.SITTING_OUT)
                     .exclude(top_ups__status="pending").order_by("pk")):
            seat.status, seat.post_bb, seat.sat_out_at = SeatStatus.SITTING_OUT, False, now
            seat.save(update_fields=["status", "post_bb", "sat_out_at"])
            log.add({"type": "status", "seat": seat.number, "status": seat.status,
                     "post_bb": seat.post_bb, "missed_blinds": seat.missed_blinds})
    events = log.flush(
        hand_fields=["state", "version", "deadline", "players_saw_flop", "finished_at", "seed"],
        table_fields=[*table_fields, "next_hand_at"])
    schedule_next_hand(ts)  # after the broadcast's hook: a hand due now is dealt in that hook
    return events


def seat_remove(*, seat: Seat, key: str) -> dict[str, Any]:
    """Cash the seat out and free it; returns the `seat_left` event. Needs the table lock."""
    out = cash_out(seat=seat, idempotency_key=key)
    number, player_id = seat.number, seat.player_id
    seat.delete()
    return {"type": "seat_left", "seat": number, "player_id": player_id, "cashed_out": out.amount}


def schedule_next_hand(ts: TableState) -> None:
    """On commit, queue `hand_start` at `next_hand_at` (if set)."""
    if ts.next_hand_at is None:
        return
    table_id, at = ts.pk, ts.next_hand_at
    transaction.on_commit(lambda: timers.hand_start_schedule(table_id=table_id, at=at))
