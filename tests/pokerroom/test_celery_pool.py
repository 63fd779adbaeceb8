"""A prefork Celery worker keeps its database connections between tasks: Celery's Django fixup
used to close Django's whole connection pool around every task (celery#10554), and each task
opened new PostgreSQL sessions (pokerroom/celery.py)."""
from __future__ import annotations

import subprocess
import sys
import time
import uuid

import pytest
from django.db import connection

from tests.conftest import REPO, stop_process, worker_ready
from tests.tables.realroom import QUEUE, forget_queue, room_env

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
TASKS = 30


def sessions_started() -> int:
    """Sessions PostgreSQL has started on the test database (its cumulative statistics)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_a_prefork_worker_reuses_its_connections_from_task_to_task():
    from pokerroom.celery import app

    name = f"t-{uuid.uuid4().hex[:8]}@localhost"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "--pool", "prefork",
         "--concurrency", "1", "-n", name, "--loglevel", "WARNING", "--without-gossip",
         "--without-mingle"], cwd=REPO, env=room_env())
    try:
        worker_ready(name)
        app.send_task("tables.sweep", queue=QUEUE)  # the child's first connections
        done = lambda: (app.control.inspect(destination=[name], timeout=2).stats() or {}).get(  # noqa: E731
            name, {}).get("total", {}).get("tables.sweep", 0)
        deadline = time.monotonic() + 60
        while done() < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        before = sessions_started()
        for _ in range(TASKS):
            app.send_task("tables.sweep", queue=QUEUE)
        while done() < 1 + TASKS and time.monotonic() < deadline:
            time.sleep(0.1)
        assert done() == 1 + TASKS
        time.sleep(1.5)  # backends report their statistics at most once a second
        opened = sessions_started() - before
    finally:
        stop_process(worker)
        forget_queue(QUEUE)
    # Closing the pool around each task opened at least one session per task.
    assert opened <= 3, f"{opened} sessions for {TASKS} tasks"
