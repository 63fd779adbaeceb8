"""Health endpoints. /livez: the process answers (nothing else). /readyz (and its first name
/healthz): the database, Redis and a real Celery worker; 503 naming what is down."""
from __future__ import annotations

import pytest
from django.urls import reverse

READINESS = ["readyz", "healthz"]


@pytest.mark.parametrize("name", READINESS)
@pytest.mark.django_db(transaction=True)
def test_ready_when_database_redis_and_a_worker_answer(client, celery_worker_process, name):
    response = client.get(reverse(name))

    body = response.json()
    assert response.status_code == 200, body
    assert body["healthy"] is True
    assert body["database"] == "ok"
    assert body["redis"] == "ok"
    assert body["celery"].startswith("ok (")


@pytest.mark.parametrize("name", READINESS)
@pytest.mark.django_db
def test_not_ready_without_a_worker(client, name):
    response = client.get(reverse(name))

    body = response.json()
    assert response.status_code == 503
    assert body["healthy"] is False
    assert body["database"] == "ok"
    assert body["celery"].startswith("down: no Celery worker answered")


@pytest.mark.parametrize("name", READINESS)
@pytest.mark.django_db
def test_not_ready_when_redis_is_unreachable(client, settings, name):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get(reverse(name))

    assert response.status_code == 503
    assert response.json()["redis"].startswith("down:")


def test_not_ready_when_the_database_is_down(client, monkeypatch):
    from pokerroom import health

    def refused() -> str:
        raise ConnectionError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", refused)

    response = client.get(reverse("readyz"))

    assert response.status_code == 503
    assert response.json()["database"] == "down: connection refused"


def test_alive_even_when_redis_and_the_workers_are_down(client, settings):
    """Liveness must not depend on other services: a Redis outage must not get every web
    process restarted (no database access either: no django_db mark, it would fail)."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = client.get(reverse("livez"))

    assert response.status_code == 200
    assert response.json() == {"alive": True}


@pytest.mark.parametrize("name", ["livez", *READINESS])
def test_only_get_is_allowed(client, name):
    assert client.post(reverse(name)).status_code == 405
