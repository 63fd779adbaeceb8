"""The Celery app: Redis broker from settings, tasks discovered in every app's tasks.py."""
from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")

app = Celery("pokerroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

TIMER_TASKS = frozenset({"tables.hand_timeout"})


def route_task(name: str, args: object, kwargs: object, options: object, task: object = None,
               **kw: object) -> dict[str, str] | None:
    """Turn timers go to `<default queue>.timers`, which workers fetch from in turn with the
    default queue: thousands of eta timeouts waiting to be reserved must not hold up hand
    starts and the sweeper behind them (the default queue is read at send time, so a test that
    switches queues switches both)."""
    if name in TIMER_TASKS:
        return {"queue": f"{app.conf.task_default_queue}.timers"}
    return None
