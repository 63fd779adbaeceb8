"""Fixtures shared by the whole suite (users, tables, a real Celery worker process), the
markers that keep a test to one database, and the list of the only skips a run may have."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pokerroom.processes import stop_process

REPO = Path(__file__).resolve().parent.parent


def running_in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


# Every skip the suite may have, and where it is expected: a run that skips anything else (a
# missing package, a skip left behind, a PostgreSQL-only test skipped on PostgreSQL) fails, on
# either pass of .ci/run. Tests reach the first two only through the `postgres` and `sqlite`
# markers below.
NEEDS_POSTGRES = ("needs PostgreSQL (row locks, row versions, connections, pg_stat_activity): "
                  "run with DATABASE_URL=postgres://...")
SQLITE_ONLY = "SQLite only: its PostgreSQL counterpart runs on the PostgreSQL pass"
PHH_CORPUS_MISSING = "the real-hand PHH corpus ../shared/phh is missing (CI has it: fails there)"
EXPECTED_SKIPS: dict[str, Callable[[str], bool]] = {  # reason: expected on this database?
    NEEDS_POSTGRES: lambda vendor: vendor == "sqlite",
    SQLITE_ONLY: lambda vendor: vendor == "postgresql",
    PHH_CORPUS_MISSING: lambda vendor: not running_in_ci(),
}


@pytest.fixture(autouse=True)
def _one_database_only(request: pytest.FixtureRequest) -> None:
    """`@pytest.mark.postgres` / `@pytest.mark.sqlite`: skip the test on the other database."""
    from django.db import connection

    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip(NEEDS_POSTGRES)
    if request.node.get_closest_marker("sqlite") and connection.vendor != "sqlite":
        pytest.skip(SQLITE_ONLY)


@pytest.fixture(autouse=True, scope="session")
def private_channel_prefix() -> Iterator[None]:
    """A broadcast channel prefix of our own: other test runs on the same Redis use the same
    group names (table ids restart at 1). Set for every test from the session's start: set
    only once a test of tests/tables ran, it left a browser test's room server (started
    earlier, on the old prefix) deaf to the events a later test recorded in this process."""
    from django.conf import settings

    old = settings.ROOM_CHANNEL_PREFIX
    settings.ROOM_CHANNEL_PREFIX = f"t{os.getpid()}{uuid.uuid4().hex[:6]}"
    yield
    settings.ROOM_CHANNEL_PREFIX = old


@pytest.fixture(autouse=True)
def _lobby_forgotten() -> None:
    """Each test's lobby starts from its own tables: the lobby's shared rows and rendered lists
    (kept per process for ROOM_LOBBY_FRESH_SECONDS) of an earlier test are dropped."""
    from django.core.cache import cache

    from tables.selectors import rows_forget

    rows_forget()
    cache.clear()


def _vendor() -> str:
    from django.conf import settings

    return "sqlite" if "sqlite" in settings.DATABASES["default"]["ENGINE"] else "postgresql"


def _skip_reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


_unexpected_skips: list[str] = []


def _skip_seen(report: pytest.CollectReport | pytest.TestReport) -> None:
    expected = EXPECTED_SKIPS.get(_skip_reason(report) if report.skipped else "")
    if report.skipped and not (expected and expected(_vendor())):
        _unexpected_skips.append(f"{report.nodeid}: {_skip_reason(report)}")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _skip_seen(report)  # with pytest-xdist, the controller sees every worker's reports


def pytest_collectreport(report: pytest.CollectReport) -> None:
    _skip_seen(report)  # a whole module skipped at import


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller decides
        return
    if _unexpected_skips and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _unexpected_skips and not hasattr(terminalreporter.config, "workerinput"):
        terminalreporter.section("unexpected skips (tests/conftest.py: EXPECTED_SKIPS)", red=True)
        for line in _unexpected_skips:
            terminalreporter.line(line, red=True)
        terminalreporter.line(f"{len(_unexpected_skips)} unexpected skip(s): the run fails",
                              red=True, bold=True)


@pytest.fixture
def make_user(db):
    from accounts.models import User

    def make(username: str = "player", password: str = "s3cret-pass-123", **extra) -> User:
        extra.setdefault("email", f"{username}@example.com")
        return User.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def make_table(db):
    from tables.models import TableConfig

    def make(**fields) -> TableConfig:
        fields.setdefault("name", f"Table {TableConfig.objects.count() + 1}")
        fields.setdefault("structure", "NL")
        fields.setdefault("lower_stake", 2)
        table = TableConfig(**fields)
        table.full_clean()
        table.save()
        return table

    return make


def database_url_for_subprocesses() -> str:
    """The URL of the database the tests use right now (the test database, not the dev one)."""
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def backend_pid() -> int:
    """The PostgreSQL backend serving this thread's connection."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def until_waiting_on_a_lock(pids: list[int], count: int = 1, timeout: float = 10.0) -> None:
    """Until `count` of the backends `pids` (filled by other threads as they start) are seen
    waiting on a lock in pg_stat_activity: forces a race's interleaving instead of hoping
    that a sleep produces it."""
    from django.db import connection

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(pids) >= count:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s) "
                               "AND wait_event_type = 'Lock'", [[int(pid) for pid in pids]])
                if cursor.fetchone()[0] >= count:
                    return
        time.sleep(0.02)
    raise AssertionError(f"{count} of the backends {pids} never waited on a lock "
                         f"within {timeout} s")


METRICS_TOKEN = "tests-scrape-token"  # what the tests' daphne processes accept at /metrics


def room_metric(url: str, name: str, **labels: str) -> float:
    """A sample of a running daphne's /metrics (started with METRICS_TOKEN), summed over the
    label values not given: what the server counted, not what a client believes it sent."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    request = urllib.request.Request(f"{url}/metrics",
                                     headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return sum(sample.value for family in text_string_to_metric_families(text)
               for sample in family.samples
               if sample.name == name and labels.items() <= sample.labels.items())


def worker_ready(name: str, timeout: float = 30.0) -> None:
    """Wait until the Celery worker `name` answers a ping (only it: other test processes'
    workers share the broker)."""
    from pokerroom.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.control.ping(destination=[name], timeout=0.5):
            return
    raise RuntimeError(f"Celery worker {name} did not answer a ping within {timeout} s")


@contextlib.contextmanager
def celery_worker(**env: str) -> Iterator[subprocess.Popen]:
    """A real `celery worker` process on the test database and the test Redis; its name is
    `.name`, for control commands meant for it alone."""
    name = f"t-{uuid.uuid4().hex[:8]}@localhost"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "--pool", "solo",
         "-n", name, "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        cwd=REPO, env={**os.environ, "DATABASE_URL": database_url_for_subprocesses(), **env},
    )
    try:
        worker_ready(name)
        worker.name = name  # type: ignore[attr-defined]
        yield worker
    finally:
        stop_process(worker)


@pytest.fixture
def celery_worker_process(transactional_db) -> Iterator[subprocess.Popen]:
    with celery_worker() as worker:
        yield worker
