"""Hand-written SQL for the statements every action runs: lock the table row, read the hand,
append events, bump the version, save the hand.

The ORM compiles each query anew, and on a busy room that compilation was most of an
action's CPU (measured by bench/ws_load.py: roughly 3 ms of Python per action, two thirds of
it in Django's query compiler). These helpers send fixed SQL and still go through the fields'
own conversions (`get_db_prep_save` on the way in, the backend's and the field's converters on
the way out), so values are exactly what the ORM would read and write, on PostgreSQL and SQLite.
Everything else stays on the ORM."""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.utils import timezone

from cashier.services import pending_top_ups_sql
from tables.models import AutoTopUp, Hand, HandEvent, Seat, TableConfig, TableState

_local = threading.local()
XMIN = "{}.xmin::text::bigint"  # PostgreSQL's row version (a transaction id) as a number


@dataclass(frozen=True)
class _Table:
    """A model's concrete fields as this connection reads and writes them: worked out once per
    thread and connection, so an action pays for none of it."""

    fields: list[Field]
    attnames: list[str]
    converters: list[list[tuple[Callable, Any]]]  # per field: what a database value goes through
    columns: dict[str, tuple[str, Field]]  # field name → (quoted column, field)
    name: str  # quoted table name

    def select_list(self, alias: str) -> str:
        return ", ".join(f"{alias}.{self.columns[f.name][0]}" for f in self.fields)


def _conn() -> BaseDatabaseWrapper:
    """The thread's connection, looked up once per call (each `connection.x` through Django's
    proxy costs a thread-local lookup)."""
    return connections[DEFAULT_DB_ALIAS]


def _cache(conn: BaseDatabaseWrapper) -> Any:
    """This thread's caches, emptied when its connection changed."""
    if getattr(_local, "wrapper", None) is not conn:
        _local.wrapper, _local.tables, _local.sql = conn, {}, {}
    return _local


def _table(conn: BaseDatabaseWrapper, model: type[Model]) -> _Table:
    cache = _cache(conn)
    found = cache.tables.get(model)
    if found is None:
        fields = list(model._meta.concrete_fields)
        converters = []
        for f in fields:
            col = f.get_col(model._meta.db_table)
            converters.append([(c, col) for c in
                               conn.ops.get_db_converters(col) + f.get_db_converters(conn)])
        quote = conn.ops.quote_name
        found = cache.tables[model] = _Table(
            fields=fields, attnames=[f.attname for f in fields], converters=converters,
            columns={f.name: (quote(f.column), f) for f in fields},
            name=quote(model._meta.db_table))
    return found


def _sql(conn: BaseDatabaseWrapper, key: Any, build: Callable[[], str]) -> str:
    """A fixed statement's text, built once per thread and connection."""
    cache = _cache(conn)
    text = cache.sql.get(key)
    if text is None:
        text = cache.sql[key] = build()
    return text


def _instance(conn: BaseDatabaseWrapper, model: type[Model], row: Sequence[Any]) -> Model:
    meta = _table(conn, model)
    values = []
    for value, pairs in zip(row, meta.converters, strict=True):
        for convert, col in pairs:
            value = convert(value, col, conn)
        values.append(value)
    return model.from_db(conn.alias, meta.attnames, values)


