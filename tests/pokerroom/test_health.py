"""Health endpoints. /livez: the process answers (nothing else). /readyz (and its first name
/healthz): this process can serve players (database and Redis); the Celery workers are reported
(pinged at most once per few seconds) but a worker outage does not make any daphne unready.
Answers carry fixed reasons, never an exception's text."""
from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from django.urls import reverse
from prometheus_client.parser import text_string_to_metric_families

from pokerroom import health
from pokerroom.celery import app as celery_app

READINESS = ["readyz", "healthz"]
SECRET_LOOKING = "connection to db.internal:5432 failed for user room_admin password=hunter2"


def workers_metric(client, settings) -> float:
    """`room_celery_workers` as Prometheus scrapes it."""
    settings.METRICS_TOKEN = "scrape"
    page = client.get(reverse("metrics"), HTTP_AUTHORIZATION="Bearer scrape").content.decode()
    return next(s.value for f in text_string_to_metric_families(page) for s in f.samples
                if s.name == "room_celery_workers")


@pytest.fixture(autouse=True)
def fresh_ping() -> Iterator[None]:
    """Each test pings for itself: no answer cached by the test before."""
    health.REPORTS["celery"].forget()
    yield
    health.REPORTS["celery"].forget()


@pytest.fixture
def pings(monkeypatch) -> list[float]:
    """Count the workers' pings; two workers answer each."""
    calls: list[float] = []

    def ping(timeout: float) -> list[dict]:
        calls.append(timeout)
        return [{"w1@host": {"ok": "pong"}}, {"w2@host": {"ok": "pong"}}]

    monkeypatch.setattr(celery_app.control, "ping", ping)
    return calls


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
def test_a_worker_outage_is_reported_but_leaves_the_process_ready(client, settings, name):
    """Every daphne shares the workers: failing readiness would take them all out of the load
    balancer at once. The outage shows in the answer and in the metric instead."""
    response = client.get(reverse(name))

    body = response.json()
    assert response.status_code == 200, body
    assert body["healthy"] is True
    assert body["database"] == body["redis"] == "ok"
    assert body["celery"] == "down: no worker answered"
    assert workers_metric(client, settings) == 0


@pytest.mark.parametrize("name", READINESS)
@pytest.mark.django_db
def test_not_ready_when_redis_is_unreachable(client, settings, pings, name):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get(reverse(name))

    assert response.status_code == 503
    assert response.json()["redis"] == "down: redis unreachable"


def test_not_ready_when_the_database_is_down_and_the_cause_is_logged_not_answered(
        client, monkeypatch, pings, caplog):
    def refused() -> str:
        raise ConnectionError(SECRET_LOOKING)

    monkeypatch.setitem(health.CHECKS, "database", refused)

    with caplog.at_level(logging.WARNING, logger="pokerroom.health"):
        response = client.get(reverse("readyz"))

    assert response.status_code == 503
    assert response.json() == {"healthy": False, "database": "down: database unreachable",
                               "redis": "ok", "celery": "ok (2 workers)"}
    assert "db.internal" not in response.content.decode()
    assert any(SECRET_LOOKING in (r.exc_text or "") for r in caplog.records), caplog.text


def test_a_failing_ping_answers_a_fixed_reason(client, monkeypatch, caplog):
    def broken(timeout: float) -> list:
        raise OSError(SECRET_LOOKING)

    monkeypatch.setattr(celery_app.control, "ping", broken)
    monkeypatch.setitem(health.CHECKS, "database", lambda: "ok")

    with caplog.at_level(logging.WARNING, logger="pokerroom.health"):
        body = client.get(reverse("readyz")).json()

    assert body["celery"] == "down: ping failed"
    assert SECRET_LOOKING in caplog.text


@pytest.mark.django_db
def test_a_burst_of_probes_pings_the_workers_once(client, settings, monkeypatch, pings):
    monkeypatch.setitem(health.CHECKS, "database", lambda: "ok")
    for _ in range(20):
        assert client.get(reverse("readyz")).json()["celery"] == "ok (2 workers)"

    assert len(pings) == 1
    assert workers_metric(client, settings) == 2

    health.REPORTS["celery"].at -= health.CELERY_PING_CACHE_SECONDS  # a few seconds later
    client.get(reverse("readyz"))
    assert len(pings) == 2


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
