"""Each server process's copy of the tables it has just acted at, so that the next action
there is decided without reading the table and committed in one statement.

An action goes through the same pipeline either way (acting.py: `act_locked` decides,
`engine_step` records, effects.py publishes); only the commit differs. Under the lock, the
step reads the table row, its config and the hand, and commits in a transaction. On a copy —
the same rows as this process's last mid-hand commit at the table left them — the step reads
nothing and commits with `table_sql.copy_commit`: one statement that writes only if the table row
and the config still have the row versions (PostgreSQL's `xmin`), and the table row the table
version, the copy was made at (`locks.Locked`).

Why that check covers everything an action depends on: every step at a table takes the table
lock first (locks.py), and on PostgreSQL that lock is itself a write of the table row
(`rows.table_row_lock`), so any step committed since the copy — whatever it changed: the hand,
its timer, seats, events — has given the table row a new version. The config is edited in the
admin without the table lock, so its own row version is checked too. A stale copy writes
nothing; the action then runs under the lock as if there had been no copy.

Only PostgreSQL has row versions (on SQLite every action takes the lock), and only a mid-hand
action commits on a copy: a hand's end settles through the cashier, under the lock.

The preconditions are code, each with its test (tests/tables/services/test_copies.py): no copy
inside a transaction (`copy_take`; `table_sql.copy_commit` refuses one too), none once its hand's
turn deadline has passed, the table's version checked with the row versions, and only the
table row, the hand and the events written (`EventLog`, else NotOnCopy)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

if TYPE_CHECKING:
    from tables.services.locks import Locked

_copies: dict[int, Locked] = {}


class NotOnCopy(Exception):
    """The step cannot be committed on the copy (stale, or more than a mid-hand step): run it
    under the lock instead."""


def copies_used() -> bool:
    return settings.ROOM_TABLE_COPIES and connection.vendor == "postgresql"


def copy_take(table_id: int) -> Locked | None:
    """This process's copy of the table, if any and usable, for one step: it is this caller's
    until it keeps it again (two threads never decide on the same objects). Not inside a
    transaction (an outer `atomic()`): a copy's commit is its own transaction, and its events
    are published at once, so they could be rolled back after clients got them. Not once its
    hand's turn deadline has passed: that turn is the timeout task's to settle, under the lock
    (the copy is dropped)."""
    if not copies_used() or not transaction.get_autocommit():
        return None
    copy = _copies.pop(table_id, None)
    if copy is None:
        return None
    hand = copy.hand
    if hand is not None and hand.deadline is not None and hand.deadline <= timezone.now():
        return None
    return copy


def copy_offer(held: Locked) -> None:
    """After a step under the table lock: if a hand is still running, keep the table as the
    step commits it as the process's copy (PostgreSQL). Any locked step moves the table row's
    version, so without this the next action would find the older copy stale and take the
    lock again: a chat line (one a table every 30 s or so) would cost the next action that."""
    if held.xmin is not None and held.state.hand_running:
        held.effects.keep(held)


def copy_keep(copy: Locked) -> None:
    """Keep the table (with its `table` and `hand`, row versions and table version) as its
    step committed it; called after the commit (effects.py)."""
    _copies[copy.state.table_id] = copy
