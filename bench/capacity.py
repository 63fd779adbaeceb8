"""Capacity at a real room's pace (issue 27): how many 6-max tables this machine holds while
players feel no lag.

The room runs as in production: N daphne processes behind Debian's nginx (the launcher's
template, pokerroom/routed.py), routed by table (``--mode routed``: a consistent hash of the
table id) or spread (``--mode spread``: ``least_conn`` for table sockets too), the Procfile's
Celery worker (prefork, ``--concurrency``) and beat, PostgreSQL and Redis; tables with the
default settings (3 s pause between hands, the seeds' timers, Celery dealing the hands), made
for the run in a throwaway database (``--database``, created, migrated, dropped) or in an
existing migrated one (``--use-database``, which the test uses; nothing dropped).

Players behave like people (bots.client.Bot with its hooks): folds, calls and raises in a 6-max
game's proportions (`people_choose`), log-normal think times (median
``--think-median`` s, capped at ``--think-cap`` below the timer), ``--timeout-rate`` of turns
left to the timer, a ping every 10 s, a chat line per table every ``--chat-seconds`` or so, one
spectator socket per table, lobby pages for 10 % of the players (each polls its list over HTTP
every 5 s, as the page's htmx does), and a trickle of reconnects (the socket dropped; it comes back
with ``?last_version=``), top-ups, leaves and newcomers taking the freed seats. Client
processes: ``--clients`` (a table's sockets share one).

Tables fill at ``--arrivals`` tables a second. Report of one run (``--seconds`` measured
after ``--warmup`` from the last seat taken): tables, sockets of each kind,
hands/hour/table achieved against intended (the players' own think and timer time plus the
pause, per hand), actions/s, p50/p95/p99 of action → every socket of the table and of hand end
→ next deal (against the pause), timer lateness p99 (client-observed from the turn's deadline;
the server's histogram bucket beside it), CPU per process group (/proc via psutil), PostgreSQL
connections, snapshots per hand (the server's room_snapshots_total), every error (clients'
error frames other than races, socket failures, server effect failures, ERROR lines in the
processes' logs).

``--find-capacity`` adds ``--step`` tables from ``--tables`` up to ``--max-tables`` until p99
action latency passes 100 ms, pace falls below 95 % or any error appears, routed then spread,
each mode in a room of its own (processes, Redis keys and, unless ``--use-database``, the
database made again: the spread search inherits nothing of the routed one); its last line is
``capacity: routed N tables, spread M tables``.

  .venv/bin/python bench/capacity.py --tables 20 --servers 2 --seconds 60
  .venv/bin/python bench/capacity.py --mode spread --tables 20 --servers 2 --seconds 60
  .venv/bin/python bench/capacity.py --find-capacity --tables 20 --step 20 --max-tables 200 \\
      --seconds 60 --servers 2 --clients 2
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import math
import multiprocessing
import os
import random
import re
import secrets
import shlex
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.ws_load import (  # noqa: E402
    DEFAULT_SERVER,
    SEATS,
    CpuMeter,
    admin_sql,
    postgres_pids,
    redis_pids,
    url_with_database,
)
from pokerroom.processes import (  # noqa: E402
    PAGE_NICENESS,
    daphne_command,
    free_port,
    stop_process,
    wait_for_http,
)

NEWCOMERS_PER_TABLE = 2  # accounts waiting to take a seat a leaver freed
LOBBY_SHARE = 0.10  # open lobby pages per player
LOBBY_REFRESH_SECONDS = 5.0  # templates/tables/_lobby_list.html polls every 5 s
PING_SECONDS = 10.0  # static/js/table/client.js HEARTBEAT_MS
LIMIT_P99_MS = 100.0
LIMIT_PACE = 0.95
ROUTED_HASH = "hash $room_table_id consistent;"
READY_SECONDS = 120.0


# Statistics -------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`; nan when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def bucket_quantile(buckets: dict[float, float], q: float) -> float:
    """The upper bound of the histogram bucket holding the q-quantile (cumulative counts by
    `le`); nan when empty."""
    total = buckets.get(math.inf, 0.0)
    if total <= 0:
        return math.nan
    for le in sorted(buckets):
        if buckets[le] >= q * total:
            return le
    return math.inf


def people_choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Decisions closer to a 6-max game than the bots' default (which calls nearly everything,
    so six players see every street): facing a bet, fold 55 %, call 35 %, raise 10 %; free to
    check, check 75 %, bet 25 % (half the pot-ish: up to three minimum bets)."""
    if legal.get("show") or legal.get("muck"):
        return {"type": "show" if rng.random() < 0.5 else "muck"}
    roll = rng.random()
    aggressive = legal.get("bet") or legal.get("raise")
    if legal.get("check"):
        if aggressive and roll < 0.25:
            low, high = legal["min_to"], legal["max_to"]
            return {"type": "act", "action": "bet" if legal.get("bet") else "raise",
                    "amount": rng.randint(low, min(high, low * 3))}
        return {"type": "act", "action": "check"}
    if roll < 0.55 and legal.get("fold"):
        return {"type": "act", "action": "fold"}
    if roll > 0.90 and aggressive:
        low, high = legal["min_to"], legal["max_to"]
        return {"type": "act", "action": "raise" if legal.get("raise") else "bet",
                "amount": rng.randint(low, min(high, low * 2))}
    return {"type": "act", "action": "call"}


def lognormal_think(median: float, sigma: float, cap: float) -> Callable[[random.Random], float]:
    """Think times: log-normal around `median` seconds, at most `cap` (below the timer)."""
    mu = math.log(median)
    return lambda rng: min(cap, rng.lognormvariate(mu, sigma))


# The room's processes ---------------------------------------------------------------------
@dataclass
class Room:
    """The processes of one room, their logs and where to reach them."""

    var: Path
    env: dict[str, str]
    daphnes: list[subprocess.Popen] = field(default_factory=list)  # web1.., then page1..
    ports: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    worker: subprocess.Popen | None = None
    beat: subprocess.Popen | None = None
    nginx: subprocess.Popen | None = None
    front: str = ""
    mode: str = "routed"
    logs: dict[str, Path] = field(default_factory=dict)

    def of(self, kind: str) -> list[tuple[int, subprocess.Popen]]:
        """The daphnes of `kind` ("web": table sockets, "page": the rest), port and process."""
        return [(port, process) for name, port, process in zip(
            self.names, self.ports, self.daphnes, strict=True) if name.rstrip("0123456789") == kind]

    def all(self) -> list[subprocess.Popen]:
        return [p for p in (self.nginx, *self.daphnes, self.worker, self.beat) if p is not None]

    def spawn(self, name: str, args: list[str], **env: str) -> subprocess.Popen:
        log = self.var / f"{name}.log"
        self.logs[name] = log
        with open(log, "ab") as out:
            return subprocess.Popen(args, cwd=REPO, env={**self.env, **env}, stdout=out,
                                    stderr=subprocess.STDOUT)


