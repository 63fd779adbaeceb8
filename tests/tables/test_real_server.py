"""Limits a real daphne process keeps: database connections stay bounded under HTTP load, a
WebSocket frame above the server's maximum closes the socket cleanly with a reason, and what
the server sends is not held to the clients' limit."""
from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
from django.db import connection

from pokerroom.processes import WS_MAX_MESSAGE_BYTES
from tests.tables.realroom import daphne

pytestmark = pytest.mark.django_db(transaction=True)
POOL_MAX = 6
APP_NAME = f"daphne-under-test-{os.getpid()}"


def status_of(url: str) -> int:
    try:
        with urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except HTTPError as e:
        return e.code


def connections_held() -> int:
    """Sessions the daphne process holds (libpq names them after PGAPPNAME)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                       [APP_NAME])
        return cursor.fetchone()[0]


@pytest.mark.postgres  # SQLite has no connections to run out of
def test_http_load_keeps_database_connections_within_the_pool(make_table):
    tables = [make_table(name=f"Table {n}") for n in range(3)]
    pages = ["/", "/?structure=NL", *[f"/tables/{t.pk}/" for t in tables]]
    with daphne(ROOM_DB_POOL_MAX=str(POOL_MAX), ROOM_DB_POOL_MIN="1", PGAPPNAME=APP_NAME) as url:
        urls = [url + pages[n % len(pages)] for n in range(320)]
        with ThreadPoolExecutor(max_workers=20) as clients:
            statuses = list(clients.map(status_of, urls))
        held = connections_held()
    assert [s for s in statuses if s >= 500] == []
    assert statuses.count(200) == len(urls)
    assert 1 <= held <= POOL_MAX


def test_a_message_above_the_servers_maximum_closes_the_socket_with_a_reason(make_table):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    table = make_table()
    with daphne() as url:
        ws_url = url.replace("http", "ws") + f"/ws/tables/{table.pk}/"
        with connect(ws_url, origin=url, max_size=None) as ws:
            assert '"snapshot"' in ws.recv(timeout=10)
            ws.send('{"type": "ping", "pad": "' + "x" * WS_MAX_MESSAGE_BYTES + '"}')
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
    assert closed.value.rcvd.code == 1009  # message too big
    assert closed.value.rcvd.reason  # says why


def test_a_lobby_list_larger_than_a_clients_frame_limit_still_arrives(make_table):
    """autobahn holds what the server sends to its message limit too: with that limit at the
    clients' 16 KB, a lobby of a hundred tables (about 20 KB) was never sent."""
    from websockets.sync.client import connect

    for n in range(100):
        make_table(name=f"A table with a long enough name to fill the lobby {n:03}")
    with daphne() as url, connect(url.replace("http", "ws") + "/ws/lobby/", origin=url,
                                  max_size=None) as ws:
        frame = ws.recv(timeout=10)
    assert len(frame) > WS_MAX_MESSAGE_BYTES
    assert json.loads(frame)["type"] == "lobby"
    assert len(json.loads(frame)["tables"]) == 100
