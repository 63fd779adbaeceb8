"""Logging for operators: plain text or one JSON object per line (`LOG_FORMAT=json`), table and
hand ids on every table log line, and the once-a-second sweeper kept quiet.

Ids come from the record's `extra` (`logger.info(..., extra={"table_id": 3, "hand_id": 17})`)
or, for everything logged inside `log_context(table_id=..., hand_id=...)` (a Celery task, a
socket's messages), from a context variable. The settings wire these in (settings.LOGGING).
"""
from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Iterator, Mapping
from typing import Any

IDS = ("table_id", "hand_id")
_context: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "room_log_context", default=None)


@contextlib.contextmanager
def log_context(**ids: int | None) -> Iterator[None]:
    """Every record logged inside (in this thread or task, and the threads it hands work to)
    carries these ids."""
    token = _context.set({**(_context.get() or {}), **{k: v for k, v in ids.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


class RoomContextFilter(logging.Filter):
    """Puts `table_id` / `hand_id` on the record from the context when `extra` did not."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in (_context.get() or {}).items():
            if getattr(record, name, None) is None:
                setattr(record, name, value)
        return True


class QuietTasksFilter(logging.Filter):
    """Drops Celery's per-task lines (beat's "Sending due task", the worker's "received" and
    "succeeded") for the tasks in `tasks`: the sweepers run every few seconds (the tables'
    every second, the tournaments' every five) and log by themselves when they acted.
    Failures of those tasks are still logged (at ERROR)."""

    def __init__(self, tasks: list[str] | tuple[str, ...] = ("tables.sweep", "tournaments.sweep"),
                 ) -> None:
        super().__init__()
        self.tasks = frozenset(tasks)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        args = record.args
        if isinstance(args, Mapping):  # the worker's lines: {"name": ..., "id": ...}
            return args.get("name") not in self.tasks
        if isinstance(args, tuple):  # beat: ("tables-sweep", "tables.sweep")
            return not any(isinstance(a, str) and a in self.tasks for a in args)
        return True


class TextFormatter(logging.Formatter):
    """The plain-text line, with ` table=3 hand=17` after the message when known."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        ids = " ".join(f"{name.removesuffix('_id')}={getattr(record, name)}" for name in IDS
                       if getattr(record, name, None) is not None)
        return f"{line} {ids}" if ids else line


def logging_config(*, fmt: str, level: str) -> dict[str, Any]:
    """settings.LOGGING: one console handler, text or JSON, with the room's filters."""
    if fmt not in ("text", "json"):
        raise ValueError(f"LOG_FORMAT must be text or json, not {fmt!r}")
    quiet = {"filters": ["quiet_tasks"]}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "room_context": {"()": "observability.logs.RoomContextFilter"},
            "quiet_tasks": {"()": "observability.logs.QuietTasksFilter"},
        },
        "formatters": {
            "text": {"()": "observability.logs.TextFormatter",
                     "format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
            "json": {"()": "pythonjsonlogger.json.JsonFormatter",
                     "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
                     "rename_fields": {"asctime": "time", "levelname": "level",
                                       "name": "logger"}},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": fmt,
                                 "filters": ["room_context"]}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "INFO"},
            # Where Celery logs each task run (logger filters: records logged right there).
            "celery.beat": quiet, "celery.worker.strategy": quiet, "celery.app.trace": quiet,
        },
    }
