"""Ledger primitives every cashier service is built from.

Lock order: stated once for the whole room in tables/services/locks.py (and enforced by
tests/tables/services/test_lock_order.py). Here: ledger accounts are locked by `accounts_lock`,
all those the operation touches in one SELECT ... FOR NO KEY UPDATE ORDER BY id; accounts are
created (if missing) before it, never after.

Balances are changed only by `ledger_post`, with F() updates on rows already locked in step 3.
On SQLite the connection runs transactions IMMEDIATE, so they are serialised and the same code
is safe without row locks.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.utils import timezone

from cashier.errors import CashierError
from cashier.fingerprints import fingerprint, fingerprint_matches
from cashier.models import (
    AccountKind,
    IdempotencyRecord,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
)
from cashier.money import money_format
from observability import metrics

Legs = Sequence[tuple[LedgerAccount, int]]
Statement = tuple[str, list[Any]]  # SQL and its parameters


# Accounts -------------------------------------------------------------------------------------
def _account_get_or_create(**lookup: Any) -> LedgerAccount:
    """Fetch an account, creating it on first use. A concurrent creator's INSERT makes ours
    wait and then fail on the unique constraint; we read its row instead. Takes no row lock
    on existing accounts (lock order step 3 comes later)."""
    account = LedgerAccount.objects.filter(**lookup).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return LedgerAccount.objects.create(**lookup)
    except IntegrityError:
        return LedgerAccount.objects.get(**lookup)


def wallet_account(*, user: Any, currency: str) -> LedgerAccount:
    return _account_get_or_create(kind=AccountKind.WALLET, currency=currency, user=user)


def escrow_account(*, table_id: int, currency: str) -> LedgerAccount:
    return _account_get_or_create(kind=AccountKind.ESCROW, currency=currency, table_id=table_id)


def system_account(*, kind: str, currency: str) -> LedgerAccount:
    """The room's world, house or pending-withdrawal account for a currency."""
    return _account_get_or_create(kind=kind, currency=currency, user=None, table=None)


def pool_account(*, tournament_id: int, currency: str) -> LedgerAccount:
    """The tournament's prize pool, created on first use in `currency`. A tournament has one
    pool (a database constraint): asked in another currency, it answers `currency_mismatch`."""
    pool = LedgerAccount.objects.filter(kind=AccountKind.POOL, tournament_id=tournament_id).first()
    if pool is None:
        pool = _account_get_or_create(kind=AccountKind.POOL, currency=currency,
                                      tournament_id=tournament_id)
    if pool.currency != currency:
        raise CashierError("currency_mismatch", "Play money and real money never mix: this "
                           f"tournament is played for {pool.get_currency_display().lower()}.")
    return pool


AccountLookup = tuple[str, str, int | None, int | None]  # kind, currency, user id, table id


def wallet_lookup(*, user_id: int, currency: str) -> AccountLookup:
    return (AccountKind.WALLET, currency, user_id, None)


def escrow_lookup(*, table_id: int, currency: str) -> AccountLookup:
    return (AccountKind.ESCROW, currency, None, table_id)


def system_lookup(*, kind: str, currency: str) -> AccountLookup:
    return (kind, currency, None, None)


def accounts_find(lookups: Sequence[AccountLookup], *, lock: bool = False) -> list[LedgerAccount]:
    """The accounts of `lookups`, in that order, read in one query and created on first use,
    as `_account_get_or_create` does for one. (Fixed SQL: a hand's settlement and every
    top-up run it, and the ORM compiled the OR of lookups anew.)

    `lock`: take lock step 3 in the same query (as `accounts_lock` does: ascending id, FOR NO
    KEY UPDATE), but only if every account exists. Creating one may wait on a concurrent
    creator's INSERT, and that creator may be waiting for an account we would already hold:
    so when one is missing, nothing is locked until all exist, and then all are locked."""
    names = ("kind", "currency", "user", "table")
    table, pk, *columns = sql_names(LedgerAccount, "id", *names)
    column = dict(zip(names, columns, strict=True))
    clauses, params = [], []
    for lookup in lookups:
        parts = []
        for name, value in zip(names, lookup, strict=True):
            if value is None:
                parts.append(f"{column[name]} IS NULL")
            else:
                parts.append(f"{column[name]} = %s")
                params.append(value)
        clauses.append(f"({' AND '.join(parts)})")
    where = " OR ".join(clauses)
    sql = f"SELECT * FROM {table} WHERE ({where})"
    if lock:
        sql += (f" AND (SELECT count(*) FROM {table} WHERE {where}) = %s"
                f" ORDER BY {pk}{for_no_key_update()}")
        params = [*params, *params, len(set(lookups))]
    found = {(a.kind, a.currency, a.user_id, a.table_id): a
             for a in LedgerAccount.objects.raw(sql, params)}
    created = {lookup: _account_get_or_create(
        **dict(zip(("kind", "currency", "user_id", "table_id"), lookup, strict=True)))
        for lookup in lookups if lookup not in found}
    if lock and created:  # then none was found: all of them are in `created`
        fresh = accounts_lock(created.values())
        created = {lookup: fresh[account.pk] for lookup, account in created.items()}
    return [found.get(lookup) or created[lookup] for lookup in lookups]


