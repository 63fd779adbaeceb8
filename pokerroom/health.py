"""Health endpoints for load balancers, orchestrators and operators.

* `/livez` (liveness): the process answers requests. Checks nothing else, so a database or
  Redis outage does not get every web process restarted; restart the process when it fails.
* `/readyz` (readiness; `/healthz` is the same): can this process serve players? It can when
  the database and Redis answer; 503 naming which is down otherwise. The Celery workers are
  reported beside them (and in `room_celery_workers`) but do not decide readiness: every daphne
  shares the same workers, so a worker outage would take all of them out of the load balancer
  at once, turning late timers into a room nobody can reach (docs/operations.md, "Health").

Answers name a component and a fixed reason, never an exception's text (which can carry
hostnames, users or paths): the exception goes to the log. The Celery ping is cached for
CELERY_PING_CACHE_SECONDS, so a burst of probes does not ping the workers each time.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from observability import metrics
from pokerroom.celery import app as celery_app

logger = logging.getLogger(__name__)
CELERY_PING_CACHE_SECONDS = 5.0


class Down(Exception):
    """A check's fixed, public reason for a failure (the cause is logged, not answered)."""


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_redis() -> str:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def ping_celery() -> str:
    try:
        replies = celery_app.control.ping(timeout=1.0)
    except Exception as exc:
        metrics.CELERY_WORKERS.set(0)
        raise Down("ping failed") from exc
    metrics.CELERY_WORKERS.set(len(replies))
    if not replies:
        raise Down("no worker answered")
    return f"ok ({len(replies)} worker{'s' if len(replies) != 1 else ''})"


class Cached:
    """A check's answer ("ok ..." or "down: ...") kept for `seconds`. One caller at a time runs
    the check; those arriving meanwhile wait for it and share its answer."""

    def __init__(self, name: str, check: Callable[[], str], seconds: float) -> None:
        self.name, self.check, self.seconds = name, check, seconds
        self.lock = threading.Lock()
        self.answer: str | None = None
        self.at = 0.0

    def __call__(self) -> str:
        with self.lock:
            if self.answer is None or time.monotonic() - self.at >= self.seconds:
                self.answer = status_of(self.name, self.check)
                self.at = time.monotonic()
            return self.answer

    def forget(self) -> None:
        with self.lock:
            self.answer = None


def status_of(name: str, check: Callable[[], str]) -> str:
    """`check`'s answer, or "down: <fixed reason>" with the cause in the log."""
    try:
        return check()
    except Down as down:
        logger.warning("readiness: %s is down: %s", name, down, exc_info=down.__cause__)
        return f"down: {down}"
    except Exception:  # any failure of a dependency is reported, never raised
        logger.warning("readiness: %s is down", name, exc_info=True)
        return f"down: {name} unreachable"


# Decide readiness: this process serves players with its database and Redis.
CHECKS: dict[str, Callable[[], str]] = {"database": check_database, "redis": check_redis}
# Reported only (see the module docstring).
REPORTS: dict[str, Callable[[], str]] = {
    "celery": Cached("celery", ping_celery, CELERY_PING_CACHE_SECONDS)}


@require_GET
def livez(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"alive": True})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    status = {name: status_of(name, check) for name, check in CHECKS.items()}
    healthy = all(answer == "ok" for answer in status.values())
    status |= {name: report() for name, report in REPORTS.items()}
    return JsonResponse({"healthy": healthy, **status}, status=200 if healthy else 503)


healthz = readyz  # the readiness check's first name, kept for existing probes
