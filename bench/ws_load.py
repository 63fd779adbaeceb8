"""WebSocket load: bots on 6-max tables against the real room, and the same client against a
bare `websockets` broadcast server (the floor).

What it starts (and stops): a throwaway PostgreSQL database (``--database``, default
``ws_bench_<pid>``, migrated, dropped at the end) on the server of ``--server``; ``--servers``
daphne processes and one Celery worker on it, on free ports, with a private Celery queue and
channel-layer prefix on ``--redis``.

What it measures, per run:
* **queries per action**: the ``act`` service run in-process under Django's
  ``CaptureQueriesContext`` for ``--query-actions`` random legal actions on a separate table
  (every SQL statement of the locked transaction, including settlement when a hand ends; the
  on-commit broadcast and timer are not SQL). Mean and max are printed.
* **the room**: ``--connections`` bots (``bots.client.Bot``, the same client as
  ``manage.py bots``) on ``--tables`` tables (connections / tables per table, at most 6), split
  over ``--clients`` client processes (a table's bots share one process). Bots act at once
  (``--rate 0``) or pace themselves to about ``--rate`` actions/s in total. Once every bot of
  every client process is seated, after ``--warmup`` seconds, for ``--seconds`` seconds (one
  window for all the client processes; none leaves before all are done) each counts player
  actions (each ``action`` event once) and the latency from just before a bot sends its
  ``act`` to the moment the resulting ``action`` event has reached every bot at that table (the
  sixth receipt), as seen by the client process (so a saturated client adds its own queueing
  to the figure); also apart for the actions that ended a hand (a ``hand_end`` followed them)
  and the others.
* **CPU per action**: user + system CPU seconds of each group of processes (daphne, the worker,
  PostgreSQL, Redis, the clients; psutil, sampled five times a second) over the measured window,
  divided by the actions counted in it. PostgreSQL is the backends of this run's database and
  the server's background processes, Redis the server on ``--redis``'s port: other databases'
  backends and other Redis servers on the machine are not counted (their load still shares the
  cores, so note what else ran).
* **money**: the hands dealt over the whole run and ``audit_ledger``'s check of the ledger after
  every bot has left and cashed out.
* **the floor**: the same bots against a ``websockets`` server (``--servers`` processes) that
  keeps a turn order per table and broadcasts each action and the next turn, with no database,
  no channel layer and no rules, acting at once and **without the bots' send throttle**. A bot
  sends at most ``bots.client.SEND_RATE`` (8) messages a second, to stay under the room's rate
  limit, so the bots alone cap a run at 8 x connections actions/s (4,800 at 600 connections):
  with the throttle the floor measured that cap, not the server. Each run prints the client's
  cap beside its figure and says when a figure reached it; the room keeps the throttle (the
  room refuses faster clients). The floor always runs unpaced. Room/floor ratios of throughput
  and latency are printed only when the room ran unpaced too and neither figure reached the
  client's cap; the ratio of the servers' CPU per action (daphne, worker, PostgreSQL and Redis
  against the floor's processes), which no client bounds, always.

Run from the repository root (PostgreSQL and Redis running):
  .venv/bin/python bench/ws_load.py                              # quick: 120 conns, 20 tables
  .venv/bin/python bench/ws_load.py --connections 600 --tables 100 --servers 2 --clients 2
  .venv/bin/python bench/ws_load.py --connections 600 --tables 100 --servers 2 --rate 200
Targets on a 2-core machine: >= 400 actions/s at 600 connections; p99 <= 50 ms at 200 actions/s;
<= 8 SQL statements per action (hand starts too).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pokerroom.processes import (  # noqa: E402
    daphne_command,
    free_port,
    stop_process,
    wait_for_http,
    wait_for_port,
)

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
SEATS = 6


# Processes -----------------------------------------------------------------------------------
def url_with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def admin_sql(server: str, sql: str) -> None:
    import psycopg

    target = url_with_database(server, "postgres").replace("postgres://", "postgresql://", 1)
    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute(sql)


# Setup in the database (Django, in this process) --------------------------------------------
def make_tables(count: int, *, prefix: str = "Bench", rake_percent: int = 0) -> list[int]:
    from tables.models import TableConfig

    ids = []
    for n in range(count):
        table = TableConfig(name=f"{prefix} {n + 1}", structure="NL", lower_stake=2, max_seats=SEATS,
                            min_buy_in_bb=40, max_buy_in_bb=100, hand_pause_seconds=0,
                            action_seconds=30, countdown_seconds=30, rake_percent=rake_percent)
        table.full_clean()
        table.save()
        ids.append(table.pk)
    return ids


def _statements(captured: Any) -> int:
    """Statements a service sent; BEGIN and COMMIT (which Django logs too) are not counted, as
    in bench/act_path.py."""
    return sum(1 for q in captured if q["sql"] not in ("BEGIN", "COMMIT"))


def queries_per_action(actions: int) -> dict[str, float]:
    """SQL statements of `act` over random legal actions on a 3-player table: for actions
    that leave the hand running (most) and for those that end it (settlement, summary); and
    of the hand starts between them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bots.client import bot_accounts, choose_action
    from tables import scheduling, services
    from tables.engine import HandState, legal_actions
    from tables.models import TableState

    scheduling.timeout_schedule = lambda **kw: None  # measured alone: nothing queued
    scheduling.hand_start_schedule = lambda **kw: None
    [table_id] = make_tables(1, prefix="Queries")
    for n, user in enumerate(bot_accounts(3, prefix="qbot"), start=1):
        services.seat_take(table_id=table_id, user=user, number=n, amount=200,
                           idempotency_key=uuid.uuid4().hex)
    rng, counts, finals, starts, seconds = random.Random(1), [], [], [], []
    while len(counts) + len(finals) < actions:
        ts = TableState.objects.select_related("hand").get(pk=table_id)
        if not ts.hand_running:
            with CaptureQueriesContext(connection) as captured:
                services.hand_start(table_id=table_id, force=True)
            starts.append(_statements(captured))
            continue
        state = HandState.from_json(ts.hand.state)
        legal = legal_actions(state).to_json()
        move = choose_action({**legal, "max_to": legal["min_to"]}, rng)  # no all-ins: no busts
        action = move.get("action", move["type"])
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            services.act(table_id=table_id, user_id=int(state.players[state.to_act].player_id),
                         action=action, amount=move.get("amount"), expected_version=ts.version)
        seconds.append(time.perf_counter() - started)
        ended = not TableState.objects.select_related("hand").get(pk=table_id).hand_running
        (finals if ended else counts).append(_statements(captured))
    return {"mean": statistics.mean(counts), "max": max(counts), "n": len(counts),
            "ms": 1000 * statistics.median(seconds),
            "final_mean": statistics.mean(finals) if finals else 0.0,
            "final_max": max(finals, default=0), "finals": len(finals),
            "start_mean": statistics.mean(starts), "start_max": max(starts),
            "starts": len(starts)}


