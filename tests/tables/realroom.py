"""A real room for tests: daphne and Celery worker subprocesses on the test database.

They use a Celery queue and a channel-layer prefix private to this test run, because other
runs (and other developers' rooms) may share the same Redis: a foreign worker must not eat our
timers, and foreign table events must not reach our sockets."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings

from pokerroom.processes import daphne_command, stop_process
from tests.browser.conftest import free_port, wait_for_http
from tests.conftest import METRICS_TOKEN, REPO, database_url_for_subprocesses, worker_ready

QUEUE = f"tests-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def room_env(**extra: str) -> dict[str, str]:
    """Environment for subprocesses: the test database, our queue and channel-layer prefix."""
    return {
        **os.environ,
        "DATABASE_URL": database_url_for_subprocesses(),
        "CELERY_QUEUE": QUEUE,
        "CHANNEL_LAYER_PREFIX": settings.ROOM_CHANNEL_PREFIX,
        "METRICS_TOKEN": METRICS_TOKEN,  # tests read what the server counted (room_metric)
        **extra,
    }


@pytest.fixture(name="private_queue")
def private_queue_fixture(transactional_db, monkeypatch: pytest.MonkeyPatch) -> str:
    """Tasks queued by this process (services' on-commit timers) go to our queue."""
    from pokerroom.celery import app

    monkeypatch.setitem(app.conf, "task_default_queue", QUEUE)
    return QUEUE


@contextlib.contextmanager
def worker(*, beat: bool = False, tmp_path: Any = None,
           queue: str = QUEUE) -> Iterator[subprocess.Popen]:
    """A `celery worker` (solo pool) on our queue; with `beat`, the sweeper schedule too."""
    name = f"t-{uuid.uuid4().hex[:8]}@localhost"
    args = [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "--pool", "solo",
            "-n", name, "--loglevel", "WARNING", "--without-gossip", "--without-mingle"]
    if beat:
        args += ["-B", "-s", str(tmp_path / f"beat-{uuid.uuid4().hex[:6]}")]
    # A session of its own: `kill_hard` kills its embedded beat (a child process) with it.
    process = subprocess.Popen(args, cwd=REPO, env=room_env(CELERY_QUEUE=queue),
                               start_new_session=True)
    try:
        worker_ready(name)
        process.name = name  # type: ignore[attr-defined]
        yield process
    finally:
        stop_process(process)
        forget_queue(queue)


def forget_queue(queue: str) -> None:
    """Drop what a stopped worker handed back (its reserved eta tasks): nothing will run them,
    and a shared Redis should not keep them."""
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(queue, f"{queue}.timers")


def kill_hard(process: subprocess.Popen) -> None:
    """kill -9: no cleanup, reserved eta tasks are lost with the process. A worker dies with
    its children (a crashed host takes the embedded beat too); killing the worker alone left
    its beat running, and scheduling sweeps, after the test."""
    try:
        os.killpg(process.pid, signal.SIGKILL)  # a worker: the leader of its own group
    except ProcessLookupError:  # daphne: a process of the test's group
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)


def start_daphne(port: int, *, wait: bool = True, proxy_headers: bool = False,
                 **env: str) -> subprocess.Popen:
    """daphne on `port`; with `wait`, returns once it answers (else see `daphne_ready`);
    `proxy_headers`: behind nginx, as the launcher runs it."""
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        daphne_command(sys.executable, host="127.0.0.1", port=port, proxy_headers=proxy_headers),
        cwd=REPO, env=room_env(CSRF_TRUSTED_ORIGINS=url, **env),
    )
    if wait:
        daphne_ready(process, port)
    return process


def daphne_ready(process: subprocess.Popen, port: int) -> None:
    try:
        wait_for_http(f"http://127.0.0.1:{port}/healthz")
    except BaseException:
        stop_process(process)
        raise


@contextlib.contextmanager
def daphne(port: int | None = None, **env: str) -> Iterator[str]:
    """daphne serving the room on a free port (`env`: extra settings); yields its URL."""
    port = port or free_port()
    process = start_daphne(port, **env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(process)


def wait_until(check: Callable[[], Any], *, timeout: float, message: str) -> Any:
    """Poll `check` (a database read) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s: {message}")


@pytest.fixture(name="room")
def room_fixture(private_queue) -> Iterator[str]:
    """daphne + a Celery worker on the test database; yields the room's http:// URL."""
    port = free_port()
    server = start_daphne(port, wait=False)  # boots while the worker does
    try:
        with worker():
            daphne_ready(server, port)
            yield f"http://127.0.0.1:{port}"
            stop_process(server)  # before the worker, as ever
    finally:
        stop_process(server)


def restart_when(ready: Callable[[], Any], message: str, servers: dict, *, port: int,
                 tmp_path: Any, stack: contextlib.ExitStack) -> None:
    """In a thread of its own: once `ready()` (a database read), kill -9 `servers["daphne"]`
    and `servers["worker"]` (its beat too) and start them again; `servers["restarted"]` says it
    happened. The bots reconnect; the sweeper resumes the clock, lost hands and balancing."""
    from django.db import connection

    try:
        wait_until(ready, timeout=90, message=message)
        kill_hard(servers["daphne"])
        kill_hard(servers["worker"])
        servers["daphne"] = start_daphne(port, wait=False)
        servers["worker"] = stack.enter_context(worker(beat=True, tmp_path=tmp_path))
        daphne_ready(servers["daphne"], port)
        servers["restarted"] = True
    finally:
        connection.close()
