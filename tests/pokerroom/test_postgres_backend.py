"""The room's PostgreSQL backend: deferred writes go out with the COMMIT (or before any other
use of the connection), never half-applied; health checks ping only idle connections."""
from __future__ import annotations

import time

import pytest
from django.db import DatabaseError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from tables.models import TableConfig

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the room's own backend is PostgreSQL's; the PostgreSQL pass runs these")


def rename(table: TableConfig, name: str) -> tuple[str, list]:
    return f"UPDATE {TableConfig._meta.db_table} SET name = %s WHERE id = %s", [name, table.pk]


def sent(captured: CaptureQueriesContext) -> list[str]:
    """The statements sent (Django also logs its own BEGIN and COMMIT calls)."""
    return [q["sql"] for q in captured if q["sql"] not in ("BEGIN", "COMMIT")]


def test_deferred_writes_are_sent_with_the_commit_in_one_query(make_table):
    table = make_table(name="Before")
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        connection.writes_defer([rename(table, "After")])
        assert sent(captured) == []  # nothing sent yet
    [query] = sent(captured)
    assert query.startswith("UPDATE") and query.endswith("; COMMIT")
    assert TableConfig.objects.get(pk=table.pk).name == "After"


def test_a_query_after_deferred_writes_sends_them_first(make_table):
    table = make_table(name="Before")
    with transaction.atomic():
        connection.writes_defer([rename(table, "After")])
        assert TableConfig.objects.get(pk=table.pk).name == "After"


def test_a_rollback_drops_deferred_writes(make_table):
    table = make_table(name="Before")
    with pytest.raises(RuntimeError), transaction.atomic():
        connection.writes_defer([rename(table, "After")])
        raise RuntimeError("the service refused")
    assert connection.deferred == []
    assert TableConfig.objects.get(pk=table.pk).name == "Before"


def test_a_failing_deferred_write_fails_the_commit_and_nothing_is_applied(make_table):
    table = make_table(name="Before")
    with pytest.raises(DatabaseError), transaction.atomic():
        TableConfig.objects.filter(pk=table.pk).update(name="Changed in the same transaction")
        connection.writes_defer([("UPDATE no_such_table SET x = 1", [])])
    assert TableConfig.objects.get(pk=table.pk).name == "Before"
    assert TableConfig.objects.count() == 1  # the connection works again


def test_outside_a_transaction_writes_are_sent_at_once(make_table):
    table = make_table(name="Before")
    connection.writes_defer([rename(table, "After")])
    assert connection.deferred == []
    assert TableConfig.objects.get(pk=table.pk).name == "After"


def test_health_checks_ping_only_connections_idle_for_a_second(make_table, monkeypatch):
    wrapper = connections["default"]
    monkeypatch.setattr(wrapper, "health_check_enabled", True)
    pings = []
    monkeypatch.setattr(wrapper, "is_usable", lambda: pings.append(1) or True)
    with transaction.atomic():
        TableConfig.objects.count()
    wrapper.close_if_unusable_or_obsolete()  # a new request starts
    TableConfig.objects.count()
    assert pings == []  # committed a moment ago: taken as healthy
    wrapper.used_at = time.monotonic() - 2
    wrapper.close_if_unusable_or_obsolete()
    TableConfig.objects.count()
    assert pings == [1]
