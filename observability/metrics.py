"""The room's own Prometheus metrics, all defined here (the protected `/metrics` view that
serves them is pokerroom/scrape.py: this package imports no app of the room).

Counters and histograms are incremented where things happen (services, tasks, the cashier);
django-prometheus adds the HTTP request metrics (settings.MIDDLEWARE). Several processes (daphne,
Celery worker) serve one room: with `PROMETHEUS_MULTIPROC_DIR` set (before any process starts,
to an empty directory all of them share) prometheus_client writes each process's values there
and the view sums them, so a scrape of any daphne shows the whole room. `python -m
pokerroom.launch run` sets it to var/prometheus by default. See docs/operations.md.

The scrape also reads two live numbers from the database (hands running, players seated): they
are the truth whichever process started or ended what.
"""
from __future__ import annotations

import atexit
import os
from collections.abc import Awaitable, Callable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, multiprocess

from observability.logs import log_context

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

# Play ------------------------------------------------------------------------------------------
ACTIONS = Counter("room_actions", "Player actions applied (fold, check, call, bet, raise, "
                  "show, muck; timeout when the server acted for an absent player).", ["action"])
COPY_TRIES = Counter("room_copy_tries", "Actions tried on the process's copy of the table "
                    "(tables/services/copies.py): committed, or run under the lock instead "
                    "(locked: stale copy, refusal or hand end).", ["result"])
HANDS_STARTED = Counter("room_hands_started", "Hands dealt.")
HANDS_FINISHED = Counter("room_hands_finished", "Hands settled.")
TIMER_LATENESS = Histogram(
    "room_timer_lateness_seconds",
    "Seconds between a turn's deadline and the server acting for the absent player.",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0))
ACT_SECONDS = Histogram(
    "room_act_seconds",
    "Seconds from a player's `act` reaching daphne to its table step committed: waiting for a "
    "database thread, then the step (the rest of action -> every socket is the fan-out).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5))
WAIT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5)  # seconds
ACT_WAIT_SECONDS = Histogram(
    "room_act_wait_seconds",
    "The part of room_act_seconds spent waiting for a database thread to start the step.",
    buckets=WAIT_BUCKETS)
LOOP_LAG_SECONDS = Histogram(
    "room_loop_lag_seconds",
    "How late a daphne's event loop woke for a timer (sampled every 0.25 s): what every socket "
    "frame of that process waited behind.",
    buckets=WAIT_BUCKETS)
SWEEP_ACTS = Counter("room_sweep_acts", "What the beat sweeper did that a lost task missed "
                     "(timeouts, hands_started, sit_outs_removed).", ["what"])
EFFECT_FAILURES = Counter("room_effect_failures", "What a committed table step does next that "
                          "failed (broadcast, copy, turn timer, next hand, metrics): logged, and "
                          "the step's other effects still ran (tables/services/effects.py).",
                          ["effect"])

# Sockets ---------------------------------------------------------------------------------------
SOCKETS = Gauge("room_sockets_open", "WebSockets open now, by kind (table, lobby, tournament).", ["kind"],
                multiprocess_mode="livesum")
RESYNCS = Counter("room_resyncs", "Catch-ups from a known version (a reconnect with "
                  "?last_version=, a hello, a gap fill): missed events or a snapshot.")
GAPS = Counter("room_gaps", "Version gaps in a socket's live stream filled from the database.")
SNAPSHOTS = Counter("room_snapshots", "Full table snapshots sent (connects, and catch-ups too "
                    "old for events).")

# Workers ---------------------------------------------------------------------------------------
CELERY_WORKERS = Gauge("room_celery_workers", "Celery workers of this room that answered the "
                       "last ping of /readyz (pokerroom/health.py; 0: none, the room's timers "
                       "wait).", multiprocess_mode="livemostrecent")

# Money -----------------------------------------------------------------------------------------
LEDGER_TRANSACTIONS = Counter("room_ledger_transactions",
                              "Ledger transactions committed, by kind.", ["kind"])


def socket_observed(kind: str, app: Callable[..., Awaitable[None]]) -> Callable[..., Any]:
    """Wrap a WebSocket route's ASGI app: `room_sockets_open{kind}` counts its live sockets, and
    whatever is logged for a table's socket carries the table id (observability/logs.py)."""
    gauge = SOCKETS.labels(kind)

    async def observed(scope: dict[str, Any], receive: Any, send: Any) -> None:
        table_id = scope.get("url_route", {}).get("kwargs", {}).get("table_id")
        gauge.inc()
        try:
            with log_context(table_id=table_id):
                await app(scope, receive, send)
        finally:
            gauge.dec()

    return observed


def _process_dead() -> None:
    """A stopping process's live gauges (open sockets) no longer count."""
    multiprocess.mark_process_dead(os.getpid())


if MULTIPROCESS:
    atexit.register(_process_dead)