def timeline(table_ids: list[int]) -> str:
    """Where a table's time goes, from the stored events: the median gap between one action
    and the next inside a hand, and from a hand's end to the next hand's start (Celery)."""
    from tables.models import HandEvent

    rows = (HandEvent.objects.filter(table_id__in=table_ids, type__in=("action", "hand_end",
                                                                       "hand_start"))
            .order_by("table_id", "version").values_list("table_id", "type", "created_at"))
    turns, pauses, last = [], [], {}
    for table_id, kind, at in rows:
        prev = last.get(table_id)
        if prev is not None:
            gap = (at - prev[1]).total_seconds() * 1000
            if kind == "action" and prev[0] == "action":
                turns.append(gap)
            elif kind == "hand_start" and prev[0] == "hand_end":
                pauses.append(gap)
        last[table_id] = (kind, at)
    median = statistics.median
    return (f"server timeline: action to next action {median(turns):.1f} ms (median of "
            f"{len(turns)}), hand end to next hand start {median(pauses):.1f} ms (median of "
            f"{len(pauses)})" if turns and pauses else "server timeline: no data")


def hands_played(table_ids: list[int]) -> str:
    from tables.models import Hand

    hands = Hand.objects.filter(table_id__in=table_ids)
    return (f"hands: {hands.count()} dealt, {hands.filter(finished_at__isnull=False).count()} "
            f"played to the end, over the whole run")


