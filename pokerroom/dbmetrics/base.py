"""Django's PostgreSQL backend (psycopg 3) counting and timing every statement like
django-prometheus's own backends: `django_db_new_connections_total`, `django_db_execute_total`,
`django_db_query_duration_seconds`, `django_db_errors_total`. django-prometheus's backend is
written for psycopg 2; this one gives psycopg 3 its counting cursor class instead.

Opt-in (`METRICS_DATABASE=1`, settings.py): it costs a few microseconds per statement."""
from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base
from django_prometheus.db.common import DatabaseWrapperMixin, ExportingCursorWrapper


class DatabaseWrapper(DatabaseWrapperMixin, base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        params["cursor_factory"] = ExportingCursorWrapper(params["cursor_factory"], self.alias,
                                                          self.vendor)
        return params

    def create_cursor(self, name: str | None = None) -> Any:
        # psycopg already makes counting cursors (cursor_factory above): Django's own method,
        # not the mixin's (written for psycopg 2).
        return base.DatabaseWrapper.create_cursor(self, name=name)