def procfile_command(name: str) -> list[str]:
    """The Procfile's command for `name`, run by this Python."""
    from pokerroom.routed import procfile_entries

    args = shlex.split(procfile_entries(REPO / "Procfile")[name])
    return [sys.executable, "-m", *args] if args[0] == "celery" else args


def option_set(args: list[str], name: str, value: str) -> list[str]:
    """`args` with option `name` given `value` (replaced, or added)."""
    if name in args:
        i = args.index(name)
        return [*args[:i + 1], value, *args[i + 2:]]
    return [*args, name, value]


def room_start(room: Room, *, servers: int, pages: int, concurrency: int, tag: str) -> None:
    """daphnes (behind nginx: proxy headers; web1.. for the table sockets, page1.. for the
    rest, niced, as the launcher's --servers and --pages), the worker and beat."""
    room.names = [f"web{n}" for n in range(1, servers + 1)] + [
        f"page{n}" for n in range(1, pages + 1)]
    room.ports = [free_port() for _ in room.names]
    for name, port in zip(room.names, room.ports, strict=True):
        room.daphnes.append(room.spawn(
            name, daphne_command(sys.executable, host="127.0.0.1", port=port, proxy_headers=True,
                                 niceness=PAGE_NICENESS if name.startswith("page") else 0),
            ROOM_SERVER_NAME=name))
    worker = option_set(procfile_command("worker"), "--loglevel", "WARNING")
    worker = option_set(worker, "--concurrency", str(concurrency))
    room.worker = room.spawn("worker", [*worker, "-n", f"capacity-{tag}@%h", "--without-gossip",
                                        "--without-mingle"])
    beat = option_set(procfile_command("beat"), "--loglevel", "WARNING")
    room.beat = room.spawn("beat", option_set(beat, "--schedule", str(room.var / "beat-schedule")))
    for name, port, process in zip(room.names, room.ports, room.daphnes, strict=True):
        wait_for_http(f"http://127.0.0.1:{port}/healthz", READY_SECONDS, process=process,
                      log=lambda name=name: log_tail(room.logs[name]))


def nginx_start(room: Room, mode: str) -> None:
    """nginx in front, from the launcher's template: as rendered (routed by table) or with the
    table upstream's hash replaced by least_conn (spread)."""
    from pokerroom.routed import nginx_command, nginx_files

    nginx_stop(room)
    var = room.var / "nginx"
    port = free_port()
    conf = nginx_files(var, listen=f"127.0.0.1:{port}",
                       servers=[f"127.0.0.1:{port}" for port, _ in room.of("web")],
                       pages=[f"127.0.0.1:{port}" for port, _ in room.of("page")])
    if mode == "spread":
        text = conf.read_text()
        assert ROUTED_HASH in text, "deploy/nginx/local.conf.in changed: update ROUTED_HASH"
        conf.write_text(text.replace(ROUTED_HASH, "least_conn;"))
    room.nginx = room.spawn("nginx", nginx_command(conf, var))
    room.front, room.mode = f"http://127.0.0.1:{port}", mode
    wait_for_http(f"{room.front}/livez", READY_SECONDS, process=room.nginx,
                  log=lambda: log_tail(room.logs["nginx"]))


def nginx_stop(room: Room) -> None:
    if room.nginx is not None:
        stop_process(room.nginx)
        room.nginx = None


def log_tail(path: Path, lines: int = 30) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return "(no log)"


ERROR_LINE = re.compile(r"\bERROR\b|Traceback|CRITICAL|\[(error|crit|alert|emerg)\]")


def log_errors(room: Room, since: dict[str, int]) -> list[str]:
    """Error lines the room's processes logged after the offsets `since` (name → bytes)."""
    found = []
    for name, path in room.logs.items():
        with contextlib.suppress(OSError), open(path, "rb") as f:
            f.seek(since.get(name, 0))
            for line in f.read().decode(errors="replace").splitlines():
                if ERROR_LINE.search(line):
                    found.append(f"{name}: {line.strip()[:200]}")
    return found


def log_offsets(room: Room) -> dict[str, int]:
    return {name: path.stat().st_size for name, path in room.logs.items() if path.exists()}


def group_pids(room: Room) -> dict[str, Callable[[], list[int]]]:
    """CPU groups: the table daphnes, the page daphnes, the worker with its prefork children,
    beat, nginx."""
    import psutil

    def tree(process: subprocess.Popen | None) -> list[int]:
        if process is None:
            return []
        with contextlib.suppress(psutil.Error):
            return [process.pid, *(c.pid for c in psutil.Process(process.pid).children(True))]
        return []

    def daphnes(kind: str) -> list[int]:
        return [process.pid for _, process in room.of(kind)]

    return {"daphne": lambda: daphnes("web"), "page daphne": lambda: daphnes("page"),
            "worker": lambda: tree(room.worker),
            "beat": lambda: tree(room.beat), "nginx": lambda: tree(room.nginx)}


# The server's own counts (/metrics of any daphne: every process's values, summed) ----------
HISTOGRAMS = {"room_timer_lateness_seconds_bucket": "lateness",
              "room_act_seconds_bucket": "act",
              "room_act_wait_seconds_bucket": "act_wait",
              "room_loop_lag_seconds_bucket": "loop_lag"}  # bucket samples → the report's name


def metrics_read(url: str, token: str) -> dict[str, Any]:
    from prometheus_client.parser import text_string_to_metric_families

    request = urllib.request.Request(f"{url}/metrics",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    out: dict[str, Any] = defaultdict(float)
    histograms = {name: defaultdict(float) for name in HISTOGRAMS.values()}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name in HISTOGRAMS:
                histograms[HISTOGRAMS[s.name]][float(s.labels["le"])] += s.value
            elif s.name == "room_sockets_open":
                out[f"sockets_{s.labels.get('kind')}"] += s.value
            elif s.name in ("room_snapshots_total", "room_hands_started_total",
                            "room_hands_finished_total", "room_resyncs_total", "room_gaps_total",
                            "room_effect_failures_total", "room_actions_total"):
                out[s.name] += s.value
                if s.name == "room_actions_total" and s.labels.get("action") == "timeout":
                    out["timeouts"] += s.value
    out.update({name: dict(buckets) for name, buckets in histograms.items()})
    return dict(out)


def metrics_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    diff = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after
            if k not in HISTOGRAMS.values() and not k.startswith("sockets_")}
    for name in HISTOGRAMS.values():
        diff[name] = {le: n - before[name].get(le, 0.0) for le, n in after[name].items()}
    diff.update({k: v for k, v in after.items() if k.startswith("sockets_")})
    return diff


