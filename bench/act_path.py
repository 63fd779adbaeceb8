"""The database side of an action, without sockets: CPU and SQL per action through the services.

Plays `--hands` hands on `--tables` 6-max no-limit tables by calling the services directly
(`hand_start`, `act`, and `seat_top_up` for a bust, as the load benchmark's bots do), on a
throwaway PostgreSQL database, in one process and one connection. It prints, per action
(hand starts, settlements and top-ups included, amortised over the actions):

* SQL statements sent through Django (an execute wrapper: BEGIN, COMMIT and health checks
  are not counted; savepoints are);
* Python CPU of this process in the service calls (`time.process_time`);
* CPU of the PostgreSQL backend serving the services (user + system, from /proc; what the
  clients read to choose their moves goes through a second connection and is not counted);
* and, as the reference measured in the same run, the pure engine's CPU for the same actions
  (`apply_action` and the JSON round trip of the state), so `ratio` = service / engine.

No network fan-out is involved: that is bench/ws_load.py's job. This one is steady enough
(a few percent between runs) to compare two versions of the services.

    .venv/bin/python bench/act_path.py [--hands 600] [--tables 6] [--server postgres://...]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from ws_load import DEFAULT_SERVER, admin_sql, make_tables, url_with_database  # noqa: E402


def backend_cpu(pid: int) -> float:
    """User + system CPU seconds of one PostgreSQL backend (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(table_ids: list[int], hands: int, rng: random.Random, look: Any) -> dict[str, float]:
    """`look`: a second connection, for what the clients know (outside the measurement)."""
    from django.db import connection

    from bots.client import choose_action
    from tables import services
    from tables.engine import HandState, apply_action, legal_actions

    count = [0]
    statements: list[str] = []

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count[0] += 1
        statements.append(sql)
        return execute(sql, params, many, context)

    per_call: dict[str, list[int]] = {"mid-hand action": [], "hand-ending action": [],
                                      "hand start": [], "top-up": []}
    cpu_of: dict[str, float] = dict.fromkeys(per_call, 0.0)
    examples: dict[str, list[str]] = {}

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    actions = played = 0
    engine_seconds = cpu = 0.0
    pg_before = backend_cpu(backend)
    with connection.execute_wrapper(counted):
        while played < hands:
            for table_id in table_ids:
                version, state_json = look.execute(
                    "SELECT ts.version, h.state FROM tables_tablestate ts LEFT JOIN tables_hand h "
                    "ON h.id = ts.hand_id AND h.finished_at IS NULL WHERE ts.table_id = %s",
                    [table_id]).fetchone()
                if state_json is not None:
                    state = HandState.from_json(state_json)
                    move = choose_action(legal_actions(state).to_json(), rng)
                    action = move.get("action", move["type"])
                    started = time.process_time()  # the reference: the engine alone
                    copy = HandState.from_json(state.to_json())
                    apply_action(copy, state.to_act_seat, action, move.get("amount"))
                    copy.to_json()
                    engine_seconds += time.process_time() - started
                    started, before = time.process_time(), count[0]
                    statements.clear()
                    events = services.act(
                        table_id=table_id, user_id=int(state.players[state.to_act].player_id),
                        action=action, amount=move.get("amount"), expected_version=version)
                    spent = time.process_time() - started
                    cpu += spent
                    kind = ("hand-ending action" if any(e["event"]["type"] == "hand_end"
                                                        for e in events) else "mid-hand action")
                    per_call[kind].append(count[0] - before)
                    cpu_of[kind] += spent
                    examples.setdefault(kind, list(statements))
                    actions += 1
                    continue
                low = [row[0] for row in look.execute(
                    "SELECT player_id FROM tables_seat WHERE table_id = %s AND chips < 4",
                    [table_id])]
                for player_id in low:  # busted: buy the table's minimum again
                    started, before = time.process_time(), count[0]
                    statements.clear()
                    services.seat_top_up(table_id=table_id, user_id=player_id, amount=80,
                                         idempotency_key=uuid.uuid4().hex)
                    spent = time.process_time() - started
                    cpu += spent
                    cpu_of["top-up"] += spent
                    per_call["top-up"].append(count[0] - before)
                    examples.setdefault("top-up", list(statements))
                started, before = time.process_time(), count[0]
                statements.clear()
                services.hand_start(table_id=table_id, force=True)
                spent = time.process_time() - started
                cpu += spent
                cpu_of["hand start"] += spent
                per_call["hand start"].append(count[0] - before)
                examples.setdefault("hand start", list(statements))
                played += 1
    pg = backend_cpu(backend) - pg_before
    return {"actions": actions, "hands": played, "statements": count[0] / actions,
            "cpu_ms": 1000 * cpu / actions, "pg_ms": 1000 * pg / actions,
            "engine_ms": 1000 * engine_seconds / actions, "per_call": per_call,
            "cpu_of": cpu_of,
            "examples": examples}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--server", default=DEFAULT_SERVER, help="a PostgreSQL URL")
    parser.add_argument("--rake", type=int, default=0, metavar="PERCENT",
                        help="raked tables (no flop, no drop): settlements post the rake")
    parser.add_argument("--show-sql", action="store_true",
                        help="print the statements of the first call of each kind")
    args = parser.parse_args()
    name = f"act_bench_{os.getpid()}"
    os.environ.update({"DATABASE_URL": url_with_database(args.server, name),
                       "DJANGO_SETTINGS_MODULE": "pokerroom.settings", "LOG_LEVEL": "WARNING"})
    admin_sql(args.server, f'CREATE DATABASE "{name}"')
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        from bots.client import bot_accounts
        from tables import scheduling, services
        from tables.services import effects as log

        scheduling.timeout_schedule = lambda **kw: None  # no Celery here: nothing is queued
        scheduling.hand_start_schedule = lambda **kw: None
        log.events_broadcast = lambda **kw: None  # no sockets: the broadcast is ws_load's part
        call_command("migrate", verbosity=0)
        table_ids = make_tables(args.tables, prefix="Act", rake_percent=args.rake)
        users = iter(bot_accounts(6 * args.tables, prefix="actbot"))
        for table_id in table_ids:
            for seat in range(1, 7):
                services.seat_take(table_id=table_id, user=next(users), number=seat, amount=200,
                                   idempotency_key=uuid.uuid4().hex)
        import psycopg

        dsn = url_with_database(args.server, name).replace("postgres://", "postgresql://", 1)
        with psycopg.connect(dsn, autocommit=True) as look:
            play(table_ids, 30, random.Random(0), look)  # warm up: caches, prepared statements
            r = play(table_ids, args.hands, random.Random(1), look)
        connections.close_all()
    finally:
        admin_sql(args.server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"{r['hands']} hands, {r['actions']} actions on {args.tables} tables "
          f"({r['actions'] / r['hands']:.1f} actions per hand); per action, hand starts, "
          f"settlements and top-ups included:")
    print(f"  SQL statements {r['statements']:.2f}   Python CPU {r['cpu_ms']:.3f} ms   "
          f"PostgreSQL CPU {r['pg_ms']:.3f} ms   total {r['cpu_ms'] + r['pg_ms']:.3f} ms")
    for kind, counts in r["per_call"].items():
        if counts:
            print(f"  {kind}: {len(counts)} calls, SQL statements mean "
                  f"{sum(counts) / len(counts):.2f}, max {max(counts)}; Python CPU "
                  f"{1000 * r['cpu_of'][kind] / len(counts):.2f} ms per call")
            if args.show_sql:
                for sql in r["examples"][kind]:
                    print(f"      {' '.join(sql.split())[:160]}")
    print(f"  reference, the engine alone (apply + JSON round trip): {r['engine_ms']:.3f} ms;  "
          f"ratio services/engine {(r['cpu_ms'] + r['pg_ms']) / r['engine_ms']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