def table_row_lock(table_id: int) -> tuple[TableState, int | None, int | None] | None:
    """The table's runtime row with its config and current hand loaded, locked, and the row
    versions of the table row and the config; None if the row does not exist. Called only by
    locks.py (the one place that takes table locks).

    On PostgreSQL the lock is a write (`UPDATE ... SET version = version`), so every step that
    takes it gives the table row a new row version (`xmin`, returned with the config's): a
    commit on a process's copy of the table (copies.py) checks those two and so sees every
    step committed since, whatever it wrote. On SQLite the IMMEDIATE transaction already holds
    the write lock, there are no copies and no row versions (None).

    The hand is read by a second statement, once the lock is held: joined into the locking
    query, it could come back as it was before the transaction we waited for changed it
    (PostgreSQL re-reads only the locked row after the wait), so a hand just started would look
    absent and a hand just acted on a version old. (psycopg's pipeline mode could send both in
    one round trip, but it holds the GIL while it waits for the server, which costs a busy
    server more than the round trip.)"""
    conn = _conn()

    versioned = conn.vendor == "postgresql"

    def build_lock() -> str:
        ts, tc = _table(conn, TableState), _table(conn, TableConfig)
        key, config_key = ts.columns["table"][0], tc.columns["id"][0]
        if versioned:
            version = ts.columns["version"][0]
            return (f"UPDATE {ts.name} ts SET {version} = ts.{version} FROM {tc.name} tc "
                    f"WHERE ts.{key} = %s AND tc.{config_key} = ts.{key} RETURNING "
                    f"{ts.select_list('ts')}, {tc.select_list('tc')}, {XMIN.format('ts')}, "
                    f"{XMIN.format('tc')}")
        return (f"SELECT {ts.select_list('ts')}, {tc.select_list('tc')} FROM {ts.name} ts "
                f"JOIN {tc.name} tc ON tc.{config_key} = ts.{key} WHERE ts.{key} = %s")

    def build_hand() -> str:
        h = _table(conn, Hand)
        return f"SELECT {h.select_list('h')} FROM {h.name} h WHERE h.id = %s"

    with conn.cursor() as cursor:
        cursor.execute(_sql(conn, "table_row_lock", build_lock), [table_id])
        row = cursor.fetchone()
        if row is None:
            return None
        width = len(_table(conn, TableState).fields)
        config_width = len(_table(conn, TableConfig).fields)
        state = _instance(conn, TableState, row[:width])
        state.table = _instance(conn, TableConfig, row[width:width + config_width])
        xmin, config_xmin = row[-2:] if versioned else (None, None)
        hand_row = None
        if state.hand_id is not None:
            cursor.execute(_sql(conn, "hand_get", build_hand), [state.hand_id])
            hand_row = cursor.fetchone()
    state.hand = _instance(conn, Hand, hand_row) if hand_row is not None else None
    return state, xmin, config_xmin


def seat_find(table_id: int, player_id: int) -> Seat | None:
    """The player's seat at the table with the chips of its pending top-ups (`pending`), or
    None (every seat change, top-up and sit-out asks)."""
    conn = _conn()
    pending, pending_params = pending_top_ups_sql(f"s.{_table(conn, Seat).columns['id'][0]}")

    def build() -> str:
        seat = _table(conn, Seat)
        return (f"SELECT {seat.select_list('s')}, {pending} FROM {seat.name} s WHERE "
                f"s.{seat.columns['table'][0]} = %s AND s.{seat.columns['player'][0]} = %s")

    with conn.cursor() as cursor:
        cursor.execute(_sql(conn, "seat_find", build), [*pending_params, table_id, player_id])
        row = cursor.fetchone()
    if row is None:
        return None
    seat = _instance(conn, Seat, row[:-1])
    seat.pending = int(row[-1])
    return seat


Statement = tuple[str, list[Any]]


def _event_values(conn: BaseDatabaseWrapper, events: list[dict[str, Any]]
                  ) -> tuple[list[str], list[Any]]:
    """HandEvent rows given as {field name: value} (every field but the id and `created_at`,
    which is now) as the fields' names, `created_at` last, and the rows' values in order."""
    meta = _table(conn, HandEvent)
    names = [f.name for f in meta.fields if not f.primary_key and f.name != "created_at"]
    created_at = meta.columns["created_at"][1].get_db_prep_save(timezone.now(), conn)
    params: list[Any] = []
    for event in events:
        params.extend(meta.columns[name][1].get_db_prep_save(event[name], conn)
                      for name in names)
        params.append(created_at)
    return [*names, "created_at"], params


def events_insert_statement(events: list[dict[str, Any]], *, only_if: str = "") -> Statement:
    """One multi-row INSERT of HandEvent rows given as {field name: value} (every field but
    the id and `created_at`, which is now); ids are not read back: nothing needs them.
    `only_if`: a condition (SQL) without which nothing is inserted."""
    conn = _conn()
    meta = _table(conn, HandEvent)
    names, params = _event_values(conn, events)
    columns = ", ".join(meta.columns[name][0] for name in names)
    if not only_if:
        one = "(" + ", ".join(["%s"] * len(names)) + ")"
        return (f"INSERT INTO {meta.name} ({columns}) VALUES {', '.join([one] * len(events))}",
                params)
    # Values in a subquery have no column to take their types from: each says its own.
    one = "(" + ", ".join(f"%s::{meta.columns[name][1].cast_db_type(conn)}"
                          for name in names) + ")"
    return (f"INSERT INTO {meta.name} ({columns}) SELECT * FROM (VALUES "
            f"{', '.join([one] * len(events))}) v WHERE {only_if}", params)


