"""bench/ws_load.py's floor: the bare server's reference must not be the bots' own send
throttle. (With it, 600 connections capped the floor at 4,800 actions/s, and the floor
measured 4,727: the client's cap, read as the server's.)"""
from __future__ import annotations

import argparse
import subprocess
import sys

from bench import ws_load
from pokerroom.processes import free_port, stop_process, wait_for_port


def test_the_floor_goes_past_the_bots_send_throttle() -> None:
    port = free_port()
    server = subprocess.Popen([sys.executable, ws_load.__file__, "--floor-server", str(port)],
                              cwd=ws_load.REPO)
    try:
        wait_for_port(port)
        url = f"http://127.0.0.1:{port}"
        tables = [{"id": table, "urls": [url, url],
                   "bots": [(uid, f"b{uid}", f"sessionid=floor-{uid}") for uid in (2 * table,
                                                                                    2 * table + 1)]}
                  for table in (1, 2)]
        args = argparse.Namespace(rate=0.0, clients=1, warmup=0.5, seconds=2.0)
        floor = ws_load.run_clients(tables, args, {"servers": lambda: [server.pid]},
                                    paced=False, throttled=False)
    finally:
        stop_process(server)

    throttled_cap = ws_load.client_cap(tables, throttled=True)
    assert throttled_cap == 4 * 8  # four sockets, 8 messages a second each
    assert floor["cap"] == float("inf")
    assert not floor["errors"]
    # Two sockets per table take turns over localhost: hundreds of actions a second unthrottled,
    # at most 32 with the throttle.
    assert floor["actions_per_s"] > 3 * throttled_cap
    assert not ws_load.at_cap(floor)
