"""GET /metrics: every metric of the room (observability/metrics.py) in Prometheus's text
format, behind a bearer token or a staff session.

Several processes (daphne, Celery worker) serve one room: with `PROMETHEUS_MULTIPROC_DIR` set
(before any process starts, to an empty directory all of them share) prometheus_client writes
each process's values there and the view sums them, so a scrape of any daphne shows the whole
room. The scrape also reads two live numbers from the database (hands running, players
seated): they are the truth whichever process started or ended what. It lives here, not in
observability/, because it reads the tables' models.
"""
from __future__ import annotations

import hmac
from collections.abc import Iterator

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from observability import metrics
from tables.models import Seat, TableState


def hands_running() -> int:
    return TableState.objects.filter(hand__isnull=False, hand__finished_at__isnull=True).count()


def players_seated() -> int:
    return Seat.objects.count()


class LiveCollector(Collector):
    """Numbers read from the database at scrape time (one cheap query each)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            running, seated = hands_running(), players_seated()
        except DatabaseError:  # the other metrics still go out; /readyz names the outage
            return
        yield GaugeMetricFamily("room_hands_running", "Hands in play now.", value=running)
        yield GaugeMetricFamily("room_players_seated", "Seats taken now.", value=seated)


def room_registry() -> CollectorRegistry:
    """The metrics of every process of the room (summed) or of this one."""
    if metrics.MULTIPROCESS:
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def sockets_open() -> dict[str, int]:
    """WebSockets open now in the whole room, by kind (`room_sockets_open`)."""
    found: dict[str, int] = {}
    for family in room_registry().collect():
        if family.name == "room_sockets_open":
            for sample in family.samples:
                kind = sample.labels.get("kind", "")
                found[kind] = found.get(kind, 0) + int(sample.value)
    return found


def exposition() -> bytes:
    """Every metric of the room in Prometheus's text format."""
    registry = room_registry()
    live = CollectorRegistry()
    live.register(LiveCollector())
    return generate_latest(registry) + generate_latest(live)


def token_ok(header: str, token: str) -> bool:
    """Does an `Authorization: Bearer ...` header carry `token` (compared in constant time)?"""
    scheme, _, given = header.partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode())


def metrics_view(request: HttpRequest) -> HttpResponse:
    """GET /metrics for Prometheus: a bearer token (`METRICS_TOKEN`) or a staff session.
    Anyone else gets 401 (no credentials, or a wrong token) or 403 (logged in, not staff)."""
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
    header = request.headers.get("Authorization", "")
    allowed = token_ok(header, settings.METRICS_TOKEN) if header else request.user.is_staff
    if not allowed:
        if request.user.is_authenticated and not header:
            return HttpResponse("Staff only.\n", status=403, content_type="text/plain")
        return HttpResponse("Send Authorization: Bearer <METRICS_TOKEN>, or log in as staff.\n",
                            status=401, content_type="text/plain",
                            headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
