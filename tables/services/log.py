"""Recording table events: the next per-table versions, HandEvent rows, broadcast on commit."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Model

from tables.events import NOT_HAND_PROGRESS, Recorded, redact
from tables.models import Hand, Seat, TableState
from tables.services.copies import NotOnCopy
from tables.services.rows import (
    Statement,
    copy_commit,
    events_insert_statement,
    insert_statement,
    statements_run,
    update_statement,
)


def status_event(seat: Seat) -> dict[str, Any]:
    """The `status` event of a seat as it stands (sit out/in, blinds owed, post/wait BB)."""
    return {"type": "status", "seat": seat.number, "status": seat.status,
            "post_bb": seat.post_bb, "missed_blinds": seat.missed_blinds}


class EventLog:
    """Collects one service call's events; `flush` numbers, stores them and hands them to the
    step's effects (broadcast after the commit)."""

    def __init__(self, state: TableState, hand: Hand | None = None, *,
                 on_copy: bool = False) -> None:
        self.state = state
        self.hand = hand
        self.on_copy = on_copy  # committed by `rows.copy_commit` (copies.py), or NotOnCopy
        self.items: list[Recorded] = []
        # Other rows the step changes, written with the events: one UPDATE per row (fields
        # merged: PostgreSQL applies only one of two changes to a row in one statement), and
        # new rows.
        self.saves: dict[tuple[type[Model], Any], tuple[Model, dict[str, Any]]] = {}
        self.inserts: list[Model] = []
        self.writes: list[Statement] = []  # other services' writes (the cashier's)

    def add(self, event: dict[str, Any], *, owner: int | None = None) -> dict[str, Any]:
        """Record `event`, redacted (tables/events.py): fields only `owner` (a user id) may
        see stay in his copy. Returns the public payload (callers may still complete it)."""
        recorded = redact(event, owner=owner)
        self.items.append(recorded)
        return recorded.public

    def add_engine(self, events: list[dict[str, Any]], owners: dict[int, int]) -> None:
        """Engine events: one addressed to a seat (`to_seat`) is private to its owner."""
        for e in events:
            self.add(e, owner=owners.get(e["to_seat"]) if e.get("to_seat") is not None else None)

    def save(self, obj: Model, names: Sequence[str]) -> None:
        """Write `names` of `obj` with the events (`flush`); a later save of the same row
        adds its fields (with their values as they are now)."""
        _first, values = self.saves.setdefault((type(obj), obj.pk), (obj, {}))
        for name in names:
            values[name] = getattr(obj, obj._meta.get_field(name).attname)

    def insert(self, obj: Model) -> None:
        """Insert `obj` (a new row nobody reads back the id of) with the events (`flush`)."""
        self.inserts.append(obj)

    def write(self, statement: Statement) -> None:
        """Send `statement` (a write nobody reads the result of, on rows this log does not
        `save`) with the events (`flush`)."""
        self.writes.append(statement)

    def last(self, kind: str) -> dict[str, Any] | None:
        """The public payload of the last event recorded so far if it is of `kind`."""
        return self.items[-1].public if self.items and self.items[-1].public["type"] == kind \
            else None

    def flush(self, *, hand_fields: Sequence[str] = (),
              table_fields: Sequence[str] = ()) -> list[dict[str, Any]]:
        """Store the events under the table's next versions (moving `version`, and
        `hand_moved_version` for events of the hand), save `hand_fields` / `table_fields` (and
        the `save`s and `insert`s queued) in the same round trip, and hand the events to the step's
        effects. Needs the table lock, or a copy of the table (`on_copy`)."""
        state = self.state
        rows, sent = [], []
        hand_id = self.hand.pk if self.hand is not None else None
        moved = state.hand_moved_version
        for item in self.items:
            state.version += 1
            event = item.public
            if hand_id is not None and event["type"] not in NOT_HAND_PROGRESS:
                state.hand_moved_version = state.version
            rows.append({"table": state.table_id, "version": state.version, "hand": hand_id,
                         "type": event["type"], "payload": event, "recipient": item.private_for,
                         "private_payload": item.private})
            sent.append({"version": state.version, "event": event,
                         "private_for": item.private_for, "private": item.private})
        self.items = []
        changed = ["version"] if rows else []
        if state.hand_moved_version != moved:
            changed.append("hand_moved_version")
        commit = self._copy_commit if self.on_copy else self._write
        commit(rows, [*changed, *table_fields], hand_fields)
        state.effects.broadcast(sent)
        return sent

    def _write(self, rows: list[dict[str, Any]], table_fields: list[str],
               hand_fields: Sequence[str]) -> None:
        """Write the events, the hand's and the table row's fields, the queued saves and
        inserts: one round trip (`statements_run`). Needs the table lock."""
        statements = [insert_statement(obj) for obj in self.inserts]
        for obj, values in self.saves.values():
            for name, value in values.items():
                setattr(obj, obj._meta.get_field(name).attname, value)
            statements.append(update_statement(obj, list(values)))
        statements += self.writes
        self.saves, self.inserts, self.writes = {}, [], []
        if hand_fields:
            statements.append(update_statement(self.hand, hand_fields))
        if rows:
            statements.append(events_insert_statement(rows))
        if table_fields:
            statements.append(update_statement(self.state, table_fields))
        statements_run(statements)

    def _copy_commit(self, rows: list[dict[str, Any]], table_fields: list[str],
                     hand_fields: Sequence[str]) -> None:
        """Commit on the copy: the table row, the hand and the events, and nothing else."""
        if self.saves or self.inserts or self.writes or not rows or not hand_fields:
            raise NotOnCopy("only a step that writes the hand and its events commits on a copy")
        xmin = copy_commit(self.state, table_fields, self.hand, hand_fields, rows)
        if xmin is None:
            raise NotOnCopy("the table changed since this process's copy")
        self.state.xmin = xmin
