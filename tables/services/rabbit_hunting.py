"""The rabbit hunt (a cash-table option): after a hand everyone folded before the river, a
player dealt into it asks to see the board cards that would have come. They are turned up for
the whole table (a `rabbit_hunt` event) with the openings of those board positions of the
deck's commitment, and of nothing else (tables/engine/rabbit.py says why that is safe). The
hand is settled: its state, result and history stay exactly as they were."""
from __future__ import annotations

from typing import Any

from django.db import transaction

from tables.engine import HandState, IllegalAction, fairness
from tables.engine.rabbit import rabbit_cards, rabbit_deals, verify_rabbit_hunt
from tables.errors import TableError
from tables.models import HandEvent
from tables.services.dealing import board_openings
from tables.services.eventlog import EventLog
from tables.services.locks import table_lock


def rabbit_hunt(*, table_id: int, user_id: int, hand_id: int) -> dict[str, Any]:
    """Show hand `hand_id`'s rabbit to the table; returns the `rabbit_hunt` event recorded.
    Only the table's last hand, until the next one starts; once per hand.

    Refusals: `not_allowed` (the table does not offer it), `no_hand` (no such hand here),
    `too_late` (the next hand started), `hand_not_over`, `board_complete` (a showdown or a
    run-out: nothing was left undealt), `not_dealt_in`, `already_shown`.
    Locks: the table row (the hand's events are read under it)."""
    with transaction.atomic():
        held = table_lock(table_id)
        table, hand = held.table, held.hand
        if not table.rabbit_hunt_allowed or table.is_tournament:
            raise TableError("not_allowed", "This table does not offer the rabbit hunt.")
        if hand is None or (hand.pk != hand_id and not table.hands.filter(pk=hand_id).exists()):
            raise TableError("no_hand", f"There is no hand {hand_id} at this table.")
        if hand.pk != hand_id:
            raise TableError("too_late", "The rabbit can be hunted until the next hand starts.")
        state = HandState.from_json(hand.state)
        try:
            verify_rabbit_hunt(state, str(user_id))
        except IllegalAction as refused:
            raise TableError(refused.reason, _MESSAGES[refused.reason]) from None
        if hand.finished_at is None or hand.fairness != fairness.SCHEME:
            raise TableError("hand_not_over", _MESSAGES["hand_not_over"])
        if HandEvent.objects.filter(hand=hand, type="rabbit_hunt").exists():
            raise TableError("already_shown", "The rabbit of this hand is already shown.")
        seat = state.players[[p.player_id for p in state.players].index(str(user_id))].seat
        event = {"type": "rabbit_hunt", "hand_id": hand.pk, "seat": seat,
                 "board": list(state.board), "cards": rabbit_cards(state),
                 "openings": board_openings(hand, rabbit_deals(len(state.players),
                                                               len(state.board)))}
        log = EventLog(held, hand)
        recorded = log.add(event)
        log.flush()
        return recorded


_MESSAGES = {
    "hand_not_over": "The rabbit can be hunted once the hand is over.",
    "board_complete": "The whole board was dealt: there is no rabbit to hunt.",
    "not_dealt_in": "Only a player dealt into the hand may hunt its rabbit.",
}