def insert_statement(obj: Model) -> Statement:
    """INSERT `obj` (every concrete field but an automatic primary key) without reading the
    new id back (what save() does on a new row, without signals)."""
    conn = _conn()
    meta = _table(conn, type(obj))
    fields = [f for f in meta.fields if not (f.primary_key and obj.pk is None)]
    values = [f.get_db_prep_save(f.pre_save(obj, add=True), conn) for f in fields]
    columns = ", ".join(meta.columns[f.name][0] for f in fields)
    return (f"INSERT INTO {meta.name} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})",
            values)


def update_statement(obj: Model, names: Sequence[str]) -> Statement:
    """UPDATE the named fields of `obj` by primary key (what save(update_fields=...) does,
    without signals, which these models do not use)."""
    conn = _conn()
    meta = _table(conn, type(obj))
    names = list(dict.fromkeys(names))
    sets, values = [], []
    for name in names:
        column, field = meta.columns[name]
        sets.append(f"{column} = %s")
        values.append(field.get_db_prep_save(getattr(obj, field.attname), conn))
    pk = obj._meta.pk
    sql = f"UPDATE {meta.name} SET {', '.join(sets)} WHERE {meta.columns[pk.name][0]} = %s"
    return sql, [*values, pk.get_db_prep_value(obj.pk, conn)]


def updates_statement(objs: Sequence[Model], names: Sequence[str]) -> Statement:
    """UPDATE the named fields of several rows of one model by primary key, in one statement
    (`update_statement` for each, joined: a CASE on the key per field). Each row is named
    once."""
    if len(objs) == 1:
        return update_statement(objs[0], names)
    conn = _conn()
    model = type(objs[0])
    meta = _table(conn, model)
    pk_field = model._meta.pk
    pk_column = meta.columns[pk_field.name][0]
    keys = [pk_field.get_db_prep_value(obj.pk, conn) for obj in objs]
    sets, values = [], []
    for name in dict.fromkeys(names):
        column, field = meta.columns[name]
        case = f"CASE {pk_column} {' '.join(['WHEN %s THEN %s'] * len(objs))} END"
        # PostgreSQL types a CASE of parameters as text: cast it to the column's type. SQLite
        # stores what it is given (and would turn "2026-01-02 ..." cast AS datetime into 2026).
        sets.append(f"{column} = " + (f"CAST({case} AS {field.cast_db_type(conn)})"
                                      if conn.vendor == "postgresql" else case))
        for key, obj in zip(keys, objs, strict=True):
            values += [key, field.get_db_prep_save(getattr(obj, field.attname), conn)]
    return (f"UPDATE {meta.name} SET {', '.join(sets)} WHERE {pk_column} IN "
            f"({', '.join(['%s'] * len(keys))})", [*values, *keys])


def chips_add_statement(deltas: dict[int, int]) -> Statement:
    """Add chips to several seats (seat id → chips, negative to take) in one UPDATE; the
    database adds to what is there. For seats a step did not read (eventlog.py `stacks`)."""
    conn = _conn()
    meta = _table(conn, Seat)
    chips, pk = meta.columns["chips"][0], meta.columns["id"][0]
    ids = sorted(deltas)
    cases = " ".join(["WHEN %s THEN %s"] * len(ids))
    params = [n for seat_id in ids for n in (seat_id, deltas[seat_id])]
    return (f"UPDATE {meta.name} SET {chips} = {chips} + CAST(CASE {pk} {cases} END AS bigint) "
            f"WHERE {pk} IN ({', '.join(['%s'] * len(ids))})", [*params, *ids])


def statements_run(statements: Sequence[Statement]) -> None:
    """Run writes whose results nobody reads. On PostgreSQL they travel as one statement (each
    but the last in a data-modifying WITH clause, which runs to completion whether read or
    not): one round trip. Elsewhere one after the other. They must not touch the same row
    twice (PostgreSQL would apply only one of the changes)."""
    conn = _conn()
    if conn.vendor == "postgresql" and len(statements) > 1:
        *first, last = statements
        sql = "WITH " + ", ".join(f"w{n} AS ({s})" for n, (s, _) in enumerate(first))
        statements = [(f"{sql} {last[0]}", [p for _, params in statements for p in params])]
    with conn.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


class CommitInTransaction(RuntimeError):
    """A copy's commit asked for inside a transaction (an outer `atomic()`)."""


