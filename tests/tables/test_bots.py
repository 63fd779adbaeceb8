"""`manage.py bots` against a real room: daphne and a Celery worker on the test database.

Six bots sit at a 6-max table, play 30 hands over the WebSocket protocol with random legal
actions, leave (cashed out), and the ledger still balances. Bots never sit in the same seat,
and the summary says where each sat (or that it never got a seat)."""
from __future__ import annotations

import ast
import asyncio
import importlib.metadata
import io
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.client import Bot, BotResult, TableTally, bot_accounts, session_cookie, summary_lines
from bots.management.commands.bots import play
from cashier.audit import ledger_audit
from tables import services
from tables.models import HandSummary, Seat
from tests.conftest import REPO, room_metric
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    private_queue_fixture,
    room_env,
    room_fixture,
    wait_until,
)


def bots_run(room: str, table, **options) -> str:
    """`manage.py bots` against the room: its summary (printed too, for a failing test)."""
    out = io.StringIO()
    try:
        call_command("bots", table=table.pk, url=room, stdout=out, **options)
    finally:
        print(out.getvalue())
    return out.getvalue()


def test_six_bots_play_thirty_hands_and_leave_with_the_ledger_balanced(room, make_table):
    table = make_table(name="Bots", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, action_seconds=5, countdown_seconds=5)
    summary = bots_run(room, table, players=6, hands=30, think=0, seed=1, timeout=240)
    assert "errors: none" in summary
    # Like the browser page (tests/browser/test_table_events_browser.py), events are enough:
    # the server sent each bot one snapshot, when its socket connected, and no other.
    assert summary.count(" reconnects 0 ") == 6
    assert room_metric(room, "room_snapshots_total") == 6
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
    summary = bots_run(room, table, players=2, hands=3, think=3, seed=2, timeout=120)
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


def bot_seats_in_the_database(table) -> dict[str, int]:
    """username → the seat each bot sat in, from the table's stored `seat_taken` events."""
    from accounts.models import User
    from tables.models import HandEvent

    bots = dict(User.objects.filter(is_bot=True).values_list("pk", "username"))
    seated = {}
    for payload in HandEvent.objects.filter(table_id=table.pk).values_list("payload", flat=True):
        if payload["type"] == "seat_taken" and payload["player_id"] in bots:
            seated[bots[payload["player_id"]]] = payload["seat"]
    return seated


def summary_seats(summary: str) -> dict[str, str]:
    """username → where the summary says the bot was ("seat 3", "never seated")."""
    where = {}
    for line in summary.splitlines():
        match = re.match(r"\s*(\w+)\s+(seat \d+|never seated)", line)
        if match:
            where[match[1]] = match[2]
    return where


def test_bots_get_distinct_free_seats_and_the_summary_says_which(room, make_table, make_player):
    """Seat 1 is taken by a player (sitting out): four bots sit in four other, distinct seats,
    and the summary names the seats the database recorded."""
    table = make_table(name="Crowded", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, action_seconds=5, countdown_seconds=5)
    human = make_player("human")
    services.seat_take(table_id=table.pk, user=human, number=1, amount=200,
                       idempotency_key="human-sits")
    services.sit_out(table_id=table.pk, user_id=human.pk)
    summary = bots_run(room, table, players=4, hands=3, think=0, seed=3, timeout=120)
    assert "errors: none" in summary and "seated: 4 of 4 bots" in summary
    in_db = bot_seats_in_the_database(table)
    assert sorted(in_db.values()) == [2, 3, 4, 5]
    assert summary_seats(summary) == {name: f"seat {n}" for name, n in in_db.items()}
    assert list(Seat.objects.filter(table=table).values_list("player_id", flat=True)) == [human.pk]


def test_bots_of_two_processes_wanting_one_seat_sit_apart(room, make_table):
    """Two bots that do not share a tally (as if run by two `manage.py bots`) both ask for
    seat 1: the one refused (`seat_taken`) takes another free seat instead of giving up."""
    table = make_table(name="Race", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, action_seconds=5, countdown_seconds=5)
    users = bot_accounts(2, prefix="racer")
    bots = [Bot(url=room, table_id=table.pk, user_id=u.pk, name=u.username,
                cookie=session_cookie(u), seat=1, tally=TableTally(target=2), think=0,
                rng=random.Random(n)) for n, u in enumerate(users)]
    results = asyncio.run(play(bots, timeout=90))
    print("\n".join(summary_lines(results, seconds=0)))
    assert sorted(r.sat_at for r in results) == [1, 2]
    assert sum(r.races.total() for r in results) >= 1  # the refused sit, retried
    assert all(not r.errors and r.left for r in results)
    assert bot_seats_in_the_database(table) == {r.name: r.sat_at for r in results}


def test_the_summary_tells_a_bot_that_never_sat_from_one_that_played():
    played = BotResult(name="bot1", seat=None, sat_at=3, hands=4, left=True)
    stuck = BotResult(name="bot2", errors=Counter(table_full=1),
                      last_error="table_full: no free seat was left for this bot")
    lines = summary_lines([played, stuck], seconds=1.0)
    assert "seat 3" in lines[0] and "still seated" not in lines[0]
    assert "never seated" in lines[1] and "table_full" in lines[1]
    assert "seated: 1 of 2 bots" in lines


