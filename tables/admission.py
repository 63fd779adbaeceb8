"""Which anonymous WebSockets a server process admits, and what a socket's requests cost.

Anyone may watch the lobby and the tables without logging in, so nothing but these caps bounds
how many sockets one visitor holds open: at most ROOM_WS_ANONYMOUS_PER_ADDRESS from one address
(pokerroom/addresses.py: an IPv6 client by its /64) and ROOM_WS_ANONYMOUS_MAX in all, per daphne
process. Per process on purpose: what they protect is the process's own memory, file
descriptors and event loop, and a count kept in the process cannot outlive it (a shared count
in Redis would leak the sockets of a process that died). Logged-in players are not counted:
they are known, and their sign-ups are throttled (accounts/throttle.py).

Rate tokens: every message costs one token of the socket's bucket (consumers.TokenBucket), a
`too_large` one too. Requests that read more cost in proportion (`hello_cost`, SNAPSHOT_TOKENS),
charged before anything is read, so a refused one reads and sends nothing.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

from django.conf import settings

from pokerroom.addresses import client_network
from tables.snapshots import RESYNC_LIMIT

SNAPSHOT_TOKENS = 5  # a snapshot (or the lobby's table list): a read of several tables' rows
EVENTS_PER_TOKEN = 50  # a hello's catch-up: 1 token, and 1 more per 50 events it sends
REFUSED_CLOSE_CODE = 4429  # after the error frame; like HTTP 429


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class AnonymousSockets:
    """The anonymous sockets open in this process, by network. Used from the event loop only."""

    def __init__(self) -> None:
        self.by_network: Counter[str] = Counter()
        self.total = 0

    def admit(self, client: Any) -> str:
        """Count in a socket from `client` (the ASGI scope's ["host", port]); its network, to
        hand back to `release`. Raises Refused over either cap, counting nothing."""
        network = client_network(client[0] if client else None)
        per_address = settings.ROOM_WS_ANONYMOUS_PER_ADDRESS
        if self.by_network[network] >= per_address:
            raise Refused("too_many_sockets", (
                f"Too many connections from your network by visitors who are not logged in "
                f"(at most {per_address} at once). Close other room tabs, or log in."))
        if self.total >= settings.ROOM_WS_ANONYMOUS_MAX:
            raise Refused("server_busy", (
                "This server is watched by as many visitors who are not logged in as it takes. "
                "Log in to watch, or try again in a minute."))
        self.by_network[network] += 1
        self.total += 1
        return network

    def release(self, network: str) -> None:
        self.by_network[network] -= 1
        if self.by_network[network] <= 0:
            del self.by_network[network]
        self.total -= 1


ANONYMOUS = AnonymousSockets()


def hello_cost(*, last_version: int, current: int | None) -> int:
    """Tokens for a `hello` from `last_version` on a socket that has delivered `current`: the
    events it will read, or a snapshot's cost when it will read a snapshot instead (a version
    too old or from the future, tables/snapshots.events_since)."""
    if current is None:
        return SNAPSHOT_TOKENS
    behind = current - last_version
    if last_version < 0 or behind < 0 or behind > RESYNC_LIMIT:
        return SNAPSHOT_TOKENS
    return 1 + math.ceil(behind / EVENTS_PER_TOKEN)
