"""Scheduling of the table's Celery tasks (turn deadlines, next hand), called on commit.

Kept behind two functions so tests can record instead of queueing (fixture `fake_timers`).
Tasks expire well after their eta: a stale task never runs days later; the beat sweeper
catches anything lost."""
from __future__ import annotations

import datetime
import logging

from django.utils import timezone

GRACE = datetime.timedelta(minutes=10)
logger = logging.getLogger(__name__)


def timeout_schedule(*, hand_id: int, version: int, deadline: datetime.datetime) -> None:
    from tables.tasks import hand_timeout

    hand_timeout.apply_async(kwargs={"hand_id": hand_id, "version": version}, eta=deadline,
                             expires=deadline + GRACE)


def hand_start_schedule(*, table_id: int, at: datetime.datetime) -> None:
    """A hand due now (a table without a pause) is dealt at once in this thread, sparing the
    round trip through the queue and the worker; a later one, or one whose start failed here,
    goes to the worker as a task."""
    from tables import services
    from tables.tasks import hand_start

    if at <= timezone.now():
        try:
            services.hand_start(table_id=table_id)
            return
        except Exception:  # the committed work that scheduled us stands; let the worker retry
            logger.exception("table %s: dealing the next hand failed; queued instead", table_id,
                             extra={"table_id": table_id})
    hand_start.apply_async(kwargs={"table_id": table_id}, eta=at, expires=at + GRACE)
