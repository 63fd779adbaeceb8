"""Health endpoints for load balancers, orchestrators and operators.

* `/livez` (liveness): the process answers requests. Checks nothing else, so a database or
  Redis outage does not get every web process restarted; restart the process when it fails.
* `/readyz` (readiness; `/healthz` is the same): the database, Redis and at least one Celery
  worker answer. 503 naming what is down; route traffic only to processes that are ready.
"""
from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from pokerroom.celery import app as celery_app


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


def check_celery() -> str:
    replies = celery_app.control.ping(timeout=1.0)
    if not replies:
        raise RuntimeError("no Celery worker answered a ping within 1 s")
    return f"ok ({len(replies)} worker{'s' if len(replies) != 1 else ''})"


CHECKS = {"database": check_database, "redis": check_redis, "celery": check_celery}


@require_GET
def livez(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"alive": True})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    status: dict[str, str] = {}
    healthy = True
    for name, check in CHECKS.items():
        try:
            status[name] = check()
        except Exception as exc:  # any failure of a dependency is reported, never raised
            status[name] = f"down: {exc}"
            healthy = False
    return JsonResponse({"healthy": healthy, **status}, status=200 if healthy else 503)


healthz = readyz  # the readiness check's first name, kept for existing probes
