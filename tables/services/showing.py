"""Seat choices that wait for the next hand (always show, straddle), and showing cards by
choice. Room tables settle showdowns without asking anyone (the engine's
`auto_showdown`: a hand that cannot win is mucked), so a player chooses ahead ("always show")
or shows in the pause after the hand; neither ever holds up the next hand."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tables.engine import HandState, describe
from tables.errors import TableError
from tables.models import Seat
from tables.services.acting import act_locked
from tables.services.eventlog import EventLog
from tables.services.locks import table_lock
from tables.services.table_sql import seat_find


def seat_always_show(*, table_id: int, user_id: int, on: bool) -> Seat:
    """Show a losing hand at showdown instead of mucking it, from the next hand on (the hand
    running keeps the choice it was dealt with). Private: nothing is broadcast.
    Locks: the table row."""
    with transaction.atomic():
        held = table_lock(table_id)
        log = EventLog(held)
        seat = seat_find(held.state.pk, user_id)
        if seat is None:
            raise TableError("not_seated", "You are not seated at this table.")
        log.track(seat).always_show = on
        log.flush()  # no event: his choice is his own
        return seat


def seat_straddle(*, table_id: int, user_id: int, on: bool) -> Seat:
    """Straddle (two big blinds, live) whenever under the gun, from the next hand on; the hand
    running keeps what it was dealt with. Refusals: `not_seated`, `no_straddle` (the table does
    not allow it). Private: nothing is broadcast. Locks: the table row."""
    with transaction.atomic():
        held = table_lock(table_id)
        if on and not held.table.straddle_allowed:
            raise TableError("no_straddle", "This table does not allow straddles.")
        log = EventLog(held)
        seat = seat_find(held.state.pk, user_id)
        if seat is None:
            raise TableError("not_seated", "You are not seated at this table.")
        log.track(seat).straddle = on
        log.flush()  # no event: like always_show, his choice is his own until he posts it
        return seat


def hand_show(*, table_id: int, user_id: int) -> list[dict[str, Any]]:
    """Show one's hole cards: at a showdown that asks (tables replaying a hand), that is the
    engine's `show`; after the hand, while the table pauses before the next one, the cards are
    turned up for everyone (a `shown` event; the hand's history shows them too). A folded,
    mucked or uncontested hand may be shown; the pause is never lengthened for it.
    Refusals: `no_hand`, `not_at_showdown` (a hand runs), `not_in_hand`, `already_shown`,
    `too_late`. Locks: the table row."""
    with transaction.atomic():
        held = table_lock(table_id)
        ts, hand = held.state, held.hand
        if hand is None:
            raise TableError("no_hand", "There is no hand to show.")
        state = HandState.from_json(hand.state)
        if hand.finished_at is None and not state.rules.auto_showdown:
            return act_locked(held, user_id=user_id, action="show")
        if hand.finished_at is None:
            raise TableError("not_at_showdown", "Cards can be shown after the hand, until the "
                             "next one starts.")
        if ts.next_hand_at is None or ts.next_hand_at <= timezone.now():
            raise TableError("too_late", "Cards can be shown until the next hand starts.")
        player = next((p for p in state.players if p.player_id == str(user_id)), None)
        if player is None or not player.hole or None in player.hole:
            raise TableError("not_in_hand", "You were not dealt into the last hand.")
        if player.shown:
            raise TableError("already_shown", "Your cards are already shown.")
        player.shown = True
        event: dict[str, Any] = {"type": "shown", "seat": player.seat, "cards": list(player.hole)}
        if len(state.board) == 5:
            event["description"] = describe(state.board + player.hole)
        hand.state = state.to_json()
        log = EventLog(held, hand)
        log.add(event)
        log.flush()
        return [event]