def for_no_key_update() -> str:
    """The row-lock clause for fixed SQL (empty on SQLite, whose transactions lock it all)."""
    return " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else ""


def accounts_lock(accounts: Iterable[LedgerAccount]) -> dict[int, LedgerAccount]:
    """Lock step 3: lock all the accounts in ascending id and return fresh rows by id.

    FOR NO KEY UPDATE: it excludes other writers of the row but not the KEY SHARE locks that
    inserting an entry (a foreign key to the account) takes. (On SQLite the IMMEDIATE
    transaction already holds the write lock.)"""
    ids = sorted({account.pk for account in accounts})
    table, pk = sql_names(LedgerAccount, "id")
    rows = LedgerAccount.objects.raw(
        f"SELECT * FROM {table} WHERE {pk} IN "
        f"({', '.join(['%s'] * len(ids))}) ORDER BY {pk}{for_no_key_update()}", ids)
    return {row.pk: row for row in rows}


def sql_names(model: type[Model], *fields: str) -> tuple[str, ...]:
    """For fixed SQL: the model's quoted table name, then its fields' quoted column names."""
    quote, meta = connection.ops.quote_name, model._meta
    return quote(meta.db_table), *(quote(meta.get_field(name).column) for name in fields)


# Posting --------------------------------------------------------------------------------------
def ledger_post(
    *,
    kind: str,
    currency: str,
    legs: Legs,
    user: Any = None,
    table: int | None = None,
    tournament: int | None = None,
    memo: str = "",
    link: tuple[type[Model], int, str] | None = None,
    also: Sequence[Statement] = (),
) -> LedgerTransaction:
    """Write one balanced transaction and move the balances.

    Needs: every account in `legs` locked by `accounts_lock` in this transaction (the instances
    passed carry the balances read under that lock). Legs on the same account are merged.
    Raises CashierError `insufficient_funds` if a non-world account would go below zero.
    `link` (model, primary key, foreign key field): a row that records the new transaction.
    `also`: writes of the caller's (whose results nobody reads, on rows other than these) sent
    with the posting. On PostgreSQL all of it is one statement (a hand's settlement posts its
    rake on every raked hand); elsewhere one statement per write."""
    by_account: dict[int, int] = defaultdict(int)
    accounts: dict[int, LedgerAccount] = {}
    for account, amount in legs:
        if account.currency != currency:
            raise CashierError("currency_mismatch", "Play money and real money never mix.")
        by_account[account.pk] += amount
        accounts[account.pk] = account
    entries = [(accounts[pk], amount) for pk, amount in sorted(by_account.items()) if amount]
    if sum(amount for _, amount in entries) != 0:
        raise AssertionError(f"unbalanced transaction: {entries}")
    if len(entries) < 2:
        raise AssertionError("a transaction moves money between at least two accounts")
    for account, amount in entries:
        if account.kind != AccountKind.WORLD and account.balance + amount < 0:
            raise CashierError(
                "insufficient_funds",
                f"Insufficient balance: {money_format(account.balance, currency)} available, "
                f"{money_format(-amount, currency)} needed.",
            )
    tx = LedgerTransaction(
        kind=kind, currency=currency, entry_count=len(entries), memo=memo,
        user_id=getattr(user, "pk", user), table_id=table, tournament_id=tournament,
        created_at=timezone.now(),
    )
    balances = amounts_add_statement(
        LedgerAccount, "balance", {account.pk: amount for account, amount in entries})
    if connection.vendor == "postgresql":
        tx.pk = _post_in_one_statement(tx, entries, balances, link, also)
    else:
        tx.save(force_insert=True)
        LedgerEntry.objects.bulk_create([LedgerEntry(transaction=tx, account=account,
                                                     amount=amount) for account, amount in entries])
        with connection.cursor() as cursor:
            for sql, params in [balances, *also]:
                cursor.execute(sql, params)
        if link is not None:
            model, pk, field = link
            model.objects.filter(pk=pk).update(**{field: tx})
    for account, amount in entries:
        account.balance += amount
    transaction.on_commit(metrics.LEDGER_TRANSACTIONS.labels(kind).inc)
    return tx


