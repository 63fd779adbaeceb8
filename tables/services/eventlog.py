"""Recording table events: the next per-table versions, HandEvent rows, broadcast on commit."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from django.db.models import Model

from cashier.services import StackChanges
from tables.events import NOT_HAND_PROGRESS, Recorded, redact
from tables.models import Hand, Seat
from tables.services.copies import NotOnCopy
from tables.services.table_sql import (
    Statement,
    chips_add_statement,
    copy_commit,
    events_insert_statement,
    insert_statement,
    statements_run,
    update_statement,
    updates_statement,
)

if TYPE_CHECKING:
    from tables.services.locks import Locked

M = TypeVar("M", bound=Model)


def status_event(seat: Seat) -> dict[str, Any]:
    """The `status` event of a seat as it stands (sit out/in, blinds owed, post/wait BB, sit
    out next BB)."""
    return {"type": "status", "seat": seat.number, "status": seat.status,
            "post_bb": seat.post_bb, "missed_blinds": seat.missed_blinds,
            "sit_out_next_bb": seat.sit_out_next_bb}


def seat_taken_event(seat: Seat, *, next_commitment: str = "") -> dict[str, Any]:
    """The `seat_taken` event of a seat just filled (a buy-in, a tournament's seating or a
    move); `next_commitment` when it opens the table (its first deck committed)."""
    player = seat.player
    event = {"type": "seat_taken", "seat": seat.number, "player_id": seat.player_id,
             "name": player.table_name, "avatar": player.avatar_key, "stack": seat.chips,
             "status": seat.status}
    if next_commitment:
        event["next_commitment"] = next_commitment
    return event


class EventLog:
    """Collects one service call's events; `flush` numbers and stores them, writes what the
    step changed of the rows it read (tracking.py: no step lists the fields it changed) and
    hands the events to the step's effects (broadcast after the commit)."""

    def __init__(self, held: Locked, hand: Hand | None = None, *,
                 on_copy: bool = False) -> None:
        self.held = held
        self.state = held.state
        self.on_copy = on_copy  # committed by `table_sql.copy_commit` (copies.py), or NotOnCopy
        self.items: list[Recorded] = []
        self._hand: Hand | None = None
        self.hand = hand
        # New rows and other services' writes, sent with the events.
        self.inserts: list[Model] = []
        self.writes: list[Statement] = []  # other services' writes (the cashier's)

    @property
    def hand(self) -> Hand | None:
        """The hand the events belong to (None: table events); its changes are written."""
        return self._hand

    @hand.setter
    def hand(self, hand: Hand | None) -> None:
        self._hand = hand
        if hand is not None:
            self.held.rows.track(hand)

    def track(self, obj: M) -> M:
        """Write what the step changes of `obj` (a row it read) with the events (`flush`).
        Returns `obj`."""
        return self.held.rows.track(obj)

    def stacks(self, changes: StackChanges) -> None:
        """Write the stack changes the cashier returned (tables own their seats' stacks): a
        tracked seat's chips move in memory and are written with the step's other changes;
        any other seat's in one statement sent with them, as are the cashier's own writes
        (top-ups marked applied). Needs the table lock and the seats the step read locked."""
        elsewhere: dict[int, int] = {}
        for seat_id, delta in changes.deltas.items():
            seat = self.held.rows.find(Seat, seat_id)
            if seat is None:
                elsewhere[seat_id] = delta
            else:
                seat.chips += delta
        if elsewhere:
            self.writes.append(chips_add_statement(elsewhere))
        self.writes.extend(changes.writes)

    def delete(self, obj: Model) -> None:
        """Delete `obj`'s row now, and stop tracking it (nothing of it is written later)."""
        self.held.rows.forget(obj)
        obj.delete()

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

    def insert(self, obj: Model) -> None:
        """Insert `obj` (a new row nobody reads back the id of) with the events (`flush`)."""
        self.inserts.append(obj)

    def write(self, statement: Statement) -> None:
        """Send `statement` (a write nobody reads the result of, on rows this log does not
        track) with the events (`flush`)."""
        self.writes.append(statement)

    def last(self, kind: str) -> dict[str, Any] | None:
        """The public payload of the last event recorded so far if it is of `kind`."""
        return self.items[-1].public if self.items and self.items[-1].public["type"] == kind \
            else None

    def flush(self) -> list[dict[str, Any]]:
        """Store the events under the table's next versions (moving `version`, and
        `hand_moved_version` for events of the hand), write every change of a tracked row (the
        table row, the hand, seats) and the queued inserts and writes in the same round trip,
        and hand the events to the step's effects. Needs the table lock, or a copy of the
        table (`on_copy`)."""
        state = self.state
        rows, sent = [], []
        hand_id = self.hand.pk if self.hand is not None else None
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
        (self._copy_commit if self.on_copy else self._write)(rows)
        self.held.version = state.version
        self.held.rows.written()
        self.held.effects.broadcast(sent)
        return sent

    def _write(self, rows: list[dict[str, Any]]) -> None:
        """Write the inserts, the tracked rows' changes, the cashier's writes, the hand, the
        events and the table row: one round trip (`statements_run`). Needs the table lock."""
        tracked = self.held.rows
        statements = [insert_statement(obj) for obj in self.inserts]
        alike: dict[tuple[type, tuple[str, ...]], list[Model]] = {}
        for obj, names in tracked.changes(besides=(self.state, self.hand)):
            alike.setdefault((type(obj), tuple(sorted(names))), []).append(obj)
        statements += [updates_statement(objs, names) for (_, names), objs in alike.items()]
        statements += self.writes
        self.inserts, self.writes = [], []
        hand_names = tracked.changed(self.hand) if self.hand is not None else []
        if hand_names:
            statements.append(update_statement(self.hand, hand_names))
        if rows:
            statements.append(events_insert_statement(rows))
        table_names = tracked.changed(self.state)
        if table_names:
            statements.append(update_statement(self.state, table_names))
        statements_run(statements)

    def _copy_commit(self, rows: list[dict[str, Any]]) -> None:
        """Commit on the copy: the table row, the hand and the events, and nothing else."""
        held, tracked = self.held, self.held.rows
        hand_names = tracked.changed(self.hand) if self.hand is not None else []
        if (self.inserts or self.writes or not rows or not hand_names
                or tracked.changes(besides=(self.state, self.hand))):
            raise NotOnCopy("only a step that writes the hand and its events commits on a copy")
        if held.xmin is None or held.config_xmin is None:
            raise NotOnCopy("no row versions: a copy exists only on PostgreSQL")
        xmin = copy_commit(self.state, tracked.changed(self.state), self.hand, hand_names, rows,
                           xmin=held.xmin, config_xmin=held.config_xmin, version=held.version)
        if xmin is None:
            raise NotOnCopy("the table changed since this process's copy")
        held.xmin = xmin