def pg_connections(server: str, database: str) -> Callable[[], int]:
    import psycopg

    target = url_with_database(server, database).replace("postgres://", "postgresql://", 1)
    conn = psycopg.connect(target, autocommit=True)
    query = ("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
             "AND pid <> pg_backend_pid()")
    return lambda: conn.execute(query).fetchone()[0]


class Sampler:
    """A number sampled once a second (PostgreSQL connections): its maximum and last value."""

    def __init__(self, read: Callable[[], int]) -> None:
        self.read, self.values = read, []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(Exception):
                self.values.append(self.read())
            self.stop.wait(1.0)

    def done(self) -> tuple[int, int]:
        self.stop.set()
        self.thread.join()
        return (max(self.values, default=0), self.values[-1] if self.values else 0)


# Setup in the database ---------------------------------------------------------------------
def tables_make(count: int, *, timers: tuple[int, int] | None) -> list[int]:
    """`count` 6-max NL tables for this benchmark (made once, reused by later steps), with the
    model's defaults (pause, timers, timeout policy) unless `timers` overrides the timers."""
    from tables.models import TableConfig

    ids = list(TableConfig.objects.filter(name__startswith="Capacity ").order_by("pk")
               .values_list("pk", flat=True))
    for n in range(len(ids), count):
        table = TableConfig(name=f"Capacity {n + 1}", structure="NL", lower_stake=2,
                            max_seats=SEATS, min_buy_in_bb=40, max_buy_in_bb=100)
        if timers:
            table.action_seconds, table.countdown_seconds = timers
        table.full_clean()
        table.save()
        ids.append(table.pk)
    return ids[:count]


def accounts_make(count: int) -> list[tuple[int, str, str]]:
    """(user id, name, session cookie) of `count` bot players (made once, reused)."""
    from bots.client import bot_accounts, bot_wallet_refill, session_cookie

    users = bot_accounts(count, prefix="cap")
    for user in users:
        bot_wallet_refill(user, at_least=2000)
    return [(u.pk, u.username, session_cookie(u)) for u in users]


def table_defaults() -> dict[str, Any]:
    from tables.models import TableConfig

    fields = {f.name: f.default for f in TableConfig._meta.get_fields() if hasattr(f, "default")}
    return {k: fields[k] for k in ("hand_pause_seconds", "action_seconds", "countdown_seconds",
                                   "timeout_policy")}


# Clients ----------------------------------------------------------------------------------
def client_main(spec: dict[str, Any], results: Any, together: Any) -> None:
    import logging

    logging.getLogger("websockets").setLevel(logging.CRITICAL)
    results.put(asyncio.run(client_run(spec, together, results.put)))


async def _all_here(together: Any) -> None:
    with contextlib.suppress(threading.BrokenBarrierError):
        await asyncio.to_thread(together.wait, 300)


def awaited(listeners: list[Any], first: Any, version: int) -> int:
    """The sockets of a table that should receive event `version` as an event, counted when
    `first` does: the open ones that are behind it. A socket whose snapshot came at or after
    `version` holds it already and never gets it as an event (a newcomer, its snapshot taken
    while the action's broadcast was on its way); one still waiting for its snapshot may, or
    may not."""
    return sum(_open(b) and (b is first or (b.version is not None and b.version < version))
               for b in listeners)


def _open(bot: Any) -> bool:
    from websockets.protocol import State

    ws = getattr(bot, "ws", None)
    return ws is not None and ws.state is State.OPEN and not bot.result.left