# Clients (one process per share of the tables) ----------------------------------------------
def client_main(spec: dict[str, Any], results: multiprocessing.Queue,
                together: threading.Barrier) -> None:
    if not spec["throttled"]:
        # The floor's reference: this client process's bots send as fast as they decide (the
        # bare server refuses nothing). The room's client processes keep SEND_RATE.
        import bots.client

        bots.client.SEND_RATE = math.inf
    results.put(asyncio.run(client_run(spec, together)))


async def client_run(spec: dict[str, Any], together: threading.Barrier) -> dict[str, Any]:
    """Play the share's tables. The client processes measure over one window: each waits for
    the others to be seated before it starts, and for their windows to end before its bots
    leave. (A process that left while another measured put 300 leaves, with their cash-outs,
    into the other's window: with a table's sockets spread over the daphnes, that was the
    whole of the spread runs' p99 of 0.4-0.8 s.)"""
    from bots.client import Bot, TableTally

    sends: dict[tuple[int, int], float] = {}
    receipts: dict[tuple[int, int], list[float]] = defaultdict(list)
    latencies: list[tuple[int, int, float]] = []  # table, version of the action, seconds
    last_action: dict[int, int] = {}  # table → version of the latest action seen there
    ending: set[tuple[int, int]] = set()  # (table, version) of actions that ended a hand
    counted = {"actions": 0}
    window = {"start": float("inf"), "end": float("inf")}  # set once every bot is seated
    at_table: Counter[int] = Counter()
    hands: set[tuple[int, int]] = set()

    def on_send(bot: Bot, message: dict[str, Any]) -> None:
        if message.get("type") == "act":
            sends[(bot.table_id, bot.seat or 0)] = time.monotonic()

    def on_event(bot: Bot, version: int, event: dict[str, Any]) -> None:
        if event.get("type") == "hand_start":
            hands.add((bot.table_id, event["hand_id"]))
        if event.get("type") == "hand_end" and bot.table_id in last_action:
            ending.add((bot.table_id, last_action[bot.table_id]))
        if event.get("type") == "action":
            last_action[bot.table_id] = version
        if event.get("type") != "action" or event.get("timeout"):
            return
        now = time.monotonic()
        key = (bot.table_id, version)
        got = receipts[key]
        got.append(now)
        if len(got) == 1 and window["start"] <= now < window["end"]:
            counted["actions"] += 1
        if len(got) >= at_table[bot.table_id]:
            sent = sends.pop((bot.table_id, event["seat"]), None)
            del receipts[key]
            if sent is not None and window["start"] <= sent < window["end"]:
                latencies.append((bot.table_id, version, max(got) - sent))

    bots = []
    for table in spec["tables"]:
        tally = TableTally(target=0)
        for seat, (user_id, name, cookie) in enumerate(table["bots"], start=1):
            at_table[table["id"]] += 1
            bots.append(Bot(url=table["urls"][seat - 1], table_id=table["id"], user_id=user_id,
                            name=name, cookie=cookie, seat=seat, tally=tally, think=spec["think"],
                            buy_in=200, rng=random.Random(user_id), on_send=on_send,
                            on_event=on_event))
    tasks = [asyncio.create_task(b.run()) for b in bots]
    seating_started = time.monotonic()
    while any(b.seat is None for b in bots) and time.monotonic() - seating_started < 120:
        await asyncio.sleep(0.1)
    seated_after = time.monotonic() - seating_started
    unseated = Counter(b.result.last_error or _waiting_for(b) for b in bots if b.seat is None)
    await _all_here(together)
    window["start"] = time.monotonic() + spec["warmup"]  # hands are under way: steady state
    window["end"] = window["start"] + spec["seconds"]
    await asyncio.sleep(window["end"] - time.monotonic())
    await _all_here(together)
    for b in bots:
        await b.finish()
    done, pending = await asyncio.wait(tasks, timeout=spec["grace"])
    for t in pending:
        t.cancel()
    errors: Counter[str] = Counter()
    for b, t in zip(bots, tasks, strict=True):
        errors.update(b.result.errors)
        if t in done and t.exception() is not None:
            errors[type(t.exception()).__name__] += 1
    return {"actions": counted["actions"], "errors": dict(errors),
            "mid_latencies": [x for *key, x in latencies if tuple(key) not in ending],
            "ending_latencies": [x for *key, x in latencies if tuple(key) in ending],
            "races": sum(b.result.races.total() for b in bots), "seated_after": seated_after,
            "unseated": dict(unseated),
            "window": (window["start"], window["end"]), "hands": len(hands),
            "snapshots": sum(b.result.snapshot_requests for b in bots)}


