"""bench/capacity.py end to end on a tiny room: a table daphne and a page daphne behind nginx,
a prefork worker and beat, two tables, a few seconds routed and spread (--find-capacity). The
report must carry every figure of issue 27 and end with the line operators read."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO, database_url_for_subprocesses

FIGURES = [
    r"^tables: 2$",
    r"^sockets: \d+ player, \d+ spectator = \d+ \(server counts: \d+ table\)",
    r"^lobby pages: [1-9]\d*, each polling its list every 5 s; poll p50/p95/p99 ms: [\d.]+ / ",
    r"^hands/hour/table: achieved [\d.]+ .* intended [\d.]+: pace [\d.]+ %",
    r"^actions/s: [\d.]+ ",
    r"^action -> every socket p50/p95/p99 ms: (?P<p50>[\d.]+) / (?P<p95>[\d.]+) / (?P<p99>[\d.]+) ",
    r"^hand end -> next deal p50/p95/p99 ms: [\d.]+ / [\d.]+ / [\d.]+ against the 3 s pause",
    r"^timer lateness p99 ms: \S+ client-observed .* server histogram p99 <= \S+ ms",
    r"^CPU over [\d.]+ s: .*daphne [\d.]+ %, page daphne [\d.]+ %, worker [\d.]+ %, "
    r"beat [\d.]+ %, .*PostgreSQL [\d.]+ %, Redis [\d.]+ %",
    r"^PostgreSQL connections: \d+ max, \d+ at end$",
    r"^snapshots per hand: [\d.]+ \(\d+ snapshots, \d+ hands, .*room_snapshots_total\)$",
    r"^errors: none$",
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_the_capacity_report_has_every_figure_and_the_last_line(tmp_path):
    command = [
        sys.executable, "bench/capacity.py", "--find-capacity", "--tables", "2", "--step", "2",
        "--max-tables", "2", "--servers", "1", "--pages", "1", "--clients", "1", "--warmup", "3",
        "--seconds", "12", "--grace", "20", "--think-median", "0.1", "--timers", "1", "1",
        "--timeout-rate", "0.05", "--chat-seconds", "3", "--reconnect-seconds", "30",
        "--top-up-seconds", "20", "--leave-seconds", "40",
        "--use-database", database_url_for_subprocesses(),
        "--redis", os.environ["REDIS_URL"],
    ]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=240)
    out = run.stdout
    assert run.returncode == 0, f"{out}\n{run.stderr[-3000:]}"
    reports = out.split("== ")[1:]
    assert [r.split(":")[0] for r in reports] == ["routed", "spread"], out
    for one in reports:
        lines = one.splitlines()
        for figure in FIGURES:
            found = [m for line in lines if (m := re.search(figure, line))]
            assert found, f"no line matches {figure!r} in:\n{one}"
        p = re.search(next(f for f in FIGURES if "(?P<p50>" in f), one, re.M).groupdict()
        p50, p95, p99 = (float(p[k]) for k in ("p50", "p95", "p99"))
        assert 0 < p50 <= p95 <= p99, one
    # The spread step seats the same players at the same tables: their browsers remember what
    # they sent for the deck each table still has committed, and do not answer it again.
    assert "entropy_refused" not in reports[1], reports[1]
    assert re.fullmatch(r"capacity: routed \d+ tables, spread \d+ tables",
                        out.strip().splitlines()[-1]), out


def test_the_pace_counts_a_turn_still_open_at_the_windows_end_up_to_it():
    """At the window's end the bots leave, and a leave folds a hand whose turn it is: that
    turn's act never comes. Counted only at its act, the open turns' time was the room's in
    the pace, 3-6 % of the tables' time at any load; it is the players'."""
    from bench.capacity import Pace

    pace = Pace({"start": 100.0, "end": 160.0})
    pace.add(95.0, 103.0)  # a think that began before the window: its part inside, 3 s
    pace.turn(1, 3, 110.0)
    pace.add(110.0, 112.0)  # table 1's think, its act sent at 112
    pace.turn_over(1)
    pace.add(150.0, 153.0)  # a pause
    pace.turn(1, 4, 153.5)  # thinking when the window closes: 6.5 s of it inside
    pace.turn(2, 1, 158.0)  # table 2's turn, in flight when the window closes: 2 s
    pace.close()
    pace.add(153.5, 161.0)  # table 1's act, after the close: not counted again

    assert pace.seconds == 3 + 2 + 3 + 6.5 + 2


def test_a_socket_whose_snapshot_holds_the_action_is_not_waited_for():
    """A newcomer's snapshot can be taken after an action commits and before its broadcast
    reaches the table's other sockets: the action is in his snapshot and never comes to him
    as an event. Counted as a socket the broadcast must reach, it made a lost broadcast of
    every such race, an error that ended a search's step."""
    from types import SimpleNamespace

    from websockets.protocol import State

    from bench.capacity import awaited

    def socket(version):
        return SimpleNamespace(version=version, ws=SimpleNamespace(state=State.OPEN),
                               result=SimpleNamespace(left=False))

    first, behind, newcomer, connecting = socket(41), socket(40), socket(41), socket(None)
    assert awaited([first, behind, newcomer, connecting], first, 41) == 2  # first, behind
