"""The lock order of the whole room, stated here and nowhere else, and the only functions that
take a tournament's or a table's locks (`tournament_lock`, `table_lock`, `seats_lock`).

Lock order — every transaction that takes more than one of these takes them in this order, so
no two can deadlock (tests/tables/services/test_lock_order.py records the locks every service
takes, on PostgreSQL, and fails on any other order):

0. A tournament's row: `Tournament` (`tournament_lock`), first of all, and one tournament
   per transaction. Its entries and events are its own rows: changed only while it is held.
   A step of a tournament's table that needs the tournament (a bust, a move) takes the
   tournament row before the table row; a tournament step (registration, cancellation)
   takes it before the cashier's rows (2).
1. The table row: `TableState` (`table_lock`), first after (0), and one table per
   transaction — with one exception: a multi-table tournament's step (a hand start of its
   table, tables/tournaments/services/tables.py `tournament_tables_lock`) holds the
   tournament's row (0) and then locks all of that tournament's tables in ascending id (a
   table it opens has a higher id than any it holds). Any other step holds one table, and
   every step that holds several holds their tournament's row first, so none can deadlock. The `TableConfig` row is never locked: it is read with the table row, and
   the admin edits it without any lock (a copy of the table checks its row version: copies.py).
2. The cashier's rows, in this order:
   a. the idempotency record, claimed by a unique INSERT;
   b. the one cashier request row being decided (Deposit / Withdrawal);
   c. the ledger accounts the operation touches, ascending id, in one statement;
   d. pending top-ups.
3. The table's own rows — its seats (`seats_lock`, ascending id: only the tables lock seats;
   the cashier locks and writes none, it returns the stacks' changes and the table's event
   log writes them, eventlog.py `EventLog.stacks`), hands, events, summaries,
   settlements, chat lines, waiting-list entries, standing top-up orders, deck entropy —
   locked, updated or deleted only while their table's row (1) is held (new rows may be
   inserted without it: nobody can be waiting for a row that did not exist). Nobody can wait for one without holding that
   lock, so they are never contended and their place among the cashier's rows (2) does not
   matter; they may come before, between or after them.

Presence rows (presence.py) are locked on their own, never with any of the above. So are a
player's notes (notes.py: one row, a unique upsert) and the player statistics
(hand_stats.py, in a Celery task after the hand's commit): the hand's `HandStatsCounted`
claim first (a unique INSERT), then its players' `PlayerStats` rows in ascending
(subject, viewer) order, in one upsert. On SQLite
transactions are IMMEDIATE (serialised): the same code is safe without row locks.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from tables.errors import TableError
from tables.models import Hand, Seat, TableConfig, TableState
from tables.services.effects import Effects
from tables.services.table_sql import table_row_lock, table_seats
from tables.services.tracking import Tracker
from tables.tournaments.models import Tournament


@dataclass(eq=False)
class Locked:
    """The table as one step holds it: its runtime row (`state`, with `table` and `hand`
    loaded), what the step does after its commit (`effects`), the rows it has read
    (`rows`: the event log writes what changed of them), and what a copy of the table checks
    before it commits (copies.py): the row versions of the table row and its config
    (PostgreSQL; None on SQLite) and the table's version, as locked or as last committed."""

    state: TableState
    effects: Effects
    xmin: int | None = None
    config_xmin: int | None = None
    version: int = 0
    rows: Tracker = field(default_factory=Tracker)

    @property
    def table(self) -> TableConfig:
        return self.state.table

    @property
    def hand(self) -> Hand | None:
        return self.state.hand


def table_lock(table_id: int) -> Locked:
    """Lock the table's runtime row (order step 1), creating it on first use, and return it
    with its config and its hand as they are under the lock, the rows tracked, and the step's
    `Effects`, run after the commit (effects.py). Call inside `transaction.atomic()`."""
    locked = table_row_lock(table_id)
    if locked is None:
        if not TableConfig.objects.filter(pk=table_id).exists():
            raise TableError("no_table", f"There is no table {table_id}.")
        TableState.objects.get_or_create(table_id=table_id)
        locked = table_row_lock(table_id)
    state, xmin, config_xmin = locked
    held = Locked(state=state, effects=Effects(table_id), xmin=xmin, config_xmin=config_xmin,
                  version=state.version)
    held.rows.track(state)
    if state.hand is not None:
        held.rows.track(state.hand)
    transaction.on_commit(held.effects.run)
    return held


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock the tournament's row (order step 0) and return it as it is under the lock. Call
    inside `transaction.atomic()`. FOR NO KEY UPDATE: new entries and events (foreign keys to
    it) may still be inserted meanwhile; their writers hold this lock anyway."""
    found = Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
    if found is None:
        raise TableError("no_tournament", f"There is no tournament {tournament_id}.")
    return found


# table id → its tournament's id, as read under the table's lock. A table's tournament never
# changes, so this only spares a cash table's steps a query; `tournament_held` checks it.
_TOURNAMENT_OF: dict[int, int] = {}


class TournamentNotHeld(Exception):
    """The step locked a tournament's table without its tournament: roll back and retry."""


def table_tournament_lock(table_id: int) -> Tournament | None:
    """For a step of a tournament's table that needs its tournament (a hand's start: busts,
    the level): lock the tournament's row (order step 0, before the table's) and return it;
    None for a cash table, or a tournament's table this process has not locked yet — which
    `tournament_held` then finds under the table lock. No query for a cash table."""
    tournament_id = _TOURNAMENT_OF.get(table_id)
    if tournament_id is None:
        return None
    try:
        return tournament_lock(tournament_id)
    except TableError:  # gone (a test database's ids start again): `tournament_held` decides
        _TOURNAMENT_OF.pop(table_id, None)
        return None


def tournament_held(held: Locked, tournament: Tournament | None) -> None:
    """Check that the step holds the tournament of the table it locked (`table_tournament_lock`
    before `table_lock`); else remember the table's tournament and raise `TournamentNotHeld`
    (the caller's transaction rolls back and the step runs again, taking it first)."""
    tournament_id = held.table.tournament_id
    if tournament_id == (tournament.pk if tournament is not None else None):
        return
    if tournament_id is not None:
        _TOURNAMENT_OF[held.table.pk] = tournament_id
    else:
        _TOURNAMENT_OF.pop(held.table.pk, None)
    raise TournamentNotHeld(held.table.pk)


def seats_lock(held: Locked) -> list[Seat]:
    """Lock the seats of the table `held` (order step 3: needs its table lock) and return them
    in id order, tracked, with what `rows.table_seats` adds (player, pending top-ups, standing
    order)."""
    return [held.rows.track(seat) for seat in table_seats(held.state.table_id, lock=True)]
