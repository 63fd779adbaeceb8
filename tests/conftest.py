"""Fixtures shared by the whole suite: users, tables, and a real Celery worker process."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokerroom.processes import stop_process

REPO = Path(__file__).resolve().parent.parent


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


def wait_for_celery(timeout: float = 30.0) -> None:
    from pokerroom.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.control.ping(timeout=0.5):
            return
    raise RuntimeError(f"the Celery worker did not answer a ping within {timeout} s")


@contextlib.contextmanager
def celery_worker(**env: str) -> Iterator[subprocess.Popen]:
    """A real `celery worker` process on the test database and the test Redis."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "--pool", "solo",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        cwd=REPO, env={**os.environ, "DATABASE_URL": database_url_for_subprocesses(), **env},
    )
    try:
        wait_for_celery()
        yield worker
    finally:
        stop_process(worker)


@pytest.fixture
def celery_worker_process(transactional_db) -> Iterator[subprocess.Popen]:
    with celery_worker() as worker:
        yield worker
