"""Routing by table, with real processes: two daphnes behind Debian's nginx, configured from the
template the launcher renders (deploy/nginx/local.conf.in), a Celery worker with beat, and
bots playing over WebSockets through nginx.

Pages go to either daphne; all sockets of a table land on one daphne (each daphne names itself
in its `X-Room-Server` header and its `pong`), tables spread over both, and when one daphne is killed its tables' sockets reconnect through nginx to
the other, the hands go on and the ledger still balances."""
from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.request import urlopen

import pytest
from django.core.management import call_command

from bots.client import Bot, TableTally, session_cookie, ws_url
from cashier.audit import ledger_audit
from pokerroom.processes import stop_process, wait_for_http
from pokerroom.routed import nginx_command, nginx_files
from pokerroom.servername import HEADER
from tests.browser.conftest import free_port
from tests.conftest import room_metric
from tests.tables.realroom import (  # noqa: F401  (fixture)
    daphne_ready,
    kill_hard,
    private_queue_fixture,
    start_daphne,
    worker,
)

# Routing is nginx's and daphne's, not the database's: one pass (the operators' PostgreSQL)
# runs it, which keeps both passes of the suite inside their time budget.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
TABLES = 20
SOCKETS_PER_TABLE = 3


@contextlib.contextmanager
def nginx_in_front(var_dir: Path, ports: list[int]) -> Iterator[str]:
    """Debian's nginx routing to the daphnes on `ports`, as the launcher runs it; yields its
    URL."""
    port = free_port()
    conf = nginx_files(var_dir, listen=f"127.0.0.1:{port}",
                       servers=[f"127.0.0.1:{p}" for p in ports])
    process = subprocess.Popen(nginx_command(conf, var_dir))
    try:
        wait_for_http(f"http://127.0.0.1:{port}/livez")
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(process)


async def servers_of(url: str, table_id: int) -> list[str]:
    """Open SOCKETS_PER_TABLE sockets to a table through nginx, all at once; the daphne that
    answers each one's ping."""
    from websockets.asyncio.client import connect

    async with contextlib.AsyncExitStack() as sockets:
        opened = [await sockets.enter_async_context(
            connect(ws_url(url, table_id), origin=url, open_timeout=10))
            for _ in range(SOCKETS_PER_TABLE)]
        names = []
        for ws in opened:
            await ws.send(json.dumps({"type": "ping"}))
            async with asyncio.timeout(10):
                while (frame := json.loads(await ws.recv()))["type"] != "pong":
                    pass
            names.append(frame["server"])
        return names


async def routing(url: str, tables: list[int]) -> dict[int, str]:
    """table id → the daphne serving it; fails if a table's sockets are split."""
    serving = {}
    for table_id in tables:
        names = await servers_of(url, table_id)
        assert len(set(names)) == 1, f"table {table_id}'s sockets went to {names}"
        serving[table_id] = names[0]
    return serving


async def until(check: Callable[[], bool], *, timeout: float, message: str) -> None:
    """Wait for `check()` (sync, run in a thread: it may read HTTP) to hold."""
    try:
        async with asyncio.timeout(timeout):
            while not await asyncio.to_thread(check):
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout} s: {message}") from None


def answered_by(url: str) -> str:
    with urlopen(f"{url}/livez", timeout=10) as response:
        return response.headers[HEADER]


def table_sockets(url: str) -> float:
    return room_metric(url, "room_sockets_open", kind="table")


def test_a_tables_sockets_share_a_daphne_and_move_when_it_dies(private_queue, make_table,
                                                               make_player, tmp_path):
    tables = [make_table(name=f"Routed {n}", max_seats=6, hand_pause_seconds=0,
                         action_seconds=5, countdown_seconds=5).pk for n in range(TABLES)]
    players = [make_player(f"p{n}") for n in range(4)]
    cookies = [session_cookie(p) for p in players]
    ports = {"a": free_port(), "b": free_port()}
    direct = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
    daphnes = {name: start_daphne(port, wait=False, proxy_headers=True, ROOM_SERVER_NAME=name)
               for name, port in ports.items()}
    try:
        with worker(beat=True, tmp_path=tmp_path):
            for name, process in daphnes.items():
                daphne_ready(process, ports[name])
            with nginx_in_front(tmp_path / "nginx", list(ports.values())) as url:
                asyncio.run(scenario(url, direct, daphnes, tables, players, cookies))
            for process in daphnes.values():
                stop_process(process)  # before the worker, as ever
    finally:
        for process in daphnes.values():
            stop_process(process)
    report = ledger_audit()
    assert report.ok, report.summary()
    call_command("audit_ledger", stdout=io.StringIO())  # the operator's check agrees (exit 0)


async def scenario(url: str, direct: dict[str, str], daphnes: dict[str, subprocess.Popen],
                   tables: list[int], players: list, cookies: list[str]) -> None:
    # Pages go to either daphne (each names itself in a header), sockets by table.
    assert answered_by(direct["a"]) == "a"
    assert {answered_by(url) for _ in range(6)} == {"a", "b"}
    serving = await routing(url, tables)
    assert set(serving.values()) == {"a", "b"}, "every table went to one daphne"

    # Two players at a table of each daphne, through nginx; then kill the first's daphne.
    doomed = next(t for t, name in serving.items() if name == "a")
    kept = next(t for t, name in serving.items() if name == "b")
    tallies = {doomed: TableTally(target=0), kept: TableTally(target=0)}
    bots = [Bot(url=url, table_id=table, user_id=player.pk, name=player.username,
                cookie=cookie, seat=n % 2 + 1, tally=tallies[table], think=0.05, buy_in=200,
                rng=random.Random(n))
            for n, (table, player, cookie) in enumerate(
                zip([doomed, doomed, kept, kept], players, cookies, strict=True))]
    playing = [asyncio.create_task(bot.run()) for bot in bots]
    try:
        await until(lambda: all(len(t.ended) >= 2 for t in tallies.values()), timeout=30,
                    message="the bots did not play two hands at each table")
        await until(lambda: table_sockets(direct["a"]) == 2 and table_sockets(direct["b"]) == 2,
                    timeout=10, message="each daphne should hold its table's two players")

        played = {table: len(t.ended) for table, t in tallies.items()}
        kill_hard(daphnes["a"])
        await until(lambda: all(len(t.ended) >= played[table] + 3
                                for table, t in tallies.items()), timeout=30,
                    message="the hands did not go on at both tables after a daphne died")
        await until(lambda: table_sockets(direct["b"]) == 4, timeout=10,
                    message="the dead daphne's players should be on the other one now")
        moved = {bot.result.name: bot.result.reconnects for bot in bots}
        assert [n > 0 for n in moved.values()] == [True, True, False, False], moved
        assert set((await routing(url, tables)).values()) == {"b"}

        for bot in bots:
            await bot.finish()
        async with asyncio.timeout(30):
            results = await asyncio.gather(*playing)
    finally:
        for task in playing:
            task.cancel()
    assert [dict(r.errors) for r in results] == [{}] * 4
    assert all(r.left for r in results)