def _post_in_one_statement(tx: LedgerTransaction, entries: list[tuple[LedgerAccount, int]],
                           balances: Statement, link: tuple[type[Model], int, str] | None,
                           also: Sequence[Statement]) -> int:
    """The transaction, its entries, the balances, the link and `also` as one data-modifying
    WITH (PostgreSQL runs every part to completion whether read or not): the new id."""
    tx_names = ["kind", "currency", "entry_count", "user", "table", "tournament", "memo",
                "created_at"]
    tx_table, tx_pk, *tx_columns = sql_names(LedgerTransaction, "id", *tx_names)
    tx_fields = [LedgerTransaction._meta.get_field(name) for name in tx_names]
    tx_params = [f.get_db_prep_save(getattr(tx, f.attname), connection) for f in tx_fields]
    entry_table, entry_tx, entry_account, entry_amount = sql_names(
        LedgerEntry, "transaction", "account", "amount")
    parts = [
        f"t AS (INSERT INTO {tx_table} ({', '.join(tx_columns)}) VALUES "
        f"({', '.join(['%s'] * len(tx_columns))}) RETURNING {tx_pk})",
        f"e AS (INSERT INTO {entry_table} ({entry_tx}, {entry_account}, {entry_amount}) "
        f"SELECT t.{tx_pk}, u.a, u.m FROM t, UNNEST(%s::bigint[], %s::bigint[]) AS u(a, m))",
        f"b AS ({balances[0]})",
    ]
    params: list[Any] = [*tx_params, [a.pk for a, _ in entries], [m for _, m in entries],
                         *balances[1]]
    if link is not None:
        model, pk, field = link
        table, column, key = sql_names(model, field, model._meta.pk.name)
        parts.append(f"l AS (UPDATE {table} SET {column} = (SELECT {tx_pk} FROM t) "
                     f"WHERE {key} = %s)")
        params.append(pk)
    for n, (sql, more) in enumerate(also):
        parts.append(f"w{n} AS ({sql})")
        params.extend(more)
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(parts)} SELECT {tx_pk} FROM t", params)
        return cursor.fetchone()[0]


def amounts_add_statement(model: type[Model], name: str, amounts: dict[int, int]) -> Statement:
    """Add to field `name` of several rows in one UPDATE (primary key → amount); the database
    adds to what is there. Needs the rows locked by the caller.

    Fixed SQL rather than the ORM's F() + Case/When: every hand's settlement, top-up and
    ledger posting runs it, and compiling that expression was most of its cost."""
    table, column, pk = sql_names(model, name, model._meta.pk.name)
    ids = sorted(amounts)
    cases = " ".join(["WHEN %s THEN %s"] * len(ids))
    params: list[int] = [n for pk_value in ids for n in (pk_value, amounts[pk_value])]
    return (f"UPDATE {table} SET {column} = {column} + CAST(CASE {pk} {cases} END AS bigint) "
            f"WHERE {pk} IN ({', '.join(['%s'] * len(ids))})", [*params, *ids])


def amounts_add(model: type[Model], name: str, amounts: dict[int, int]) -> None:
    """`amounts_add_statement`, run."""
    if not amounts:
        return
    sql, params = amounts_add_statement(model, name, amounts)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# Idempotency ----------------------------------------------------------------------------------
