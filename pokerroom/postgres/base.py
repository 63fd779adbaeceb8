"""Django's PostgreSQL backend with two round trips fewer per service call.

* **Deferred writes, sent with the COMMIT.** `writes_defer` holds statements whose results
  nobody reads (an action's hand update, event insert and table row update) until the
  connection is next used: the COMMIT then travels with them in one query (one round trip
  instead of two), and anything else sends them first, so they always run in the order
  they were written. A rollback drops them with the rest of the transaction; an error in one
  surfaces at the commit, which then rolls back (nothing is half-applied).
* **Health checks on idle connections only.** With `CONN_HEALTH_CHECKS`, Django pings
  (`SELECT 1`) before the first query of every request, i.e. of every service call: on a busy
  room one round trip in six. A connection that committed or rolled back less than
  `HEALTH_CHECK_IDLE_SECONDS` ago is taken as healthy; one idle for longer is pinged as before.
  A server that went away within that second fails the one call that meets it; Django then
  finds the connection unusable at the next call and opens a new one.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db.backends.postgresql import base

HEALTH_CHECK_IDLE_SECONDS = 1.0
Statement = tuple[str, Sequence[Any]]


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deferred: list[Statement] = []
        self.used_at = float("-inf")

    # Deferred writes --------------------------------------------------------------------------
    def writes_defer(self, statements: Sequence[Statement]) -> None:
        """Send `statements` with the next COMMIT, or before the next other use of the
        connection. Only inside a transaction (else they are sent at once)."""
        self.deferred.extend(statements)
        if not self.in_atomic_block:
            self.writes_send()

    def writes_send(self) -> None:
        pending, self.deferred = self.deferred, []
        if pending:
            with self.cursor() as cursor:
                for sql, params in pending:
                    cursor.execute(sql, params)

    def _cursor(self, name: str | None = None) -> Any:
        if self.deferred:
            self.writes_send()
        return super()._cursor(name)

    def _commit(self) -> None:
        pending, self.deferred = self.deferred, []
        if pending and self.connection is not None:
            # One simple-protocol query, parameters bound client-side: "w1; w2; COMMIT". After
            # it psycopg sees no transaction open, so the commit below sends nothing.
            sql = "; ".join(statement for statement, _ in pending) + "; COMMIT"
            params = [p for _, statement_params in pending for p in statement_params]
            with self.wrap_database_errors:
                cursor = self._prepare_cursor(psycopg.ClientCursor(self.connection))
                with cursor:  # Django's wrapper: queries are logged and counted as usual
                    cursor.execute(sql, params)
        super()._commit()
        self.used_at = time.monotonic()

    def _rollback(self) -> None:
        self.deferred = []
        super()._rollback()
        self.used_at = time.monotonic()

    def _close(self) -> None:
        self.deferred = []
        super()._close()

    # Health checks ----------------------------------------------------------------------------
    def close_if_health_check_failed(self) -> None:
        if (self.health_check_enabled and not self.health_check_done
                and time.monotonic() - self.used_at < HEALTH_CHECK_IDLE_SECONDS):
            self.health_check_done = True  # it answered a moment ago
            return
        super().close_if_health_check_failed()
