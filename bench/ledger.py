"""Ledger throughput on PostgreSQL: wallet-to-wallet transfers per second, 1 and 8 workers.

How it measures:
* creates a throwaway database (``--database``, default ``cashier_bench_<pid>``) on the
  PostgreSQL server given by ``--server`` (default: $BENCH_DATABASE_URL, else
  postgres://postgres@127.0.0.1:5432/postgres), runs the migrations (so the zero-sum and
  append-only triggers are in place), and drops it at the end — it never touches the dev or
  test database;
* opens ``--accounts`` players (default 100), each funded with a $10,000 sandbox deposit;
* for each worker count, starts that many worker *processes* (so Python's GIL does not
  serialise them) that call the real service ``cashier.services.ledger_transfer`` in a loop for
  ``--seconds`` (default 5) between two random wallets, amount 1 to 100 cents, each with a fresh
  idempotency key: one database transaction with the idempotency insert, two account row locks
  in id order, one transaction row, two entries, two balance updates and the deferred zero-sum
  check at commit;
* the workers are *spawned*, not forked: this process has used the database, and a forked
  child would inherit Django's connection pool with its open sockets, so two processes would
  talk over one PostgreSQL connection (a child was once left "idle in transaction" for minutes
  and the parent then failed with "can't change 'autocommit' now"). Each worker sets Django up
  and opens a pool of its own; all start measuring together, once every one is ready;
* reports committed transfers / seconds of the common window, the per-transfer latency (p50,
  p99), and then runs the full ledger audit (``cashier.audit.ledger_audit``) over everything
  written.

Run: ``.venv/bin/python bench/ledger.py`` (under a minute: the migrations, then each run's
workers setting Django up), ``--seconds 2`` for a quick look.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import statistics
import sys
import time
import uuid
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
READY_SECONDS = 120.0  # for every worker to set Django up (spawned: a fresh interpreter each)


def _url_with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _admin(server: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(_url_with_database(server, "postgres").replace(
            "postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(sql)


def _worker(seconds: float, wallet_ids: list[int], seed: int, ready: Barrier,
            results: multiprocessing.Queue) -> None:
    """One spawned worker: Django set up afresh on $DATABASE_URL (inherited from the parent's
    environment), so its connection pool and sockets are its own."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    import django

    django.setup()
    from django.db import connection

    from cashier.models import LedgerAccount
    from cashier.services import CashierError, ledger_transfer

    rng = random.Random(seed)
    wallets = {a.pk: a for a in LedgerAccount.objects.filter(pk__in=wallet_ids)}
    latencies: list[float] = []
    refused = 0
    ready.wait(READY_SECONDS)  # the window starts when every worker has set up
    started = time.monotonic()  # system-wide on Linux: comparable across the workers
    deadline = started + seconds
    while time.monotonic() < deadline:
        source, destination = rng.sample(wallet_ids, 2)
        began = time.perf_counter()
        try:
            ledger_transfer(source=wallets[source], destination=wallets[destination],
                            amount=rng.randint(1, 100), idempotency_key=str(uuid.uuid4()))
        except CashierError:
            refused += 1
            continue
        latencies.append(time.perf_counter() - began)
    ended = time.monotonic()
    connection.close()
    results.put((latencies, refused, started, ended))


def _gather(processes: list[Any], results: multiprocessing.Queue, timeout: float) -> list[Any]:
    """Every worker's result; raises (and stops the others) as soon as one worker died or the
    time is up, instead of waiting for ever on a result that will not come."""
    gathered: list[Any] = []
    give_up = time.monotonic() + timeout
    while len(gathered) < len(processes):
        try:
            gathered.append(results.get(timeout=0.5))
            continue
        except queue.Empty:
            pass
        died = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
        if died or time.monotonic() > give_up:
            for process in processes:
                process.terminate()
            raise RuntimeError(f"ledger workers failed (exit codes {died})" if died else
                               f"ledger workers gave no result within {timeout:g} s")
    return gathered


def _run(workers: int, seconds: float, wallet_ids: list[int]) -> dict[str, float]:
    """`workers` spawned processes transferring for `seconds` over one common window."""
    context = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue = context.Queue()
    ready = context.Barrier(workers)
    processes = [context.Process(target=_worker,
                                 args=(seconds, wallet_ids, seed, ready, results))
                 for seed in range(workers)]
    for process in processes:
        process.start()
    gathered = _gather(processes, results, READY_SECONDS + seconds + 60)
    for process in processes:
        process.join()
    elapsed = max(end for *_, end in gathered) - min(start for *_, start, _ in gathered)
    latencies = sorted(x for lat, *_ in gathered for x in lat)
    return {
        "transfers": len(latencies),
        "refused": sum(refused for _, refused, *_ in gathered),
        "seconds": elapsed,
        "per_second": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else 0.0,
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99) - 1] if latencies else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER),
                        help="a PostgreSQL URL; only its server is used")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--accounts", type=int, default=100)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--database", default=f"cashier_bench_{os.getpid()}",
                        help="name of the throwaway database (created, then dropped)")
    args = parser.parse_args()
    if not args.server.startswith(("postgres://", "postgresql://")):
        parser.error("the ledger benchmark needs PostgreSQL")

    name = args.database
    _admin(args.server, f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = _url_with_database(args.server, name)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connections

        from cashier.audit import ledger_audit
        from cashier.money import Currency
        from cashier.services import deposit, wallet_account

        call_command("migrate", verbosity=0)
        print(f"database: throwaway {name} (dropped at the end)")
        users = get_user_model().objects.bulk_create(
            [get_user_model()(username=f"bench{i}") for i in range(args.accounts)]
        )
        for user in users:
            deposit(user=user, amount=1_000_000, provider="sandbox",
                    card_number="4242424242424242", idempotency_key=str(uuid.uuid4()))
        wallet_ids = [wallet_account(user=u, currency=Currency.REAL).pk for u in users]
        print(f"{args.accounts} funded wallets; each run lasts {args.seconds:g} s; "
              f"transfers of 1-100 cents between random wallets via ledger_transfer\n")

        figures = {}
        for workers in args.workers:
            figures[workers] = result = _run(workers, args.seconds, wallet_ids)
            print(f"workers={workers:>2}: {result['transfers']:>7,} transfers in "
                  f"{result['seconds']:.1f} s = {result['per_second']:>8,.0f}/s   "
                  f"p50 {result['p50_ms']:.2f} ms  p99 {result['p99_ms']:.2f} ms  "
                  f"refused {result['refused']}")
        if len(figures) > 1:
            low, high = min(figures), max(figures)
            print(f"scaling {low}→{high} workers: "
                  f"x{figures[high]['per_second'] / figures[low]['per_second']:.2f}")

        report = ledger_audit()
        print()
        print(report.summary())
        connections.close_all()
        return 0 if report.ok else 1
    finally:
        _admin(args.server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
