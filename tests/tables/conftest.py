"""Fixtures for the live tables: funded players, a table, recorded timers, the Redis layer."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest


class Timers:
    """Records what the services would have queued in Celery; `due()` lists them."""

    def __init__(self) -> None:
        self.timeouts: list[dict[str, Any]] = []
        self.starts: list[dict[str, Any]] = []
        self.clocks: list[dict[str, Any]] = []
        self.stats: list[dict[str, Any]] = []

    def timeout(self, **kwargs: Any) -> None:
        self.timeouts.append(kwargs)

    def start(self, **kwargs: Any) -> None:
        self.starts.append(kwargs)

    def clock(self, **kwargs: Any) -> None:
        self.clocks.append(kwargs)

    def hand_stats(self, **kwargs: Any) -> None:
        self.stats.append(kwargs)


@pytest.fixture
def fake_timers(monkeypatch: pytest.MonkeyPatch) -> Timers:
    from tables import scheduling

    recorder = Timers()
    monkeypatch.setattr(scheduling, "timeout_schedule", recorder.timeout)
    monkeypatch.setattr(scheduling, "hand_start_schedule", recorder.start)
    monkeypatch.setattr(scheduling, "tournament_clock_schedule", recorder.clock)
    monkeypatch.setattr(scheduling, "hand_stats_schedule", recorder.hand_stats)
    return recorder


@pytest.fixture
def make_player(make_user):
    """A user with the play-money sign-up grant (10,000 chips) in his wallet."""
    from cashier.services import play_money_grant

    def make(username: str) -> Any:
        user = make_user(username=username)
        play_money_grant(user=user)
        return user

    return make


@pytest.fixture
def play_table(make_table):
    """No-limit 1/2 play money, buy-in 80..200, no pause between hands, 6 seats."""
    return make_table(name="Oak", structure="NL", lower_stake=2, max_seats=6,
                      hand_pause_seconds=0)


@pytest.fixture
def sit(fake_timers):
    """sit(table, user, seat_number, amount=200) through the service."""
    from tables import services

    def do(table: Any, user: Any, number: int, amount: int = 200) -> Any:
        return services.seat_take(table_id=table.pk, user=user, number=number, amount=amount,
                                  idempotency_key=f"sit-{table.pk}-{user.pk}-{uuid.uuid4().hex}")

    return do


@pytest.fixture
async def close_db_threads():
    """Close the database connection of the thread consumers run their queries in, so the
    test database can be dropped at the end (PostgreSQL refuses while a session is open)."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    yield
    await sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True, scope="session")
def drop_test_database_cleanly(django_db_setup, django_db_blocker) -> Iterator[None]:
    """PostgreSQL refuses to drop the test database while a session is open. Consumers run
    services in pool threads (and tests start workers), whose persistent connections
    (CONN_MAX_AGE) outlive the tests: end the sessions on this run's own test database before
    pytest-django drops it (its name carries this run's pid)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