def test_the_command_refuses_more_bots_than_free_seats(make_table, make_player):
    table = make_table(name="Small", structure="NL", lower_stake=2, max_seats=2)
    services.seat_take(table_id=table.pk, user=make_player("human"), number=2, amount=200,
                       idempotency_key="human-sits")
    with pytest.raises(CommandError, match="1 free seat"):
        call_command("bots", table=table.pk, players=2, stdout=io.StringIO())


def test_the_url_defaults_to_where_make_run_serves(monkeypatch):
    from bots.management.commands.bots import room_url

    monkeypatch.delenv("ROOM_HOST", raising=False)
    monkeypatch.delenv("ROOM_PORT", raising=False)
    assert room_url() == "http://127.0.0.1:8000"
    monkeypatch.setenv("ROOM_HOST", "poker.internal")
    monkeypatch.setenv("ROOM_PORT", "9001")
    assert room_url() == "http://poker.internal:9001"
    monkeypatch.setenv("ROOM_HOST", "0.0.0.0")  # listening everywhere: reached on loopback
    assert room_url() == "http://127.0.0.1:9001"


def test_the_url_is_where_a_running_make_run_published_it(monkeypatch, tmp_path):
    """`make run ROOM_PORT=8010` in one shell, the README's bots line in another."""
    from bots.management.commands import bots
    from pokerroom import launch

    monkeypatch.delenv("ROOM_HOST", raising=False)
    monkeypatch.delenv("ROOM_PORT", raising=False)
    published = tmp_path / "room.url"
    monkeypatch.setattr(launch, "PUBLISHED_ROOM", published)
    monkeypatch.setattr(bots, "PUBLISHED_ROOM", published)
    with launch.room_published({"ROOM_HOST": "0.0.0.0", "ROOM_PORT": "8010"}) as url:
        assert url == "http://127.0.0.1:8010"
        assert bots.room_url() == "http://127.0.0.1:8010"
        monkeypatch.setenv("ROOM_PORT", "9001")  # this shell's own setting comes first
        assert bots.room_url() == "http://127.0.0.1:9001"
        monkeypatch.delenv("ROOM_PORT")
    assert not published.exists()  # the run ended: its address is gone
    assert bots.room_url() == "http://127.0.0.1:8000"
    published.write_text("http://127.0.0.1:8010 999999999")  # left by a killed run
    assert bots.room_url() == "http://127.0.0.1:8000"


def test_bots_on_a_wrong_port_fail_at_once_naming_the_address(make_table):
    from pokerroom.processes import free_port

    table = make_table(name="Nowhere", structure="NL", lower_stake=2, max_seats=6)
    url = f"http://127.0.0.1:{free_port()}"
    started = time.monotonic()
    with pytest.raises(CommandError, match=f"No room answers at {re.escape(url)} "):
        call_command("bots", table=table.pk, players=2, url=url, stdout=io.StringIO())
    assert time.monotonic() - started < 5


async def test_a_bot_that_never_got_in_gives_up_within_seconds_naming_the_address():
    from pokerroom.processes import free_port

    port = free_port()
    bot = Bot(url=f"http://127.0.0.1:{port}", table_id=7, user_id=1, name="b1",
              cookie="sessionid=x", seat=1, tally=TableTally(target=1))
    started = time.monotonic()
    with pytest.raises(ConnectionError,
                       match=re.escape(f"no room answers at ws://127.0.0.1:{port}/ws/tables/7/")):
        await bot.run()
    assert time.monotonic() - started < 6


async def test_a_handshake_answered_with_an_error_is_retried_like_the_page_and_counted():
    """A proxy that answers 502 (its daphne was busy): the page tries again, so does the bot,
    and each refusal is an error in its result."""

    answered = []

    async def bad_gateway(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        answered.append(time.monotonic())
        writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    proxy = await asyncio.start_server(bad_gateway, "127.0.0.1", 0)
    port = proxy.sockets[0].getsockname()[1]
    bot = Bot(url=f"http://127.0.0.1:{port}", table_id=7, user_id=1, name="b1",
              cookie="sessionid=x", seat=1, tally=TableTally(target=1))
    with pytest.raises(ConnectionError, match="no room answers"):
        await bot.run()
    proxy.close()

    assert len(answered) >= 3  # tried again, within the first connect's patience
    assert bot.result.errors["handshake answered 502"] == len(answered)


def test_requirements_txt_alone_provides_every_module_the_bots_import():
    """`make run` installs requirements.txt only: each third-party module that the bots command
    and bots/client.py import (at the top or inside functions) comes from a distribution it
    lists, so `manage.py bots` works without the test dependencies."""
    listed = {canonical(re.split(r"[<>=\[ ;#]", line.strip(), maxsplit=1)[0])
              for line in (REPO / "requirements.txt").read_text().splitlines()
              if line.strip() and not line.startswith(("#", "-"))}
    assert "websockets" in listed
    distributions = importlib.metadata.packages_distributions()
    for source in ("bots/client.py", "bots/management/commands/bots.py"):
        for module in third_party_imports(REPO / source):
            provided_by = {canonical(d) for d in distributions.get(module, [])}
            assert provided_by & listed, f"{source} imports {module}: not in requirements.txt"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def third_party_imports(path: Path) -> set[str]:
    first_party = {"pokerroom", "accounts", "bots", "cashier", "tables"}
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - first_party - set(sys.stdlib_module_names) - {"__future__"}