async def client_run(spec: dict[str, Any], together: Any,
                     announce: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Play a share of the tables and measure it over the common window (announced as soon
    as it is known, so that the server's counters are read at its start and end)."""
    from bots.client import Bot, TableTally

    think = lognormal_think(spec["think_median"], spec["think_sigma"], spec["think_cap"])
    timer = spec["timer"]
    window = {"start": math.inf, "end": math.inf}
    in_window = lambda t: window["start"] <= t < window["end"]  # noqa: E731
    rng = random.Random(spec["seed"])
    listeners: dict[int, list[Bot]] = defaultdict(list)  # table → its bots (players, spectator)
    sends: dict[tuple[int, int], float] = {}  # (table, seat) → when its act went out
    receipts: dict[tuple[int, int], list[float]] = {}  # (table, version) → [sent, n, expected]
    latencies: list[float] = []
    incomplete = Counter()
    pace = Pace(window)
    next_deal: list[float] = []
    ended_at: dict[int, float] = {}
    deadlines: dict[tuple[int, int], float] = {}
    lateness: list[float] = []
    counts = Counter()
    dropped: dict[int, float] = {}  # table → when the trickle last dropped one of its sockets
    first_seen: set[tuple[int, int]] = set()  # (table, version) seen once in this process

    def on_send(bot: Bot, message: dict[str, Any]) -> None:
        now = time.monotonic()
        pace.add(now - bot.last_think, now)
        pace.turn_over(bot.table_id)
        if message.get("type") == "act":
            sends[(bot.table_id, bot.seat or 0)] = now

    def on_event(bot: Bot, version: int, event: dict[str, Any]) -> None:
        now, table, kind = time.monotonic(), bot.table_id, event.get("type")
        if (kind in ("turn", "deadline_extended", "time_bank") and event.get("deadline")
                and event.get("seat") == bot.seat):
            deadlines[(table, bot.seat)] = datetime.datetime.fromisoformat(
                event["deadline"]).timestamp()
        if kind == "action" and event.get("timeout") and event.get("seat") == bot.seat:
            due = deadlines.pop((table, bot.seat), None)
            if due is not None:
                late = time.time() - due
                # the turn's whole time: the timer's, and any reconnect bonus on top
                pace.add(pace.started.get((table, bot.seat), now - late - timer), now - late)
                if in_window(now):
                    lateness.append(late)
        if kind == "action" and not event.get("timeout"):
            key = (table, version)
            got = receipts.get(key)
            if got is None:
                sent = sends.pop((table, event["seat"]), None)
                expected = awaited(listeners[table], bot, version)
                got = receipts[key] = [sent if sent is not None else math.nan, 0, expected, now]
            got[1] += 1
            if got[1] >= got[2]:
                del receipts[key]
                if math.isnan(got[0]) or not in_window(got[0]):
                    pass
                elif dropped.get(table, -math.inf) >= got[0]:
                    counts["latency samples left out (a socket of the table reconnected)"] += 1
                else:
                    latencies.append(now - got[0])
        if (table, version) in first_seen:
            return
        first_seen.add((table, version))
        if kind == "turn":
            pace.turn(table, event.get("seat"), now)
        elif kind in ("action", "hand_end"):
            pace.turn_over(table)
        if kind == "action" and in_window(now):
            counts["actions"] += 1
            if event.get("timeout"):
                counts["timeouts"] += 1
        if kind == "chat" and in_window(now):
            counts["chat_lines"] += 1
        if kind == "hand_end":
            ended_at[table] = now
            pace.add(now, now + spec["pause"])
        if kind == "hand_start":
            if table in ended_at and in_window(now):
                next_deal.append(now - ended_at.pop(table))
            if in_window(now):
                counts["hands"] += 1

    def player(table: dict[str, Any], account: tuple[int, str, str], seat: int,
               tally: TableTally) -> Bot:
        user_id, name, cookie = account
        bot = Bot(url=spec["front"], table_id=table["id"], user_id=user_id, name=name,
                  cookie=cookie, seat=seat, tally=tally, buy_in=200,
                  rng=random.Random(user_id * 7919 + spec["seed"]), reconnect_seconds=60,
                  on_send=on_send, on_event=on_event, think_time=think,
                  timeout_rate=spec["timeout_rate"], ping_seconds=PING_SECONDS,
                  choose=people_choose, entropy=stored.setdefault(user_id, {}))
        listeners[table["id"]].append(bot)
        return bot

    # Each player's browser storage from earlier steps: what he sent for the decks committed
    # when he last sat here (a new bot would send again for his table's next deck: refused).
    stored: dict[int, dict[str, str]] = spec["entropy"]
    bots: list[Bot] = []
    tasks: dict[Bot, asyncio.Task] = {}
    reserves: dict[int, list[tuple[int, str, str]]] = {}
    tallies: dict[int, TableTally] = {}
    for table in spec["tables"]:
        tally = tallies[table["id"]] = TableTally(target=0)
        reserves[table["id"]] = list(table["newcomers"])
        for seat, account in enumerate(table["players"], start=1):
            bots.append(player(table, account, seat, tally))
        user_id, name, cookie = table["spectator"]
        spectator = Bot(url=spec["front"], table_id=table["id"], user_id=user_id, name=name,
                        cookie=cookie, seat=0, tally=tally, rng=random.Random(user_id),
                        reconnect_seconds=60, on_event=on_event, ping_seconds=PING_SECONDS,
                        watch_only=True)
        listeners[table["id"]].append(spectator)
        bots.append(spectator)
    # Tables fill at --arrivals tables a second (shared by the client processes), as players
    # come to a room, not all in the same instant: the seating is not what is measured.
    spacing = spec["arrival_spacing"]
    order = {table["id"]: n for n, table in enumerate(spec["tables"])}

    async def arrive(bot: Bot) -> Any:
        await asyncio.sleep(order[bot.table_id] * spacing)
        return await bot.run()

    for bot in bots:
        tasks[bot] = asyncio.create_task(arrive(bot))
    lobby_stop = asyncio.Event()
    lobby_stats = Counter()
    lobby_polls: list[float] = []
    # Lobby pages open while the tables fill, spread over the same time (72 lobby pages of
    # 78 KB opened in one second kept a daphne from answering handshakes for 5 s).
    filling = len(spec["tables"]) * spacing

    async def visit(n: int, cookie: str) -> None:
        await asyncio.sleep(filling * n / len(spec["lobby"]))
        await lobby_page(spec["front"], cookie, lobby_stop, lobby_stats, lobby_polls, in_window)

    lobbies = [asyncio.create_task(visit(n, cookie)) for n, cookie in enumerate(spec["lobby"])]
    client_lag: list[float] = []
    lag_sampling = asyncio.create_task(loop_lag_sample(client_lag, in_window))

    seating = time.monotonic()
    players = [b for b in bots if not b.watch_only]
    patience = 120 + filling
    while any(b.seat is None for b in players) and time.monotonic() - seating < patience:
        await asyncio.sleep(0.2)
    seated_after = time.monotonic() - seating
    await _all_here(together)
    window["start"] = time.monotonic() + spec["warmup"]
    window["end"] = window["start"] + spec["seconds"]
    announce({"window": (window["start"], window["end"])})

    # The trickle: chat lines, reconnects, top-ups, leaves and newcomers, until the window ends.
    async def trickle() -> None:
        tables = [t["id"] for t in spec["tables"]]
        per_second = {
            "chat": len(tables) / spec["chat_seconds"],
            "reconnect": len(bots) / spec["reconnect_seconds"],
            "top_up": len(players) / spec["top_up_seconds"],
            "leave": len(players) / spec["leave_seconds"],
        }
        total = sum(per_second.values())
        while time.monotonic() < window["end"]:
            await asyncio.sleep(rng.expovariate(total))
            if time.monotonic() >= window["end"]:
                return
            what = rng.choices(list(per_second), weights=list(per_second.values()))[0]
            table = rng.choice(tables)
            seated = [b for b in listeners[table] if not b.watch_only and b.seat is not None
                      and not b.leaving and _open(b)]
            with contextlib.suppress(Exception):
                if what == "chat" and seated:
                    await rng.choice(seated).send({"type": "chat", "text": "nice hand"})
                elif what == "reconnect":
                    live = [b for b in listeners[table] if _open(b)]
                    if live:
                        counts["drops"] += 1
                        dropped[table] = time.monotonic()
                        await rng.choice(live).drop()
                elif what == "top_up" and seated:
                    bot = rng.choice(seated)
                    room = 200 - (bot.stack or 200)
                    if room >= 20 and not bot.topping_up:
                        counts["top_ups"] += 1
                        await bot.send({"type": "top_up", "amount": room // 2})
                elif what == "leave" and seated and reserves[table]:
                    leaver = rng.choice(seated)
                    counts["leaves"] += 1
                    await leaver.finish()
                    arriving.add(asyncio.create_task(newcomer(table, leaver)))

    async def newcomer(table_id: int, leaver: Bot) -> None:
        """Once the leaver's seat is free, a new player sits there (the spec's reserve)."""
        await tasks[leaver]
        dropped[table_id] = time.monotonic()  # its socket closed: actions in flight skip it
        if time.monotonic() >= window["end"] or not reserves[table_id]:
            return
        table = next(t for t in spec["tables"] if t["id"] == table_id)
        tally = tallies[table_id]
        tally.claimed = {n: uid for n, uid in tally.claimed.items() if uid != leaver.user_id}
        bot = player(table, reserves[table_id].pop(0), leaver.result.sat_at or 1,
                     tallies[table_id])
        bots.append(bot)
        players.append(bot)
        counts["newcomers"] += 1
        tasks[bot] = asyncio.create_task(bot.run())

    arriving: set[asyncio.Task] = set()
    trickling = asyncio.create_task(trickle())
    await asyncio.sleep(max(0.0, window["end"] - time.monotonic()))
    await trickling
    pace.close()  # the bots leave next: a leave folds a hand whose turn it is at once
    sockets = {"player": sum(_open(b) for b in players), "spectator":
               sum(_open(b) for b in bots if b.watch_only)}
    lobby_pages = lobby_stats["open"]
    await _all_here(together)
    lobby_stop.set()
    leaving = time.monotonic()
    for bot in list(bots):
        await bot.finish()
    done, pending = await asyncio.wait(list(tasks.values()), timeout=spec["grace"])
    left_after = time.monotonic() - leaving
    for task in pending:
        task.cancel()
    await asyncio.gather(*lobbies, return_exceptions=True)
    lag_sampling.cancel()
    errors: Counter[str] = Counter()
    for bot, task in tasks.items():
        errors.update(bot.result.errors)
        if task in done and task.exception() is not None:
            errors[f"socket: {type(task.exception()).__name__}"] += 1
    # Still seated when --grace ran out (a long hand): not the room's error; the next step's
    # bot for the same account finds its seat again.
    counts["still seated after the grace"] = len(pending)
    errors.update({f"lobby: {k}": v for k, v in lobby_stats.items() if k.startswith("error")})
    incomplete["actions whose broadcast never reached every socket"] = sum(
        1 for (table, _), r in receipts.items() if not math.isnan(r[0]) and in_window(r[0])
        and dropped.get(table, -math.inf) < r[0] and r[3] < window["end"] - 10)
    return {"latencies": latencies, "intended": pace.seconds,
            "table_seconds": len(spec["tables"]) * spec["seconds"], "next_deal": next_deal,
            "lateness": lateness, "counts": dict(counts), "errors": dict(errors),
            "sockets": sockets, "seated_after": seated_after, "left_after": left_after,
            "window": (window["start"], window["end"]), "incomplete": dict(incomplete),
            "races": dict(sum((b.result.races for b in tasks), Counter())),
            "let_go": sum(b.result.let_go for b in tasks),
            "reconnects": sum(b.result.reconnects for b in tasks),
            "lobby_refreshes": lobby_stats["refreshes"], "lobby_pages": lobby_pages,
            "lobby_polls": lobby_polls, "client_lag": client_lag,
            "entropy": {user: dict([*sent.items()][-1:]) for user, sent in stored.items()}}


class Pace:
    """The time the tables spent on the players and the pause in the window (a share of the
    tables' time: the rest was the room's). A think counts when its act goes out, a turn left
    to the timer when the timeout comes, a pause when the hand ends, each for its part inside
    the window. A turn still open when the window closes counts up to the close: the bots then
    leave, and a leave folds the hand of a player whose turn it is, so its act or timeout
    never comes (uncounted, those turns took 3-6 % of the tables' time at any load)."""

    def __init__(self, window: dict[str, float]) -> None:
        self.window = window  # its start and end are set once the tables are seated
        self.seconds = 0.0
        self.open: dict[int, float] = {}  # table → when its current turn came
        self.started: dict[tuple[int, int], float] = {}  # (table, seat) → his last turn's start
        self.closed = False

    def add(self, start: float, end: float) -> None:
        if not self.closed:
            self.seconds += max(0.0, min(end, self.window["end"]) - max(start,
                                                                         self.window["start"]))

    def turn(self, table: int, seat: int, at: float) -> None:
        self.open[table] = self.started[(table, seat)] = at

    def turn_over(self, table: int) -> None:
        self.open.pop(table, None)

    def close(self) -> None:
        """The window's end: count the open turns up to it, and nothing after."""
        for at in self.open.values():
            self.add(at, self.window["end"])
        self.closed = True


async def loop_lag_sample(lags: list[float], in_window: Callable[[float], bool]) -> None:
    """This client's event-loop lag in the window: the part of its latency figures that is the
    load generator's own (a browser tab holds one socket)."""
    from observability.loop_lag import loop_lags

    async for lag in loop_lags(0.25):
        if in_window(time.monotonic()):
            lags.append(lag)


async def lobby_page(front: str, cookie: str, stop: asyncio.Event, stats: Counter,
                     polls: list[float], in_window: Callable[[float], bool]) -> None:
    """A player's open lobby page: the page, then its list's htmx poll every
    LOBBY_REFRESH_SECONDS (templates/tables/_lobby_list.html: GET / with the filter form's
    fields and the page on screen, HX-Request set). Each poll's time goes to `polls`."""
    import urllib.request
    from urllib.parse import urlencode

    fields = {"structure": "", "currency": "", "min_bb": "", "max_bb": "", "sort": "",
              "dir": "asc", "page": "1"}
    htmx = {"HX-Request": "true", "HX-Target": "lobby-list", "HX-Trigger": "lobby-list",
            "HX-Current-URL": f"{front}/"}

    def get(url: str, headers: dict[str, str]) -> None:
        request = urllib.request.Request(url, headers={"Cookie": cookie, **headers})
        with urllib.request.urlopen(request, timeout=30) as answer:  # 4xx/5xx raise
            answer.read()

    try:
        await asyncio.to_thread(get, f"{front}/", {})
        stats["open"] += 1
        try:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), LOBBY_REFRESH_SECONDS)
                    break
                start = time.monotonic()
                await asyncio.to_thread(get, f"{front}/?{urlencode(fields)}", htmx)
                if in_window(start):
                    polls.append(time.monotonic() - start)
                stats["refreshes"] += 1
        finally:
            stats["open"] -= 1
    except Exception as e:  # reported as an error of the run
        stats[f"error {type(e).__name__}"] += 1


# One measured run -------------------------------------------------------------------------
def remembered(entropy: dict[int, dict[str, str]],
               tables: list[dict[str, Any]]) -> dict[int, dict[str, str]]:
    """What the players of `tables` sent in earlier steps (their browsers' storage)."""
    players = {account[0] for t in tables for account in (*t["players"], *t["newcomers"])}
    return {user: sent for user, sent in entropy.items() if user in players}


def run_step(room: Room, args: argparse.Namespace, *, tables: int,
             accounts: list[tuple[int, str, str]], table_ids: list[int]) -> dict[str, Any]:
    """Players on `tables` tables for --warmup + --seconds; the figures of the window."""
    per_table = SEATS + NEWCOMERS_PER_TABLE + 1
    layout = []
    for n, table_id in enumerate(table_ids[:tables]):
        mine = accounts[n * per_table:(n + 1) * per_table]
        layout.append({"id": table_id, "players": mine[:SEATS],
                       "newcomers": mine[SEATS:SEATS + NEWCOMERS_PER_TABLE],
                       "spectator": mine[-1]})
    lobby = [a[2] for a in accounts[:max(1, round(LOBBY_SHARE * SEATS * tables))]]
    defaults = args.defaults
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    shares = [s for i in range(args.clients) if (s := layout[i::args.clients])]
    together = ctx.Barrier(len(shares))
    common = {"front": room.front, "think_median": args.think_median,
              "think_sigma": args.think_sigma, "think_cap": args.think_cap,
              "timeout_rate": args.timeout_rate, "chat_seconds": args.chat_seconds,
              "reconnect_seconds": args.reconnect_seconds, "top_up_seconds": args.top_up_seconds,
              "leave_seconds": args.leave_seconds, "warmup": args.warmup,
              "seconds": args.seconds, "grace": args.grace, "pause": defaults["pause"],
              "timer": defaults["timer"], "arrival_spacing": args.clients / args.arrivals}
    procs = [ctx.Process(target=client_main, args=(
        {**common, "tables": share, "seed": i, "lobby": lobby[i::len(shares)],
         "entropy": remembered(args.entropy, share)}, results,
        together)) for i, share in enumerate(shares)]
    offsets = log_offsets(room)
    for p in procs:
        p.start()
    groups = {**group_pids(room), "PostgreSQL": args.pg_pids, "Redis": args.redis_pids,
              "clients": lambda: [p.pid for p in procs]}
    meter = CpuMeter(groups)
    conns = Sampler(args.pg_connections)
    token = room.env["METRICS_TOKEN"]
    scrape = f"http://127.0.0.1:{room.ports[0]}"
    marks: dict[str, dict[str, Any]] = {}

    def read_marks(start: float, end: float) -> None:
        """The server's counters at the window's start and end (monotonic clock: shared by
        the processes of this machine)."""
        for name, at in (("start", start), ("end", end)):
            while time.monotonic() < at:
                time.sleep(min(0.2, at - time.monotonic()))
            with contextlib.suppress(Exception):
                marks[name] = metrics_read(scrape, token)

    parts: list[dict[str, Any]] = []
    reader: threading.Thread | None = None
    deadline = (time.monotonic() + 120 + tables / args.arrivals + args.warmup + args.seconds
                + args.grace + 300)
    try:
        while len(parts) < len(procs):
            try:
                message = results.get(timeout=1.0)
            except Exception:  # queue.Empty
                if time.monotonic() > deadline or not any(p.is_alive() for p in procs):
                    raise RuntimeError("the client processes stopped without a result") from None
                continue
            if "window" in message and len(message) == 1:
                if reader is None:
                    reader = threading.Thread(target=read_marks, args=message["window"],
                                              daemon=True)
                    reader.start()
                continue
            parts.append(message)
    finally:
        for p in procs:  # interrupted (Ctrl-C) or failed: no client outlives the run
            if p.is_alive() and len(parts) < len(procs):
                p.terminate()
    for part in parts:
        args.entropy.update(part.pop("entropy"))
    if reader is not None:
        reader.join(timeout=60)
    cpu = meter.between(min(p["window"][0] for p in parts), max(p["window"][1] for p in parts))
    conns_max, conns_last = conns.done()
    for p in procs:
        p.join(timeout=10)
    return summarize(room, args, tables, parts, cpu, (conns_max, conns_last), offsets, marks)


def summarize(room: Room, args: argparse.Namespace, tables: int, parts: list[dict[str, Any]],
              cpu: dict[str, float], conns: tuple[int, int], offsets: dict[str, int],
              marks: dict[str, Any]) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    sockets: Counter[str] = Counter()
    for part in parts:
        counts.update(part["counts"])
        errors.update(part["errors"])
        sockets.update(part["sockets"])
        errors.update(part["incomplete"])
    errors = Counter({k: v for k, v in errors.items() if v})
    latencies = [x for p in parts for x in p["latencies"]]
    next_deal = [x for p in parts for x in p["next_deal"]]
    lateness = [x for p in parts for x in p["lateness"]]
    # Pace: the share of the tables' time that the players and the pause took (their thinks,
    # the turns left to the timer, the pauses); the rest is the room's (action turnaround,
    # dealing). A room that takes no time deals the intended hands: achieved / pace.
    table_seconds = sum(p["table_seconds"] for p in parts)
    pace = sum(p["intended"] for p in parts) / table_seconds if table_seconds else math.nan
    achieved = counts["hands"] * 3600 / args.seconds / tables
    server = metrics_diff(marks["start"], marks["end"]) if {"start", "end"} <= marks.keys() else {}
    if server.get("room_effect_failures_total"):
        errors["server effect failures (room_effect_failures_total)"] += int(
            server["room_effect_failures_total"])
    for line in log_errors(room, offsets):
        errors[line] += 1
    return {
        "mode": room.mode, "tables": tables, "servers": len(room.of("web")),
        "pages": len(room.of("page")),
        "sockets": dict(sockets), "server_sockets": {k[8:]: v for k, v in server.items()
                                                     if k.startswith("sockets_")},
        "hands": counts["hands"], "seconds": args.seconds,
        "hands_per_hour": achieved, "pace": pace,
        "intended_per_hour": achieved / pace if pace else math.nan,
        "actions_per_s": counts["actions"] / args.seconds, "timeouts": counts["timeouts"],
        "latency": [1000 * percentile(latencies, q) for q in (0.5, 0.95, 0.99)],
        "latency_samples": len(latencies),
        "client_lag": [1000 * percentile([x for p in parts for x in p["client_lag"]], q)
                       for q in (0.5, 0.99)],
        "next_deal": [1000 * percentile(next_deal, q) for q in (0.5, 0.95, 0.99)],
        "next_deal_samples": len(next_deal), "pause": args.defaults["pause"],
        "lateness_p99_ms": 1000 * percentile(lateness, 0.99), "lateness_samples": len(lateness),
        "server_lateness_p99": bucket_quantile(server.get("lateness", {}), 0.99),
        **{f"server_{name}": [bucket_quantile(server.get(name, {}), q) for q in (0.5, 0.99)]
           for name in ("act", "act_wait", "loop_lag")},
        "server_timeouts": server.get("timeouts", 0.0) if server else math.nan,
        "cpu": cpu, "pg_connections": conns,
        "snapshots": server.get("room_snapshots_total", math.nan),
        "server_hands": server.get("room_hands_started_total", math.nan),
        "resyncs": server.get("room_resyncs_total", math.nan),
        "trickle": {k: counts[k] for k in ("chat_lines", "drops", "top_ups", "leaves",
                                           "newcomers", "still seated after the grace")},
        "reconnects": sum(p["reconnects"] for p in parts),
        "lobby_refreshes": sum(p["lobby_refreshes"] for p in parts),
        "lobby_pages": sum(p["lobby_pages"] for p in parts),
        "lobby_polls": [1000 * percentile([x for p in parts for x in p["lobby_polls"]], q)
                        for q in (0.5, 0.95, 0.99)],
        "races": dict(sum((Counter(p["races"]) for p in parts), Counter())),
        "seated_after": max(p["seated_after"] for p in parts),
        "left_after": max(p["left_after"] for p in parts),
        "errors": dict(errors), "load": os.getloadavg(),
    }


def held(r: dict[str, Any]) -> tuple[bool, str]:
    """Did the room hold this step? (and why not)"""
    why = []
    p99 = r["latency"][2]
    if math.isnan(p99) or p99 > LIMIT_P99_MS:
        why.append(f"p99 action latency {p99:.0f} ms > {LIMIT_P99_MS:.0f} ms")
    if math.isnan(r["pace"]) or r["pace"] < LIMIT_PACE:
        why.append(f"pace {100 * r['pace']:.1f} % < {100 * LIMIT_PACE:.0f} %")
    if r["errors"]:
        why.append(f"{sum(r['errors'].values())} error(s)")
    return not why, "; ".join(why)


def report(r: dict[str, Any]) -> list[str]:
    """Every figure of one run, one per line."""
    def ms3(values: list[float]) -> str:
        return " / ".join(f"{v:.1f}" for v in values)

    s, ss = r["sockets"], r["server_sockets"]
    cpu = dict(r["cpu"])
    seconds = cpu.pop("seconds")
    busy = sum(v for k, v in cpu.items() if k != "clients")
    hands = max(r["server_hands"], 1) if not math.isnan(r["server_hands"]) else math.nan
    load = " ".join(f"{x:.2f}" for x in r["load"])
    return [
        f"== {r['mode']}: {r['tables']} tables, {r['servers']} table + {r['pages']} page "
        f"daphnes, {r['seconds']:g} s measured (load average {load})",
        f"tables: {r['tables']}",
        f"sockets: {s.get('player', 0)} player, {s.get('spectator', 0)} spectator = "
        f"{sum(s.values())} (server counts: {ss.get('table', 0):.0f} table)",
        f"lobby pages: {r['lobby_pages']}, each polling its list every "
        f"{LOBBY_REFRESH_SECONDS:g} s; poll p50/p95/p99 ms: {ms3(r['lobby_polls'])}",
        f"hands/hour/table: achieved {r['hands_per_hour']:.1f} ({r['hands']} hands started), "
        f"intended {r['intended_per_hour']:.1f}: pace {100 * r['pace']:.1f} % (the players' "
        f"and the pause's share of the tables' time)",
        f"actions/s: {r['actions_per_s']:.1f} ({r['timeouts']} timeouts)",
        f"action -> every socket p50/p95/p99 ms: {ms3(r['latency'])} "
        f"({r['latency_samples']} samples); of which the server's act (arrival -> step "
        f"committed) p50/p99 <= {1000 * r['server_act'][0]:.0f} / "
        f"{1000 * r['server_act'][1]:.0f} ms (room_act_seconds), its wait for a database "
        f"thread p50/p99 <= {1000 * r['server_act_wait'][0]:.0f} / "
        f"{1000 * r['server_act_wait'][1]:.0f} ms; the daphnes' event-loop lag p50/p99 <= "
        f"{1000 * r['server_loop_lag'][0]:.0f} / {1000 * r['server_loop_lag'][1]:.0f} ms; the "
        f"clients' own event-loop lag p50/p99 {r['client_lag'][0]:.1f} / "
        f"{r['client_lag'][1]:.1f} ms",
        f"hand end -> next deal p50/p95/p99 ms: {ms3(r['next_deal'])} against the "
        f"{r['pause']:g} s pause ({r['next_deal_samples']} samples)",
        f"timer lateness p99 ms: {r['lateness_p99_ms']:.1f} client-observed "
        f"({r['lateness_samples']} samples); server histogram p99 <= "
        f"{1000 * r['server_lateness_p99']:.0f} ms ({r['server_timeouts']:.0f} timeouts)",
        f"CPU over {seconds:.1f} s: servers {busy / seconds:.2f} of {os.cpu_count()} cores; "
        + ", ".join(f"{k} {100 * v / seconds:.1f} %" for k, v in cpu.items()),
        f"PostgreSQL connections: {r['pg_connections'][0]} max, {r['pg_connections'][1]} at end",
        f"snapshots per hand: {r['snapshots'] / hands:.3f} ({r['snapshots']:.0f} snapshots, "
        f"{r['server_hands']:.0f} hands, {r['resyncs']:.0f} resyncs; room_snapshots_total)",
        f"trickle: {r['trickle']}, {r['reconnects']} reconnects, {r['lobby_refreshes']} lobby "
        f"refreshes, {sum(r['races'].values())} races {r['races'] or ''}; all seated after {r['seated_after']:.1f} s, all left {r['left_after']:.1f} s after the window",
        f"errors: {r['errors'] or 'none'}",
    ]


# Main -------------------------------------------------------------------------------------
def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--mode", choices=("routed", "spread"), default="routed")
    p.add_argument("--servers", type=int, default=2, help="daphne processes for table sockets")
    p.add_argument("--pages", type=int, default=1,
                   help="daphne processes for the rest: pages, the lobby's polls (as the "
                        "launcher's --pages; 0: the table daphnes serve them too)")
    p.add_argument("--concurrency", type=int, default=None,
                   help="Celery worker processes (default: the Procfile's)")
    p.add_argument("--clients", type=int, default=1, help="client processes")
    p.add_argument("--seconds", type=float, default=60.0, help="measured window")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--arrivals", type=float, default=2.0,
                   help="tables whose players arrive per second, until all are seated")
    p.add_argument("--grace", type=float, default=90.0,
                   help="for the bots to leave (a hand with a turn left to the timer lasts)")
    p.add_argument("--find-capacity", action="store_true")
    p.add_argument("--step", type=int, default=20)
    p.add_argument("--max-tables", type=int, default=200)
    p.add_argument("--think-median", type=float, default=2.0)
    p.add_argument("--think-sigma", type=float, default=0.6)
    p.add_argument("--think-cap", type=float, default=None,
                   help="longest think (default: 90 %% of the table's quiet time)")
    p.add_argument("--timeout-rate", type=float, default=0.02)
    p.add_argument("--chat-seconds", type=float, default=30.0, help="per table")
    p.add_argument("--reconnect-seconds", type=float, default=600.0, help="per socket")
    p.add_argument("--top-up-seconds", type=float, default=600.0, help="per player")
    p.add_argument("--leave-seconds", type=float, default=1200.0, help="per player")
    p.add_argument("--timers", type=int, nargs=2, metavar=("ACTION", "COUNTDOWN"),
                   help="override the default timers (the test's short run)")
    p.add_argument("--server", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER),
                   help="a PostgreSQL URL; only its server is used")
    p.add_argument("--database", default=f"capacity_{os.getpid()}",
                   help="throwaway database (created, then dropped)")
    p.add_argument("--use-database", metavar="URL",
                   help="an existing migrated database (nothing created or dropped)")
    p.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    tag = uuid.uuid4().hex[:8]
    if args.use_database:
        db_url = args.use_database
        args.server, args.database = db_url, db_url.rsplit("/", 1)[1].split("?")[0]
    else:
        db_url = url_with_database(args.server, args.database)
    var = Path(tempfile.mkdtemp(prefix="capacity-"))
    (var / "prometheus").mkdir()
    env = {**os.environ, "DATABASE_URL": db_url, "REDIS_URL": args.redis,
           "ROOM_NAMESPACE": f"cap{tag}", "CELERY_QUEUE": f"cap-{tag}",
           "CHANNEL_LAYER_PREFIX": f"cap{tag}", "DJANGO_SETTINGS_MODULE": "pokerroom.settings",
           "LOG_LEVEL": "WARNING", "METRICS_TOKEN": secrets.token_hex(16),
           "PROMETHEUS_MULTIPROC_DIR": str(var / "prometheus"),
           "CSRF_TRUSTED_ORIGINS": "http://127.0.0.1"}
    for test_only in ("PYTEST_XDIST_WORKER", "ROOM_LOBBY_FRESH_SECONDS"):  # the room's defaults
        env.pop(test_only, None)
    os.environ.update({k: v for k, v in env.items() if k != "PROMETHEUS_MULTIPROC_DIR"})
    if not args.use_database:
        admin_sql(args.server, f'CREATE DATABASE "{args.database}"')
    room = Room(var=var, env=env)
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        if not args.use_database:
            call_command("migrate", verbosity=0)
        defaults = table_defaults()
        timers = tuple(args.timers) if args.timers else (defaults["action_seconds"],
                                                         defaults["countdown_seconds"])
        args.defaults = {"pause": defaults["hand_pause_seconds"], "timer": sum(timers)}
        args.entropy = {}  # user → {commitment: value}: the players' browser storage
        if args.think_cap is None:
            args.think_cap = 0.9 * timers[0]

        def room_for(tables: int) -> tuple[list[int], list[tuple[int, str, str]]]:
            """Tables and accounts made as steps need them: the lobby lists only the tables
            in play."""
            made = (tables_make(tables, timers=tuple(args.timers) if args.timers else None),
                    accounts_make(tables * (SEATS + NEWCOMERS_PER_TABLE + 1)))
            connections.close_all()
            return made

        concurrency = args.concurrency or int(option_value(procfile_command("worker"),
                                                           "--concurrency", "2"))
        print(f"room: {args.servers} table daphne and {args.pages} page daphne behind nginx, "
              f"Celery worker (prefork, concurrency "
              f"{concurrency}) and beat, database {args.database}, Redis {args.redis}; tables: "
              f"6-max NL 1/2, pause {args.defaults['pause']} s, timers {timers[0]}+{timers[1]} s "
              f"({defaults['timeout_policy']}); players: think log-normal median "
              f"{args.think_median:g} s capped at {args.think_cap:g} s, {100 * args.timeout_rate:g} "
              f"% of turns timed out, {args.arrivals:g} tables arriving a second; "
              f"{os.cpu_count()} cores", flush=True)
        found = {}
        for mode in ("routed", "spread") if args.find_capacity else (args.mode,):
            if found:  # each mode gets a room of its own: none of the last one's load
                room = room_renew(room, args)
            room_start(room, servers=args.servers, pages=args.pages, concurrency=concurrency,
                       tag=tag)
            args.pg_pids = postgres_pids(args.server, args.database)
            args.redis_pids = redis_pids(args.redis)
            args.pg_connections = pg_connections(args.server, args.database)
            nginx_start(room, mode)
            found[mode] = 0
            steps = (range(args.tables, args.max_tables + 1, args.step) if args.find_capacity
                     else (args.tables,))
            for tables in steps:
                table_ids, accounts = room_for(tables)
                result = run_step(room, args, tables=tables, accounts=accounts,
                                  table_ids=table_ids)
                print("\n".join(report(result)), flush=True)
                ok, why = held(result)
                print(f"held: {'yes' if ok else 'no: ' + why}", flush=True)
                if not ok:
                    break
                found[mode] = tables
            if args.find_capacity:
                print(f"{mode}: largest held {found[mode]} tables", flush=True)
        if not args.find_capacity:
            return 0
        print(f"capacity: routed {found['routed']} tables, spread {found['spread']} tables",
              flush=True)
        return 0
    finally:
        for process in room.all():
            stop_process(process)
        from django.db import connections as conns

        conns.close_all()
        if not args.use_database:
            admin_sql(args.server, f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
        redis_clear(args.redis, env)


def room_renew(room: Room, args: argparse.Namespace) -> Room:
    """The room stopped and made again: its processes, its keys in Redis and, unless the run
    uses an existing database (the test), its database (dropped, created, migrated; the
    players' browser storage with it). The spread search does not inherit the routed one's
    rows, queues or processes."""
    from django.core.management import call_command
    from django.db import connections

    for process in room.all():
        stop_process(process)
    redis_clear(args.redis, room.env)
    if not args.use_database:
        connections.close_all()
        connections["default"].close_pool()  # its connections die with the database
        admin_sql(args.server, f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
        admin_sql(args.server, f'CREATE DATABASE "{args.database}"')
        call_command("migrate", verbosity=0)
        connections.close_all()
        args.entropy = {}
    metrics = Path(room.env["PROMETHEUS_MULTIPROC_DIR"])
    for old in metrics.glob("*.db"):
        old.unlink()
    return Room(var=room.var, env=room.env)


def redis_clear(url: str, env: dict[str, str]) -> None:
    """Every key of the room's namespaces (`env`, as its processes got it): its Celery queues
    and their bindings, channel groups, caches."""
    import redis

    client = redis.Redis.from_url(url)
    queue = env["CELERY_QUEUE"]
    prefixes = {env["ROOM_NAMESPACE"], env["CHANNEL_LAYER_PREFIX"], queue}
    for pattern in (*(f"{prefix}*" for prefix in prefixes), f"_kombu.binding*.{queue}*"):
        keys = list(client.scan_iter(match=pattern, count=1000))
        for at in range(0, len(keys), 1000):
            client.delete(*keys[at:at + 1000])


def option_value(args: list[str], name: str, default: str) -> str:
    return args[args.index(name) + 1] if name in args else default


if __name__ == "__main__":
    sys.exit(main())
