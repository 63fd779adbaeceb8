"""/healthz reports the database, Redis and a real Celery worker; 503 when any is down."""
from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db(transaction=True)
def test_healthy_when_database_redis_and_a_worker_answer(client, celery_worker_process):
    response = client.get(reverse("healthz"))

    body = response.json()
    assert response.status_code == 200, body
    assert body["healthy"] is True
    assert body["database"] == "ok"
    assert body["redis"] == "ok"
    assert body["celery"].startswith("ok (")


@pytest.mark.django_db
def test_unhealthy_without_a_worker(client):
    response = client.get(reverse("healthz"))

    body = response.json()
    assert response.status_code == 503
    assert body["healthy"] is False
    assert body["database"] == "ok"
    assert body["celery"].startswith("down: no Celery worker answered")


@pytest.mark.django_db
def test_unhealthy_when_redis_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get(reverse("healthz"))

    assert response.status_code == 503
    assert response.json()["redis"].startswith("down:")


@pytest.mark.django_db
def test_only_get_is_allowed(client):
    assert client.post(reverse("healthz")).status_code == 405