async def _all_here(together: threading.Barrier) -> None:
    """Wait (playing on) until every client process has come here too."""
    with contextlib.suppress(threading.BrokenBarrierError):  # one failed: measure anyway
        await asyncio.to_thread(together.wait, 180)


def _waiting_for(bot: Any) -> str:
    """What a bot that got no seat (and no error) is still waiting for."""
    if getattr(bot, "ws", None) is None:
        return "no connection"
    if bot.version is None:
        return "no snapshot"
    if bot.asked_from is not None:
        return "the answer to hello (a gap)"
    if bot.sit_asked is not None:
        return "the answer to sit"
    return "nothing asked"


class CpuMeter:
    """CPU seconds (user + system) used by groups of processes, sampled by a thread five times a
    second, so the clients' measured window can be cut out of the record afterwards."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups, self.samples = groups, []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        import psutil

        while not self.stop.is_set():
            used = {}
            for name, pids in self.groups.items():
                total = 0.0
                for pid in pids():
                    with contextlib.suppress(psutil.Error):
                        t = psutil.Process(pid).cpu_times()
                        total += t.user + t.system
                used[name] = total
            self.samples.append((time.monotonic(), used))
            self.stop.wait(0.2)

    def between(self, start: float, end: float) -> dict[str, float]:
        """CPU seconds per group from the last sample before `start` to the first after `end`."""
        self.stop.set()
        self.thread.join()
        before = [s for s in self.samples if s[0] <= start] or self.samples[:1]
        after = [s for s in self.samples if s[0] >= end] or self.samples[-1:]
        (t0, a), (t1, b) = before[-1], after[0]
        return {"seconds": t1 - t0, **{k: b.get(k, 0.0) - a.get(k, 0.0) for k in b}}


def pids_named(name: str) -> Callable[[], list[int]]:
    import psutil

    return lambda: [p.pid for p in psutil.process_iter(["name"]) if p.info["name"] == name]


def postgres_pids(server: str, database: str) -> Callable[[], list[int]]:
    """PostgreSQL's processes that work for this run: the backends (and autovacuum) of its
    database and the shared background processes (WAL writer, checkpointer...), not other
    databases' backends (other runs or test suites on the same server)."""
    import psycopg

    target = url_with_database(server, database).replace("postgres://", "postgresql://", 1)
    conn = psycopg.connect(target, autocommit=True)  # used only by the meter's thread
    query = ("SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
             "AND (datname = current_database() OR datname IS NULL)")
    return lambda: [pid for (pid,) in conn.execute(query)]


