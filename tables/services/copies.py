"""Each server process's copy of the tables it has just acted at, so that the next action
there is decided without reading the table and committed in one statement.

An action goes through the same pipeline either way (acting.py: `act_locked` decides,
`engine_step` records, effects.py publishes); only the commit differs. Under the lock, the
step reads the table row, its config and the hand, and commits in a transaction. On a copy —
the same rows as this process's last mid-hand commit at the table left them — the step reads
nothing and commits with `rows.copy_commit`: one statement that writes only if the table row
and the config still have the row versions (PostgreSQL's `xmin`) the copy was made at.

Why that check covers everything an action depends on: every step at a table takes the table
lock first (locks.py), and on PostgreSQL that lock is itself a write of the table row
(`rows.table_row_lock`), so any step committed since the copy — whatever it changed: the hand,
its timer, seats, events — has given the table row a new version. The config is edited in the
admin without the table lock, so its own row version is checked too. A stale copy writes
nothing; the action then runs under the lock as if there had been no copy.

Only PostgreSQL has row versions (on SQLite every action takes the lock), and only a mid-hand
action commits on a copy: a hand's end settles through the cashier, under the lock."""
from __future__ import annotations

from django.conf import settings
from django.db import connection

from tables.models import TableState

_copies: dict[int, TableState] = {}


class NotOnCopy(Exception):
    """The step cannot be committed on the copy (stale, or more than a mid-hand step): run it
    under the lock instead."""


def copies_used() -> bool:
    return settings.ROOM_TABLE_COPIES and connection.vendor == "postgresql"


def copy_take(table_id: int) -> TableState | None:
    """This process's copy of the table, if any, for one step: it is this caller's until it
    keeps it again (two threads never decide on the same objects)."""
    return _copies.pop(table_id, None) if copies_used() else None


def copy_keep(state: TableState) -> None:
    """Keep the table (with its `table` and `hand`) as its step committed it; called after
    the commit (effects.py)."""
    _copies[state.table_id] = state