def copy_commit(state: TableState, table_names: Sequence[str], hand: Hand,
                hand_names: Sequence[str], events: list[dict[str, Any]], *,
                xmin: int, config_xmin: int, version: int) -> int | None:
    """Write a step decided on a process's copy of the table (copies.py) if, and only if, the
    table row still has the row version `xmin` and the table version `version`, and its config
    the row version `config_xmin`, that the copy was made at: the table row's `table_names`,
    the hand's `hand_names` and the new `events` (as for `events_insert_statement`), in one
    statement, which PostgreSQL runs as its own transaction.

    Refused (CommitInTransaction) inside a transaction: the statement would not be committed
    when the caller publishes the step's events (effects.py), so clients would be sent events
    a rollback could still undo.

    The table row is updated first: every other step locks it first (`table_row_lock`), so
    this waits for one in progress and, once it has committed, finds a new row version and
    writes nothing. The hand and the events are written only if the table row was: all or
    nothing. Returns the table row's new row version, or None when the copy was stale."""
    if not transaction.get_autocommit():
        raise CommitInTransaction("a copy's commit is its own transaction: not inside atomic()")
    conn = _conn()
    ts, tc = _table(conn, TableState), _table(conn, TableConfig)
    table_sql, table_params = update_statement(state, table_names)
    table_sql += (f" AND {XMIN.format(ts.name)} = %s AND {ts.columns['version'][0]} = %s "
                  f"AND EXISTS (SELECT 1 FROM {tc.name} "
                  f"WHERE {tc.name}.{tc.columns['id'][0]} = %s AND {XMIN.format(tc.name)} = %s) "
                  f"RETURNING {XMIN.format(ts.name)} AS xmin")
    hand_sql, hand_params = update_statement(hand, hand_names)
    events_sql, events_params = events_insert_statement(events,
                                                        only_if="EXISTS (SELECT 1 FROM t)")
    sql = (f"WITH t AS ({table_sql}), h AS ({hand_sql} AND EXISTS (SELECT 1 FROM t)), "
           f"e AS ({events_sql}) SELECT xmin FROM t")
    with conn.cursor() as cursor:
        cursor.execute(sql, [*table_params, xmin, version, state.table_id, config_xmin,
                             *hand_params, *events_params])
        row = cursor.fetchone()
    return row[0] if row is not None else None


def table_seats(table_id: int, *, lock: bool = False) -> list[Seat]:
    """The table's seats in id order, each with its player, the chips of its pending top-ups
    (`pending`) and whether its player has a standing top-up order there (`auto_top_up`):
    everything a hand's start and end read about the seats, in one statement. `lock` locks
    the seats' rows too (not the players'). Built by the ORM (a join, a sum and an EXISTS),
    this query took longer to compile than the rest of a hand start did to run."""
    conn = _conn()
    user_model = get_user_model()
    pending, pending_params = pending_top_ups_sql(f"s.{_table(conn, Seat).columns['id'][0]}")

    def build() -> str:
        s, u, a = _table(conn, Seat), _table(conn, user_model), _table(conn, AutoTopUp)

        def col(meta: _Table, alias: str, name: str) -> str:
            return f"{alias}.{meta.columns[name][0]}"

        orders = (f"EXISTS (SELECT 1 FROM {a.name} a WHERE {col(a, 'a', 'table')} = "
                  f"{col(s, 's', 'table')} AND {col(a, 'a', 'player')} = {col(s, 's', 'player')})")
        locking = " FOR NO KEY UPDATE OF s" if lock and conn.features.has_select_for_update_of \
            else ""
        return (f"SELECT {s.select_list('s')}, {u.select_list('u')}, {pending}, {orders} "
                f"FROM {s.name} s JOIN {u.name} u ON {col(u, 'u', 'id')} = {col(s, 's', 'player')} "
                f"WHERE {col(s, 's', 'table')} = %s ORDER BY {col(s, 's', 'id')}{locking}")

    with conn.cursor() as cursor:
        cursor.execute(_sql(conn, ("table_seats", lock), build),
                       [*pending_params, table_id])
        rows = cursor.fetchall()
    width, user_width = len(_table(conn, Seat).fields), len(_table(conn, user_model).fields)
    seats = []
    for row in rows:
        seat = _instance(conn, Seat, row[:width])
        seat.player = _instance(conn, user_model, row[width:width + user_width])
        seat.pending, seat.auto_top_up = int(row[-2]), bool(row[-1])
        seats.append(seat)
    return seats