def redis_pids(url: str) -> Callable[[], list[int]]:
    """The Redis server listening on `url`'s port (not every redis-server of the machine:
    other runs' embedded ones)."""
    import psutil

    port = urlsplit(url).port or 6379
    pids: set[int] = set()
    with contextlib.suppress(psutil.AccessDenied):  # not root on some systems: count them all
        pids = {c.pid for c in psutil.net_connections("tcp")
                if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid}
    return (lambda: sorted(pids)) if pids else pids_named("redis-server")


def quantile_ms(sorted_seconds: list[float], q: float) -> float:
    if not sorted_seconds:
        return float("nan")
    return 1000 * sorted_seconds[int(len(sorted_seconds) * q)]


def client_cap(tables: list[dict[str, Any]], *, throttled: bool) -> float:
    """The most actions/s the bots themselves can send: each socket at most SEND_RATE
    messages a second (one action per turn of its own), however fast the server answers."""
    from bots.client import SEND_RATE

    return SEND_RATE * sum(len(t["bots"]) for t in tables) if throttled else math.inf


def run_clients(tables: list[dict[str, Any]], args: argparse.Namespace,
                servers: dict[str, Callable[[], list[int]]], *, paced: bool = True,
                throttled: bool = True) -> dict[str, Any]:
    """Play `tables` over the measured window. `paced`: the bots pace themselves to --rate;
    `throttled`: they keep their send throttle (off only for the floor's reference)."""
    think = 0.0 if not args.rate or not paced else len(tables) / args.rate
    ctx = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue = ctx.Queue()
    shares = [share for i in range(args.clients) if (share := tables[i::args.clients])]
    together = ctx.Barrier(len(shares))
    procs = [ctx.Process(target=client_main, args=({
        "tables": share, "think": think, "warmup": args.warmup, "seconds": args.seconds,
        "grace": 30.0, "throttled": throttled}, results, together)) for share in shares]
    for p in procs:
        p.start()
    meter = CpuMeter({**servers, "clients": lambda: [p.pid for p in procs]})
    parts = [results.get(timeout=args.warmup + args.seconds + 240) for _ in procs]
    cpu = meter.between(min(p["window"][0] for p in parts), max(p["window"][1] for p in parts))
    for p in procs:
        p.join(timeout=10)
    mid = sorted(x for part in parts for x in part["mid_latencies"])
    ending = sorted(x for part in parts for x in part["ending_latencies"])
    latencies = sorted(mid + ending)
    errors: Counter[str] = Counter()
    for part in parts:
        errors.update(part["errors"])
    return {
        "actions": (actions := sum(p["actions"] for p in parts)),
        "actions_per_s": actions / args.seconds,
        "p50_ms": quantile_ms(latencies, 0.5), "p99_ms": quantile_ms(latencies, 0.99),
        "samples": len(latencies), "errors": dict(errors),
        "split": {name: (len(xs), quantile_ms(xs, 0.5), quantile_ms(xs, 0.99))
                  for name, xs in (("hand-ending", ending), ("mid-hand", mid))} if ending else {},
        "races": sum(p["races"] for p in parts),
        "seated_after": max(p["seated_after"] for p in parts), "cpu": cpu,
        "unseated": sum((Counter(p.get("unseated", {})) for p in parts), Counter()),
        "hands": sum(p["hands"] for p in parts), "snapshots": sum(p["snapshots"] for p in parts),
        "cap": client_cap(tables, throttled=throttled), "paced": bool(think),
    }


def at_cap(r: dict[str, Any]) -> bool:
    """The run went as fast as the bots may send: its figure is the client's, not the server's."""
    return r["actions_per_s"] >= 0.9 * r["cap"]


