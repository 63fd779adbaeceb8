"""Small helpers for starting and stopping the room's processes (launcher, tests, benchmarks)."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable

# The largest WebSocket frame daphne accepts from a client (pages send each message as one
# frame); above it the server closes the socket with 1009 and a reason (the consumers answer
# `too_large` to anything over 4 KB below it). autobahn applies its message limit to what the
# server sends as well, so that one is larger: the lobby's table list and a resync's missed
# events outgrow 16 KB (200 tables: 39 KB), and a client's message split into frames still
# stops there. The Procfile passes the same options.
WS_MAX_MESSAGE_BYTES = int(os.environ.get("ROOM_WS_MAX_MESSAGE", "16384"))
WS_MAX_SENT_BYTES = int(os.environ.get("ROOM_WS_MAX_SENT", str(1024 * 1024)))


# Page daphnes (pokerroom/routed.py) run at this niceness: when the cores are busy the kernel
# serves the table daphnes first, so a lobby poll waits a few ms rather than an action
# (docs/benchmarks.md: routed 200, action p99 190 -> 113 ms; the polls' p99 472 -> 681 ms).
PAGE_NICENESS = 10


def daphne_command(python: str, *, host: str, port: int, proxy_headers: bool = False,
                   niceness: int = 0) -> list[str]:
    """daphne serving the room, as the Procfile starts it (tests and benchmarks). Behind
    nginx (`proxy_headers`) it takes the client's address and scheme from X-Forwarded-For and
    X-Forwarded-Proto: only where nothing but the proxy reaches it. `niceness`: started under
    coreutils' `nice`, which hands the process over (one process, as without it)."""
    return [*(["nice", "-n", str(niceness)] if niceness else []),
            python, "-m", "pokerroom.serve", "-b", host, "-p", str(port), "-v", "0",
            *(["--proxy-headers"] if proxy_headers else []),
            "--websocket-max-message-size", str(WS_MAX_SENT_BYTES),
            "--websocket-max-frame-size", str(WS_MAX_MESSAGE_BYTES),
            "pokerroom.asgi:application"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answered on port {port} within {timeout} s")


def wait_for_http(url: str, timeout: float = 30.0, *, process: subprocess.Popen | None = None,
                  log: Callable[[], str] = lambda: "") -> None:
    """Wait until `url` answers at all: an error page (a 503 health check) is an answer too.
    With `process` (the server), fail at once when it exits; `log()` (its log's end) goes
    into the error."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[:4]} exited ({process.returncode}) before {url} "
                               f"answered; its log ends:\n{log()}")
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s; its log ends:\n{log()}")


def stop_process(process: subprocess.Popen, timeout: float = 15.0) -> None:
    """SIGTERM, then SIGKILL if it does not stop in time; always reaps the child."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
