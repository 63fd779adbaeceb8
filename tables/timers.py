"""Scheduling of the table's Celery tasks (turn deadlines, next hand), called on commit.

Kept behind two functions so tests can record instead of queueing (fixture `fake_timers`).
Tasks expire well after their eta: a stale task never runs days later; the beat sweeper
catches anything lost."""
from __future__ import annotations

import datetime

GRACE = datetime.timedelta(minutes=10)


def timeout_schedule(*, hand_id: int, version: int, deadline: datetime.datetime) -> None:
    from tables.tasks import hand_timeout

    hand_timeout.apply_async(kwargs={"hand_id": hand_id, "version": version}, eta=deadline,
                             expires=deadline + GRACE)


def hand_start_schedule(*, table_id: int, at: datetime.datetime) -> None:
    from tables.tasks import hand_start

    hand_start.apply_async(kwargs={"table_id": table_id}, eta=at, expires=at + GRACE)