# The floor: a bare websockets broadcast server ----------------------------------------------
async def floor_serve(port: int) -> None:
    """Turn order per table and broadcasts, speaking just enough of docs/protocol.md for the
    bots: snapshot, sit → seat_taken, turn (legal for its owner), act → action + next turn."""
    from websockets.asyncio.server import broadcast, serve

    tables: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"version": 0, "conns": {}, "seats": {}, "turn": None})
    legal = {"fold": True, "check": True, "call": False, "call_amount": 0, "bet": True,
             "raise": False, "min_to": 2, "max_to": 200, "show": False, "muck": False}

    def publish(table: dict[str, Any], event: dict[str, Any], private: int | None = None) -> None:
        table["version"] += 1
        public = json.dumps({"type": "event", "version": table["version"], "event": event})
        owner = [ws for ws, user in table["conns"].items() if user == private]
        broadcast([ws for ws in table["conns"] if ws not in owner], public)
        if owner:
            broadcast(owner, json.dumps({"type": "event", "version": table["version"],
                                         "event": {**event, "legal": legal}}))

    def next_turn(table: dict[str, Any]) -> None:
        seats = sorted(table["seats"])
        if len(seats) < 2:
            table["turn"] = None
            return
        current = table["turn"]
        later = [s for s in seats if current is None or s > current]
        table["turn"] = later[0] if later else seats[0]
        publish(table, {"type": "turn", "seat": table["turn"]}, private=table["seats"][table["turn"]])

    async def handler(ws: Any) -> None:
        table = tables[ws.request.path]
        cookie = ws.request.headers.get("Cookie", "")
        user = int(cookie.rsplit("-", 1)[-1])
        table["conns"][ws] = user
        await ws.send(json.dumps({
            "type": "snapshot", "version": table["version"],
            "table": {"max_seats": SEATS, "max_buy_in": 200, "min_buy_in": 80, "big_blind": 2},
            "seats": [{"seat": s} for s in table["seats"]], "you": {"seat": None, "legal": None}}))
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "sit":
                    table["seats"][msg["seat"]] = user
                    publish(table, {"type": "seat_taken", "seat": msg["seat"], "player_id": user,
                                    "stack": msg["amount"]})
                    if table["turn"] is None:
                        next_turn(table)
                elif msg.get("type") == "act":
                    seat = next((s for s, u in table["seats"].items() if u == user), None)
                    if msg.get("version") != table["version"] or seat != table["turn"]:
                        await ws.send(json.dumps({"type": "error", "code": "stale_version"}))
                        continue
                    publish(table, {"type": "action", "seat": seat, "action": msg["action"],
                                    "amount": msg.get("amount")})
                    next_turn(table)
                elif msg.get("type") == "leave":
                    seat = next((s for s, u in table["seats"].items() if u == user), None)
                    table["seats"].pop(seat, None)
                    publish(table, {"type": "seat_left", "seat": seat, "player_id": user,
                                    "cashed_out": 0})
                    if table["turn"] == seat:
                        next_turn(table)
        finally:
            table["conns"].pop(ws, None)

    async with serve(handler, "127.0.0.1", port, max_size=2**22):
        await asyncio.Future()


def ratios(room: dict[str, Any], floor: dict[str, Any]) -> str:
    """Room over floor, only where both figures say what the servers can do."""
    servers = ("daphne", "worker", "PostgreSQL", "Redis")
    room_ms = 1000 * sum(room["cpu"].get(k, 0.0) for k in servers) / max(room["actions"], 1)
    floor_ms = 1000 * floor["cpu"].get("servers", 0.0) / max(floor["actions"], 1)
    cpu = (f"servers' CPU per action: room {room_ms:.2f} ms ({', '.join(servers)}) against "
           f"floor {floor_ms:.2f} ms = {room_ms / floor_ms:.1f}x" if floor_ms else "")
    if room["paced"]:
        return (f" ratio: none for throughput and latency (the room was paced to --rate, the "
                f"floor was not); {cpu}")
    capped = [name for name, r in (("room", room), ("floor", floor)) if at_cap(r)]
    if capped:
        return (f" ratio: none for throughput and latency ({' and '.join(capped)} at the "
                f"client's cap); {cpu}")
    return (f" ratio: room/floor throughput {room['actions_per_s'] / floor['actions_per_s']:.2f}"
            f", p50 latency {room['p50_ms'] / floor['p50_ms']:.1f}x, "
            f"p99 latency {room['p99_ms'] / floor['p99_ms']:.1f}x; {cpu}")


