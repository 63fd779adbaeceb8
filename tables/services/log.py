"""Recording table events: the next per-table versions, HandEvent rows, broadcast on commit."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from tables.groups import events_broadcast
from tables.models import Hand, TableState
from tables.services import hot
from tables.services.rows import events_insert_statement, statements_run, update_statement

# Events recorded with the hand that change nothing a decision depends on.
NOT_HAND_PROGRESS = frozenset(("deadline_extended",))


class EventLog:
    """Collects one service call's events; `flush` numbers, stores and (on commit) sends them."""

    def __init__(self, state: TableState, hand: Hand | None = None) -> None:
        self.state = state
        self.hand = hand
        self.items: list[tuple[dict[str, Any], int | None, dict[str, Any] | None]] = []

    def add(self, event: dict[str, Any], *, private_for: int | None = None,
            private: dict[str, Any] | None = None) -> None:
        """`event` is the public payload; `private` the copy for user `private_for` only."""
        self.items.append((event, private_for, private))

    def add_engine(self, events: list[dict[str, Any]], owners: dict[int, int]) -> None:
        """Engine events: `to_seat` ones are private (owner = `owners[seat]`, a user id); the
        public copy loses the cards. The engine's hand-local `version` is dropped."""
        for e in events:
            clean = {k: v for k, v in e.items() if k not in ("version", "to_seat")}
            to_seat = e.get("to_seat")
            if to_seat is None:
                self.add(clean)
            else:
                public = {k: v for k, v in clean.items() if k != "cards"}
                self.add(public, private_for=owners.get(to_seat), private=clean)

    def number(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
        """Give the collected events the table's next versions (moving the table row's
        `version`, and `hand_moved_version` for events of the hand): (HandEvent rows as
        {field: value}, the broadcast items, the table row's fields this changed)."""
        state = self.state
        rows, sent = [], []
        hand_id = self.hand.pk if self.hand is not None else None
        moved = state.hand_moved_version
        for event, private_for, private in self.items:
            state.version += 1
            if hand_id is not None and event["type"] not in NOT_HAND_PROGRESS:
                state.hand_moved_version = state.version
            rows.append({"table": state.table_id, "version": state.version, "hand": hand_id,
                         "type": event["type"], "payload": event, "recipient": private_for,
                         "private_payload": private})
            sent.append({"version": state.version, "event": event, "private_for": private_for,
                         "private": private})
        self.items = []
        changed = ["version"] if rows else []
        if state.hand_moved_version != moved:
            changed.append("hand_moved_version")
        return rows, sent, changed

    def flush(self, *, hand_fields: Sequence[str] = (),
              table_fields: Sequence[str] = ()) -> list[dict[str, Any]]:
        """Store the events under the next versions, save the table's version, broadcast on
        commit. `hand_fields` / `table_fields`: the hand's and the table row's other changed
        fields, written in the same round trip. Needs the table lock (the caller holds it)."""
        state = self.state
        rows, sent, changed = self.number()
        statements = []
        if hand_fields:
            statements.append(update_statement(self.hand, hand_fields))
        if rows:
            statements.append(events_insert_statement(rows))
        if changed or table_fields:
            statements.append(update_statement(state, [*changed, *table_fields]))
        statements_run(statements)
        if sent:
            table_id = state.table_id
            transaction.on_commit(lambda: events_broadcast(table_id=table_id, items=sent))
        hot.remember_on_commit(state)
        return sent