def idempotent_run(
    *, key: str, operation: str, params: dict[str, Any], apply: Callable[[], dict[str, Any]],
    savepoint: bool = True,
) -> dict[str, Any]:
    """Run `apply` at most once per key, atomically with the claim of the key (lock step 1).

    A repeat with the same parameters returns the first outcome (the stored result dict); with
    other parameters it raises `idempotency_conflict`. A refused first attempt rolls back its
    claim, so a retry runs again. A concurrent duplicate waits on the first's INSERT (PostgreSQL)
    or on the database write lock (SQLite) and then returns the committed outcome.
    `savepoint=False`: the caller's transaction is the unit, and a refusal rolls it back whole
    (two statements fewer; the tables services, whose requests are one transaction each)."""
    if not key or len(key) > 200:
        raise CashierError("missing_idempotency_key", "The request has no valid idempotency key.")
    with transaction.atomic(savepoint=savepoint):
        record_id = _claim(key=key, operation=operation,
                           fingerprint=fingerprint(operation, params))
        if record_id is None:
            first = IdempotencyRecord.objects.get(key=key)
            if first.operation != operation or not fingerprint_matches(
                    first.fingerprint, operation, params):
                raise CashierError(
                    "idempotency_conflict",
                    "This request key was already used for a different request; "
                    "reload the page and try again.",
                )
            return first.result
        result = apply()
        IdempotencyRecord.objects.filter(pk=record_id).update(result=result)
        return result


def _claim(*, key: str, operation: str, fingerprint: str) -> int | None:
    """Insert the idempotency record unless its key exists: the new record's id, or None."""
    return insert_unless_exists(
        IdempotencyRecord, {"key": key, "operation": operation, "fingerprint": fingerprint,
                            "result": {}, "created_at": timezone.now()}, conflict=("key",))


def insert_unless_exists(model: type[Model], values: dict[str, Any],
                         conflict: Sequence[str], also: Sequence[Statement] = ()) -> Any:
    """Insert a row of `model` ({field name: value}) unless one with the same `conflict`
    fields exists: the new row's id, or None. One statement (INSERT ... ON CONFLICT DO
    NOTHING, PostgreSQL and SQLite 3.35+); a concurrent insert of the same key waits for the
    first to commit (then finds it) or roll back. `also`: scalar SQL expressions (with their
    parameters) read in the same statement; then the new row's id and their values as a
    tuple, or None."""
    meta = model._meta
    table, pk, *columns = sql_names(model, meta.pk.name, *values, *conflict)
    columns, keys = columns[:len(values)], columns[len(values):]
    params = [meta.get_field(name).get_db_prep_save(value, connection)
              for name, value in values.items()]
    returning = ", ".join([pk, *(sql for sql, _ in also)])
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
            f"({', '.join(['%s'] * len(params))}) ON CONFLICT ({', '.join(keys)})"
            f" DO NOTHING RETURNING {returning}",
            [*params, *(value for _, values in also for value in values)])
        row = cursor.fetchone()
    if row is None:
        return None
    return tuple(row) if also else row[0]


# A generic transfer (admin corrections, benchmarks, tests) ------------------------------------
def ledger_transfer(
    *,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    idempotency_key: str,
    kind: str = "transfer",
    memo: str = "",
) -> LedgerTransaction:
    """Move `amount` from one account to another of the same currency.

    Locks: idempotency record, then both accounts in ascending id."""
    if amount <= 0:
        raise CashierError("invalid_amount", "The amount must be positive.")
    if source.currency != destination.currency:
        raise CashierError("currency_mismatch", "Play money and real money never mix.")

    def apply() -> dict[str, Any]:
        locked = accounts_lock([source, destination])
        tx = ledger_post(
            kind=kind,
            currency=source.currency,
            legs=[(locked[source.pk], -amount), (locked[destination.pk], amount)],
            user=source.user_id or destination.user_id,
            memo=memo,
        )
        return {"transaction_id": tx.pk}

    result = idempotent_run(
        key=idempotency_key,
        operation="transfer",
        params={"source": source.pk, "destination": destination.pk, "amount": amount, "kind": kind},
        apply=apply,
    )
    return LedgerTransaction.objects.get(pk=result["transaction_id"])