# Main ----------------------------------------------------------------------------------------
def layout(args: argparse.Namespace, table_ids: list[int], urls: list[str],
           bots: list[tuple[int, str, str]], *, spread: bool = False) -> list[dict[str, Any]]:
    per_table = min(SEATS, args.connections // args.tables)
    tables = []
    for n, table_id in enumerate(table_ids):
        # A table's sockets on one server, or (--spread) dealt round the servers in turn.
        tables.append({"id": table_id,
                       "urls": [urls[(n + (seat if spread else 0)) % len(urls)]
                                for seat in range(per_table)],
                       "bots": bots[n * per_table:(n + 1) * per_table]})
    return tables


def report(name: str, r: dict[str, Any]) -> None:
    print(f"{name:>6}: {r['actions_per_s']:8.1f} actions/s   latency p50 {r['p50_ms']:6.1f} ms"
          f"   p99 {r['p99_ms']:6.1f} ms   ({r['samples']} samples; races {r['races']}; "
          f"errors {r['errors'] or 'none'}; all seated after {r['seated_after']:.1f} s)")
    from bots.client import SEND_RATE

    cap = (f"{r['cap']:,.0f} actions/s ({SEND_RATE:g} messages/s per socket)"
           if math.isfinite(r["cap"]) else "none (send throttle off)")
    print(f"{'':>8}the client's own cap: {cap}"
          + ("; paced to --rate" if r["paced"] else "; unpaced")
          + (": AT THE CAP, this figure is the client's, not the server's" if at_cap(r) else ""))
    if r.get("unseated"):
        print(f"{'':>8}never seated: {dict(r['unseated'])}")
    if r.get("split"):
        print(f"{'':>8}latency by action: " + "; ".join(
            f"{name} p50 {p50:.1f} ms p99 {p99:.1f} ms ({n} samples)"
            for name, (n, p50, p99) in r["split"].items()))
    print(f"{'':>8}snapshot requests: {r['snapshots']} over {r['hands']} hands seen "
          f"({r['snapshots'] / max(r['hands'], 1):.2f} per hand; the clients request what the "
          f"browser page requests)")
    cpu = dict(r["cpu"])
    seconds, actions = cpu.pop("seconds"), r["actions"]
    busy = sum(cpu.values())
    print(f"{'':>8}CPU over {seconds:.1f} s: {busy / seconds:.2f} of {os.cpu_count()} cores busy"
          f" in the processes below; per action: " + ", ".join(
              f"{name} {1000 * used / max(actions, 1):.2f} ms" for name, used in cpu.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=120)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--spread", action="store_true",
                        help="deal each table's sockets round the servers instead of serving "
                             "a table from one (a load balancer that does not route by table)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="total actions/s the bots aim at (0: act at once)")
    parser.add_argument("--servers", type=int, default=1, help="daphne processes")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--query-actions", type=int, default=200)
    parser.add_argument("--no-floor", action="store_true")
    parser.add_argument("--server", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER),
                        help="a PostgreSQL URL; only its server is used")
    parser.add_argument("--database", default=f"ws_bench_{os.getpid()}",
                        help="name of the throwaway database (created, then dropped)")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--floor-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor_server:
        import logging

        logging.getLogger("websockets").setLevel(logging.CRITICAL)  # the port probe's EOF
        asyncio.run(floor_serve(args.floor_server))
        return 0
    if args.connections < 2 * args.tables:
        parser.error("at least two connections per table")

    name = args.database
    tag = uuid.uuid4().hex[:8]
    env = {**os.environ, "DATABASE_URL": url_with_database(args.server, name),
           "REDIS_URL": args.redis, "CELERY_QUEUE": f"bench-{tag}",
           "CHANNEL_LAYER_PREFIX": f"bench{tag}", "DJANGO_SETTINGS_MODULE": "pokerroom.settings",
           "LOG_LEVEL": "WARNING"}
    os.environ.update(env)
    admin_sql(args.server, f'CREATE DATABASE "{name}"')
    processes: list[subprocess.Popen] = []
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        from bots.client import bot_accounts, session_cookie

        call_command("migrate", verbosity=0)
        print(f"database: throwaway {name} on {urlsplit(args.server).netloc} (dropped at the end)")
        q = queries_per_action(args.query_actions)
        print(f"SQL statements per call (in-process, BEGIN/COMMIT not counted): act inside a "
              f"hand {q['mean']:.2f} mean, {q['max']} max over {q['n']}; act that ends a hand "
              f"(settlement + summary) {q['final_mean']:.2f} mean, {q['final_max']} max over "
              f"{q['finals']}; hand start {q['start_mean']:.2f} mean, {q['start_max']} max over "
              f"{q['starts']}; {q['ms']:.1f} ms median per act in-process (with query capture)")
        table_ids = make_tables(args.tables)
        per_table = min(SEATS, args.connections // args.tables)
        users = bot_accounts(per_table * args.tables, prefix="wsbot")
        room_bots = [(u.pk, u.username, session_cookie(u)) for u in users]
        connections.close_all()

        ports = [free_port() for _ in range(args.servers)]
        for port in ports:
            processes.append(subprocess.Popen(
                daphne_command(sys.executable, host="127.0.0.1", port=port), cwd=REPO, env=env))
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "--pool", "solo",
             "-n", f"bench-{tag}@localhost", "--loglevel", "WARNING", "--without-gossip",
             "--without-mingle"], cwd=REPO, env=env))
        for port in ports:
            wait_for_http(f"http://127.0.0.1:{port}/healthz")
        urls = [f"http://127.0.0.1:{p}" for p in ports]
        total = per_table * args.tables
        print(f"room: {total} connections on {args.tables} tables ({per_table} per table), "
              f"{args.servers} daphne ({'each table spread over them' if args.spread else 'a table on one'}), "
              f"1 Celery worker, {args.clients} client process(es), "
              f"rate {'unlimited' if not args.rate else f'~{args.rate:g}/s'}, "
              f"{args.seconds:g} s measured from {args.warmup:g} s after all are seated")
        daphnes, celery = processes[:-1], processes[-1]
        room = run_clients(layout(args, table_ids, urls, room_bots, spread=args.spread), args, {
            "daphne": lambda: [p.pid for p in daphnes], "worker": lambda: [celery.pid],
            "PostgreSQL": postgres_pids(args.server, name), "Redis": redis_pids(args.redis)})
        for p in processes:
            stop_process(p)
        processes.clear()
        report("room", room)
        print(timeline(table_ids))
        print(hands_played(table_ids))
        from cashier.audit import ledger_audit

        print("ledger audit after the room run (every bot has left and cashed out): "
              + ledger_audit().summary().replace("\n", " "))

        if not args.no_floor:
            floor_ports = [free_port() for _ in range(args.servers)]
            for port in floor_ports:
                processes.append(subprocess.Popen(
                    [sys.executable, __file__, "--floor-server", str(port)], cwd=REPO))
            for port in floor_ports:
                wait_for_port(port)
            floor_bots = [(b[0], b[1], f"sessionid=floor-{b[0]}") for b in room_bots]
            floors = list(processes)
            floor = run_clients(layout(args, table_ids, [f"http://127.0.0.1:{p}"
                                                         for p in floor_ports], floor_bots), args,
                                {"servers": lambda: [p.pid for p in floors]},
                                paced=False, throttled=False)
            report("floor", floor)
            print(ratios(room, floor))
    finally:
        for p in processes:
            stop_process(p)
        from django.db import connections as conns

        conns.close_all()
        admin_sql(args.server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        import redis

        queue = env["CELERY_QUEUE"]
        redis.Redis.from_url(args.redis).delete(queue, f"{queue}.timers")  # timers never run
    return 0


if __name__ == "__main__":
    sys.exit(main())
