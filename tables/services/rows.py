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
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

from tables.models import Hand, HandEvent, TableConfig, TableState

_local = threading.local()


def _columns(model: type[Model]) -> tuple[list[Any], list[list[tuple[Callable, Any]]]]:
    """The model's concrete fields and, per field, the converters a database value goes through
    (bound to this thread's connection, so worked out once per thread and connection)."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    if getattr(_local, "wrapper", None) is not wrapper:
        _local.wrapper, _local.columns = wrapper, {}
    found = _local.columns.get(model)
    if found is None:
        fields = list(model._meta.concrete_fields)
        converters = []
        for f in fields:
            col = f.get_col(model._meta.db_table)
            converters.append([(c, col) for c in
                               wrapper.ops.get_db_converters(col) + f.get_db_converters(wrapper)])
        found = _local.columns[model] = (fields, converters)
    return found


def _select_list(model: type[Model], alias: str) -> str:
    fields, _ = _columns(model)
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in fields)


def _instance(model: type[Model], row: Sequence[Any]) -> Model:
    fields, converters = _columns(model)
    values = []
    for value, pairs in zip(row, converters, strict=True):
        for convert, col in pairs:
            value = convert(value, col, connection)
        values.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], values)


def table_row_lock(table_id: int) -> TableState | None:
    """The table's runtime row with its config loaded, locked (FOR UPDATE on PostgreSQL; on
    SQLite the IMMEDIATE transaction already holds the write lock). None if it does not exist."""
    width = len(_columns(TableState)[0])
    lock = " FOR UPDATE OF ts" if connection.features.has_select_for_update_of else ""
    sql = (f"SELECT {_select_list(TableState, 'ts')}, {_select_list(TableConfig, 'tc')} "
           f"FROM {TableState._meta.db_table} ts JOIN {TableConfig._meta.db_table} tc "
           f"ON tc.id = ts.table_id WHERE ts.table_id = %s{lock}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    state = _instance(TableState, row[:width])
    state.table = _instance(TableConfig, row[width:])
    return state


def hand_get(hand_id: int) -> Hand:
    sql = f"SELECT {_select_list(Hand, 'h')} FROM {Hand._meta.db_table} h WHERE h.id = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [hand_id])
        row = cursor.fetchone()
    if row is None:
        raise Hand.DoesNotExist(f"no hand {hand_id}")
    return _instance(Hand, row)


def _prepared(obj: Model, names: Iterable[str]) -> tuple[list[str], list[Any]]:
    quote = connection.ops.quote_name
    columns, values = [], []
    for name in names:
        field = obj._meta.get_field(name)
        columns.append(quote(field.column))
        values.append(field.get_db_prep_save(getattr(obj, field.attname), connection))
    return columns, values


Statement = tuple[str, list[Any]]


def events_insert_statement(events: list[HandEvent]) -> Statement:
    """One multi-row INSERT (ids are not read back: nothing needs them)."""
    names = [f.name for f in HandEvent._meta.concrete_fields if not f.primary_key]
    for e in events:
        for f in HandEvent._meta.concrete_fields:
            if getattr(f, "auto_now_add", False) and getattr(e, f.attname) is None:
                f.pre_save(e, add=True)
    rows = [_prepared(e, names) for e in events]
    columns = rows[0][0]
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (f"INSERT INTO {HandEvent._meta.db_table} ({', '.join(columns)}) "
           f"VALUES {', '.join([one] * len(rows))}")
    return sql, [v for _, values in rows for v in values]


def update_statement(obj: Model, names: Sequence[str]) -> Statement:
    """UPDATE the named fields of `obj` by primary key (what save(update_fields=...) does,
    without signals, which these models do not use)."""
    columns, values = _prepared(obj, dict.fromkeys(names))
    pk = obj._meta.pk
    sets = ", ".join(f"{c} = %s" for c in columns)
    sql = (f"UPDATE {obj._meta.db_table} SET {sets} "
           f"WHERE {connection.ops.quote_name(pk.column)} = %s")
    return sql, [*values, pk.get_db_prep_value(obj.pk, connection)]


def statements_run(statements: Sequence[Statement]) -> None:
    """Run writes whose results nobody reads. On PostgreSQL they travel as one statement (each
    but the last in a data-modifying WITH clause, which runs to completion whether read or
    not), so an action's writes cost one round trip; elsewhere one after the other. They
    must not touch the same row twice (PostgreSQL would apply only one of the changes)."""
    if len(statements) > 1 and connection.vendor == "postgresql":
        *first, last = statements
        sql = "WITH " + ", ".join(f"w{n} AS ({s})" for n, (s, _) in enumerate(first))
        statements = [(f"{sql} {last[0]}", [p for _, params in statements for p in params])]
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


def events_insert(events: list[HandEvent]) -> None:
    if events:
        statements_run([events_insert_statement(events)])


def row_update(obj: Model, names: Sequence[str]) -> None:
    statements_run([update_statement(obj, names)])
