"""Logs: text or JSON lines (LOG_FORMAT), table and hand ids on table lines, and a quiet
sweeper (it logs only what it did; Celery's per-second lines for it are dropped)."""
from __future__ import annotations

import datetime
import json
import logging
import subprocess
import sys
import threading
import time

import pytest
from django.utils import timezone

from observability.logs import QuietTasksFilter, RoomContextFilter, TextFormatter, log_context
from tables import services
from tables.services.sweeps import sweep
from tests.conftest import REPO
from tests.tables.helpers import live
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    private_queue_fixture,
    room_env,
)

SWEEP = "from tables.services.sweeps import sweep; sweep()"


def manage_py_shell(code: str, **env: str) -> list[str]:
    """Run `manage.py shell -c code` on the test database; its log lines (stderr)."""
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=REPO,
                          env=room_env(**env), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stderr.splitlines()


@pytest.fixture
def overdue_hand(make_table, make_player, sit):
    """A running heads-up hand whose turn deadline passed a minute ago (its timer was lost)."""
    table = make_table(name="Logged", structure="NL", lower_stake=2, hand_pause_seconds=0)
    sit(table, make_player("alice"), 1)
    sit(table, make_player("bob"), 2)
    services.hand_start(table_id=table.pk, force=True)
    _ts, hand, _ = live(table.pk)
    hand.deadline = timezone.now() - datetime.timedelta(minutes=1)
    hand.save(update_fields=["deadline"])
    return hand


@pytest.mark.django_db(transaction=True)
def test_json_lines_parse_and_carry_the_table_and_hand_ids(overdue_hand):
    """The sweeper of another process (LOG_FORMAT=json) acts on the overdue turn: its one line
    is a JSON object naming the table and the hand."""
    lines = manage_py_shell(SWEEP, LOG_FORMAT="json")

    records = [json.loads(line) for line in lines]  # every line is JSON
    acted = [r for r in records if r["logger"] == "tables.services.sweeps"]
    assert len(acted) == 1, lines
    assert acted[0]["table_id"] == overdue_hand.table_id
    assert acted[0]["hand_id"] == overdue_hand.pk
    assert acted[0]["level"] == "INFO" and "overdue" in acted[0]["message"]
    # nothing is left to do: the next sweep says nothing at all
    assert manage_py_shell(SWEEP, LOG_FORMAT="json") == []


@pytest.mark.django_db(transaction=True)
def test_a_sweep_with_nothing_to_do_logs_nothing(make_table, caplog):
    make_table(name="Quiet")
    with caplog.at_level(logging.DEBUG):
        report = sweep()
    assert (report.timeouts, report.hands_started, report.sit_outs_removed) == (0, 0, 0)
    assert caplog.records == []


def test_text_lines_end_with_the_ids_from_extra_or_the_context():
    formatter = TextFormatter("%(levelname)s %(name)s: %(message)s")
    context = RoomContextFilter()

    def line(**extra: int) -> str:
        record = logging.LogRecord("tables.x", logging.INFO, __file__, 1, "dealt", (), None)
        record.__dict__.update(extra)
        context.filter(record)
        return formatter.format(record)

    assert line() == "INFO tables.x: dealt"
    assert line(table_id=3) == "INFO tables.x: dealt table=3"
    with log_context(table_id=4, hand_id=17):
        assert line() == "INFO tables.x: dealt table=4 hand=17"
        assert line(hand_id=18) == "INFO tables.x: dealt table=4 hand=18"  # extra wins
    assert line() == "INFO tables.x: dealt"  # the context ended


@pytest.mark.parametrize(("args", "kept"), [
    ({"name": "tables.sweep", "id": "x"}, False),  # worker: received / succeeded
    (("tables-sweep", "tables.sweep"), False),  # beat: Sending due task
    ({"name": "tables.hand_timeout", "id": "y"}, True),
    (("tables-other", "tables.hand_start"), True),
])
def test_celery_lines_about_the_sweep_task_are_dropped(args, kept):
    record = logging.LogRecord("celery.app.trace", logging.INFO, __file__, 1, "Task %(name)s",
                               None, None)
    record.args = args
    assert QuietTasksFilter().filter(record) is kept


def test_a_failing_sweep_task_is_still_logged():
    record = logging.LogRecord("celery.app.trace", logging.ERROR, __file__, 1, "Task %(name)s "
                               "raised", None, None)
    record.args = {"name": "tables.sweep", "id": "x"}
    assert QuietTasksFilter().filter(record)


@pytest.mark.django_db(transaction=True)
def test_a_worker_with_beat_says_nothing_about_sweeps_but_what_one_did(private_queue, tmp_path,
                                                                       overdue_hand):
    """A real `celery worker -B` at INFO (LOG_FORMAT=json): beat sends the tables' sweep every
    second and the tournaments' every five, yet no line mentions a sweep task; the one sweep that acted (on the overdue turn) logs
    one JSON line naming the table and hand, and every line is JSON."""
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "-B", "--pool", "solo",
         "--loglevel", "INFO", "--without-gossip", "--without-mingle",
         "-s", str(tmp_path / "beat-schedule")],
        cwd=REPO, env=room_env(LOG_FORMAT="json"), stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    watchdog = threading.Timer(60, process.terminate)  # should the sweep never act
    watchdog.start()
    try:
        for line in process.stderr:  # until the sweep acted, then a few more sweeps
            lines.append(line)
            if '"tables.services.sweeps"' in line:
                time.sleep(3)
                break
    finally:
        watchdog.cancel()
        process.terminate()
        lines += process.communicate(timeout=30)[1].splitlines(keepends=True)
    text = "".join(lines)
    records = [json.loads(line) for line in lines if line.strip()]  # every line is JSON
    assert "Sending due task" not in text, text
    assert "tables.sweep" not in text and "tournaments.sweep" not in text, text
    acted = [r for r in records if r["logger"] == "tables.services.sweeps"]
    assert [(r["table_id"], r["hand_id"]) for r in acted] == [
        (overdue_hand.table_id, overdue_hand.pk)], text
