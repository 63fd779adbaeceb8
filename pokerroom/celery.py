"""The Celery app: Redis broker from settings, tasks discovered in every app's tasks.py."""
from __future__ import annotations

import os

from celery import Celery
from celery.signals import task_postrun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")

app = Celery("pokerroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fixup closes Django's whole connection pool before and after every task in a
# prefork worker (celery#10554), so each task opened new PostgreSQL connections: a third of the
# worker's busy time in the capacity benchmark's profile, and a backend started per task. With
# a reuse count the fixup leaves the pool alone (it still closes an inherited pool when a child
# starts); each task gives its connection back to the pool when it ends, and a broken one is
# dropped, as Django does after each request.
app.conf.CELERY_DB_REUSE_MAX = 1_000_000


@task_postrun.connect
def connection_return(**kwargs: object) -> None:
    close_old_connections()

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
