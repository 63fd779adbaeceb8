"""A player's action in a running hand."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from observability import metrics
from tables.engine import HandState, IllegalAction, apply_action
from tables.errors import TableError
from tables.models import TableState
from tables.services.copies import NotOnCopy, copy_offer, copy_take
from tables.services.effects import Effects
from tables.services.eventlog import EventLog
from tables.services.locks import Locked, table_lock
from tables.services.steps import engine_step

PLAYER_ACTIONS = frozenset(("fold", "check", "call", "bet", "raise", "show", "muck"))


def act(*, table_id: int, user_id: int, action: str, amount: int | None = None,
        expected_version: int | None = None) -> list[dict[str, Any]]:
    """Apply the player's action (fold/check/call/bet/raise, show/muck at showdown).

    `expected_version` is the table version the client had applied when it decided. It is
    refused (`stale_version`) only when the hand moved on since — an action, a timeout, a new
    street or a new hand: a decision made on an outdated view of the hand, or the same message
    sent twice. Table events that do not touch the hand (seating, sit out/in, top-ups, someone
    leaving after the hand, a reconnect bonus) do not make it stale. Returns the recorded
    events. Refusals: TableError with the engine's reason or `stale_version`, `no_hand`,
    `unknown_action`. Locks: the table row (a finishing hand adds the cashier's), unless
    committed on this process's copy of the table (copies.py)."""
    if action not in PLAYER_ACTIONS:
        raise TableError("unknown_action", f"Unknown action {action!r}: use one of "
                         f"{', '.join(sorted(PLAYER_ACTIONS))}.")
    copy = copy_take(table_id)
    if copy is not None:
        events = act_on_copy(copy, user_id=user_id, action=action, amount=amount,
                             expected_version=expected_version)
        if events is not None:
            return events
    with transaction.atomic():
        held = table_lock(table_id)
        ts = held.state
        if expected_version is not None and hand_moved_since(ts, expected_version):
            raise TableError("stale_version", f"You acted on version {expected_version}; the "
                             f"hand has moved on (the table is at version {ts.version}).")
        events = act_locked(held, user_id=user_id, action=action, amount=amount)
        copy_offer(held)
        return events


def act_on_copy(copy: Locked, *, user_id: int, action: str, amount: int | None,
                expected_version: int | None) -> list[dict[str, Any]] | None:
    """`act` decided on this process's copy of the table and committed if the table has not
    changed since (copies.py). None when the copy cannot take this action — stale, a refusal
    (the locked path gives it, from the table as it is), a hand's end —: nothing was written,
    and the caller runs the action under the lock."""
    ts = copy.state
    if not ts.hand_running or (expected_version is not None
                               and hand_moved_since(ts, expected_version)):
        return None
    copy.effects = Effects(ts.table_id)
    try:
        events = act_locked(copy, user_id=user_id, action=action, amount=amount, on_copy=True)
    except (TableError, NotOnCopy):
        metrics.COPY_TRIES.labels("locked").inc()
        return None
    copy.effects.count(metrics.COPY_TRIES.labels("committed").inc)
    copy.effects.keep(copy)
    copy.effects.run()
    return events


def act_locked(held: Locked, *, user_id: int, action: str, amount: int | None = None,
               on_copy: bool = False) -> list[dict[str, Any]]:
    """`act` once the table row is locked and the version checked. Needs the table lock, or
    `on_copy`: `held` is this process's copy, committed by `table_sql.copy_commit` if still current
    (a hand's end is NotOnCopy: it settles under the lock)."""
    hand = held.hand
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
    if on_copy and state.is_over:
        raise NotOnCopy("a hand's end settles under the table lock")
    held.effects.count(metrics.ACTIONS.labels(action).inc)
    return engine_step(hand, state, events, EventLog(held, hand, on_copy=on_copy),
                       timezone.now())


def hand_moved_since(ts: TableState, version: int) -> bool:
    """Did the current hand change after table version `version` (or is `version` from the
    future)? Needs the table lock."""
    if version == ts.version:
        return False
    if version > ts.version or ts.hand is None:
        return True
    return version < ts.hand_moved_version
