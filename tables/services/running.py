"""Run it twice: a player asked answers (tables/engine/runs.py). The answers' deadline is the
hand's timer (set with the offer in steps.py; `hand_timeout` answers "once" for the silent)."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tables.engine import HandState, IllegalAction, choose_runs
from tables.errors import TableError
from tables.services.eventlog import EventLog
from tables.services.locks import table_lock
from tables.services.steps import engine_step


def hand_run_twice(*, table_id: int, user_id: int, twice: bool) -> list[dict[str, Any]]:
    """Answer the run-it-twice question: `twice` true to run the rest of the board twice,
    false for once (which settles it for everybody). Refusals: `no_hand`, `not_in_hand`, and
    the engine's `no_run_offer`, `not_asked`, `already_answered`. Locks: the table row (a
    finishing hand adds the cashier's)."""
    with transaction.atomic():
        held = table_lock(table_id)
        hand = held.hand
        if hand is None or hand.finished_at is not None:
            raise TableError("no_hand", "No hand is running.")
        state = HandState.from_json(hand.state)
        player = next((p for p in state.players if p.player_id == str(user_id)), None)
        if player is None:
            raise TableError("not_in_hand", "You are not in this hand.")
        try:
            events = choose_runs(state, player.seat, twice)
        except IllegalAction as e:
            raise TableError(e.reason, f"Cannot answer: {e.message}.") from None
        return engine_step(hand, state, events, EventLog(held, hand), timezone.now())
