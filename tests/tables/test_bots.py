"""`manage.py bots` against a real room: daphne and a Celery worker on the test database.

Six bots sit at a 6-max table, play 30 hands over the WebSocket protocol with random legal
actions, leave (cashed out), and the ledger still balances."""
from __future__ import annotations

import io
import signal
import subprocess
import sys

from django.core.management import call_command

from cashier.audit import ledger_audit
from tables.models import HandSummary, Seat
from tests.conftest import REPO
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    private_queue_fixture,
    room_env,
    room_fixture,
    wait_until,
)


def test_six_bots_play_thirty_hands_and_leave_with_the_ledger_balanced(room, make_table):
    table = make_table(name="Bots", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, action_seconds=5, countdown_seconds=5)
    out = io.StringIO()
    try:
        call_command("bots", table=table.pk, players=6, hands=30, think=0, url=room, seed=1,
                     timeout=240, stdout=out)
    finally:
        print(out.getvalue())
    summary = out.getvalue()
    assert "errors: none" in summary
    assert HandSummary.objects.filter(table=table).count() >= 30
    assert not Seat.objects.filter(table=table).exists()  # every bot left and was cashed out
    report = ledger_audit()
    assert report.ok, report.summary()
    call_command("audit_ledger", stdout=io.StringIO())  # the operator's check agrees (exit 0)


def test_slow_bots_are_timed_out_sat_out_and_sit_in_again(room, make_table):
    """Bots thinking longer than the table's timer: the server acts for them and sits them
    out; they sit in again, so hands keep being dealt and the ledger still balances."""
    table = make_table(name="Slow bots", structure="NL", lower_stake=2, max_seats=2,
                       hand_pause_seconds=0, action_seconds=1, countdown_seconds=1)
    out = io.StringIO()
    try:
        call_command("bots", table=table.pk, players=2, hands=3, think=3, url=room, seed=2,
                     timeout=120, stdout=out)
    finally:
        print(out.getvalue())
    summary = out.getvalue()
    assert "errors: none" in summary
    assert "timeouts 0 " not in summary.splitlines()[0]  # the first bot was timed out
    assert HandSummary.objects.filter(table=table).count() >= 3
    assert not Seat.objects.filter(table=table).exists()
    assert ledger_audit().ok


def test_ctrl_c_makes_the_bots_leave_and_print_their_summary(room, make_table):
    """The real command line: `manage.py bots` in its own process, stopped with SIGINT."""
    table = make_table(name="Soak", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, action_seconds=5, countdown_seconds=5)
    command = subprocess.Popen(
        [sys.executable, "manage.py", "bots", "--table", str(table.pk), "--players", "3",
         "--think", "0", "--url", room], cwd=REPO, env=room_env(),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_until(lambda: HandSummary.objects.filter(table=table).count() >= 3, timeout=60,
                   message="the bots did not play three hands")
        command.send_signal(signal.SIGINT)
        out, _ = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    assert command.returncode == 0, out
    assert "errors: none" in out and "hands finished at the table" in out
    assert not Seat.objects.filter(table=table).exists()  # they left and were cashed out
    assert ledger_audit().ok
