"""Browser tests: the room served by a real daphne with a real Celery worker, driven by Playwright
in Debian's Chromium. Screenshots and the console log are saved to test-artifacts/ on failure."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from pokerroom.processes import daphne_command, free_port, stop_process, wait_for_http
from tests.conftest import METRICS_TOKEN, REPO, celery_worker, database_url_for_subprocesses

# Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are still
# plain synchronous code, so Django's async-safety guard must not refuse them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = REPO / "test-artifacts"

pytestmark = pytest.mark.browser
ROOM_WORKER: list[str] = []  # the name of the room's Celery worker, while it runs


@pytest.fixture(scope="session")
def room_url(django_db_setup, django_db_blocker) -> Iterator[str]:
    """daphne + a Celery worker on the test database, on a free port."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with django_db_blocker.unblock():
        env = {"DATABASE_URL": database_url_for_subprocesses(), "CSRF_TRUSTED_ORIGINS": url,
               "METRICS_TOKEN": METRICS_TOKEN,  # tests read what the server counted
               # events a test records in this process reach the server's sockets
               "CHANNEL_LAYER_PREFIX": settings.ROOM_CHANNEL_PREFIX}
    server = subprocess.Popen(daphne_command(sys.executable, host="127.0.0.1", port=port),
                              cwd=REPO, env={**os.environ, **env})
    try:
        wait_for_http(f"{url}/accounts/login/")
        with django_db_blocker.unblock(), celery_worker(**env) as worker:
            ROOM_WORKER[:] = [worker.name]
            yield url
            ROOM_WORKER.clear()
    finally:
        stop_process(server)


# Package scope: Playwright's sync API keeps an event loop running in this thread while it is
# open, which would break every async test collected after the browser tests.
@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def new_page(request, browser):
    """Open pages in fresh browser contexts (one per player); on failure keep evidence."""
    contexts: list[tuple[str, object, list[str]]] = []

    def open_page(name: str = "page", **options: object):
        """`options` for the browser context (bypass_csp=True: tools that evaluate strings)."""
        context = browser.new_context(viewport={"width": 1280, "height": 860}, **options)
        page = context.new_page()
        log: list[str] = []
        page.on("console", lambda msg: log.append(f"{msg.type}: {msg.text}"))
        page.on("pageerror", lambda exc: log.append(f"pageerror: {exc}"))
        contexts.append((name, page, log))
        return page

    yield open_page
    failed = getattr(request.node, "report_call", None)
    for name, page, log in contexts:
        if failed is not None and failed.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            stem = f"{request.node.name}-{name}".replace("/", "_")
            try:
                page.screenshot(path=str(ARTIFACTS / f"{stem}.png"), full_page=True)
            except Exception as exc:  # the page may be gone; the log still helps
                log.append(f"screenshot failed: {exc}")
            (ARTIFACTS / f"{stem}.console.log").write_text("\n".join(log))
        page.context.close()
    room_quiet()


def room_quiet(timeout: float = 15.0) -> None:
    """Before the test database is flushed, the room's work for this test ends: tables stop
    dealing, the worker's waiting tasks (next hands, turn timers) are revoked and its running one
    finishes, and daphne lets go of every socket. A task still running while the flush truncates
    the tables deadlocked with it once in CI (a turn timer against TRUNCATE), and the next test
    then found the last one's users."""
    from pokerroom.celery import app
    from tables.models import TableConfig, TablePresence

    if not ROOM_WORKER:
        return  # this test ran no room
    TableConfig.objects.update(is_active=False)
    revoked: set[str] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # Only our worker is asked (the other test process's share the broker, and their tasks
        # are not ours to revoke); `limit=1` answers as soon as it has replied.
        inspect = app.control.inspect(destination=ROOM_WORKER, timeout=2, limit=1)
        waiting = {task.get("request", task)["id"]
                   for found in (inspect.scheduled() or {}, inspect.reserved() or {})
                   for tasks in found.values() for task in tasks} - revoked
        if waiting:
            app.control.revoke(list(waiting), destination=ROOM_WORKER)
            revoked |= waiting
        running = any(tasks for tasks in (inspect.active() or {}).values())
        sockets = TablePresence.objects.filter(sockets__gt=0).count()
        if not waiting and not running and not sockets:
            return
        time.sleep(0.05)
    warnings.warn(f"the browser tests' room did not go quiet before the flush: waiting "
                  f"{waiting}, running {running}, tables with sockets {sockets}", stacklevel=2)
