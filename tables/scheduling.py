"""Scheduling of the table's Celery tasks (turn deadlines, next hand, a finished hand's player
statistics), called on commit.

Kept behind these functions so tests can record instead of queueing (fixture `fake_timers`).
Tasks are sent by their registered name (tables/tasks.py declares them): the steps that queue
them sit below the services the tasks call, so importing the task module here would close an
import circle (effects → scheduling → tasks → services → effects). For the same reason the hand
dealt at once comes from `dealer_set`, which the app wires when it is ready (tables/apps.py).
Tasks expire well after their eta: a stale task never runs days later; the beat sweeper
catches anything lost."""
from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from django.utils import timezone

from pokerroom.celery import app

GRACE = datetime.timedelta(minutes=10)
HAND_TIMEOUT_TASK = "tables.hand_timeout"
HAND_START_TASK = "tables.hand_start"
TOURNAMENT_CLOCK_TASK = "tournaments.clock"
HAND_STATS_TASK = "tables.hand_stats"
logger = logging.getLogger(__name__)

_dealer: Callable[..., object] | None = None  # tables.services.starting.hand_start, once ready


def dealer_set(deal: Callable[..., object]) -> None:
    """The service that deals a table's next hand (`deal(table_id=...)`), for hands due now."""
    global _dealer
    _dealer = deal


def timeout_schedule(*, hand_id: int, version: int, deadline: datetime.datetime) -> None:
    app.send_task(HAND_TIMEOUT_TASK, kwargs={"hand_id": hand_id, "version": version},
                  eta=deadline, expires=deadline + GRACE)


def hand_start_schedule(*, table_id: int, at: datetime.datetime) -> None:
    """A hand due now (a table without a pause) is dealt at once in this thread, sparing the
    round trip through the queue and the worker; a later one, or one whose start failed here,
    goes to the worker as a task."""
    if at <= timezone.now() and _dealer is not None:
        try:
            _dealer(table_id=table_id)
            return
        except Exception:  # the committed work that scheduled us stands; let the worker retry
            logger.exception("table %s: dealing the next hand failed; queued instead", table_id,
                             extra={"table_id": table_id})
    app.send_task(HAND_START_TASK, kwargs={"table_id": table_id}, eta=at, expires=at + GRACE)


def tournament_clock_schedule(*, tournament_id: int, at: datetime.datetime) -> None:
    """The tournament's next level or break at `at` (the beat sweeper catches a lost one)."""
    app.send_task(TOURNAMENT_CLOCK_TASK, kwargs={"tournament_id": tournament_id}, eta=at,
                  expires=at + GRACE)


def hand_stats_schedule(*, hand_id: int) -> None:
    """Count the finished hand in its players' statistics (services/hand_stats.py), in a
    worker: off the table's path. A lost task leaves the hand out of the figures only."""
    app.send_task(HAND_STATS_TASK, kwargs={"hand_id": hand_id})
