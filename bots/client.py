"""Bots that play over the real WebSocket protocol (docs/protocol.md), for demos, soak and load.

Each bot is a `User(is_bot=True)` with play money. It authenticates like a browser: a Django
session created in-process (the same database as the room) whose key travels as the
`sessionid` cookie, with an `Origin` the room accepts. It then sits, buys in and plays random
legal actions from the `legal` object of its own `turn` events, exactly as a client would.

Used by `python manage.py bots`, tests/tables/test_bots.py, bench/ws_load.py and
bench/capacity.py (which plays like people do through the hooks: `think_time`, `timeout_rate`,
`ping_seconds`, `watch_only`, `drop`).
"""
from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import random
import secrets
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tables.events import EVENTS

# Errors a correct client still meets: its view was a moment old (an event was in flight; an
# `entropy` for a deck dealt a moment before it arrived).
RACE_ERRORS = frozenset({"stale_version", "not_your_turn", "not_sitting_out", "entropy_refused"})
# The table client's requests follow the browser page's (static/js/table/): a snapshot only on
# connect, after a gap it cannot fill, or for an event type it does not know.
# Money-moving messages carry a client-made request id (docs/protocol.md): resent, they move
# money once.
MONEY_MESSAGES = frozenset({"sit", "top_up", "leave"})
SEND_RATE = 8.0  # messages per second per socket; the server allows 10 sustained
ThinkTime = Callable[[random.Random], float]  # seconds to wait before acting on a turn
Strategy = Callable[[dict[str, Any], random.Random], dict[str, Any]]  # legal → a message


# Accounts and sessions (synchronous Django) ------------------------------------------------
def bot_accounts(count: int, *, prefix: str = "bot") -> list[Any]:
    """Create or reuse `count` bot users (prefix1, prefix2, ...) with the play-money grant."""
    from django.contrib.auth import get_user_model

    from cashier.services import play_money_grant

    User = get_user_model()
    bots = []
    for n in range(1, count + 1):
        user, created = User.objects.get_or_create(
            username=f"{prefix}{n}",
            defaults={"email": f"{prefix}{n}@bots.invalid", "is_bot": True,
                      "date_of_birth": datetime.date(2000, 1, 1)},
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        play_money_grant(user=user)  # idempotent: once per player
        bots.append(user)
    return bots


def bot_wallet_refill(user: Any, *, at_least: int) -> None:
    """A bot low on play money takes the free reload (refusals ignored: it just sits out)."""
    import uuid

    from cashier.errors import CashierError
    from cashier.selectors import balances_for
    from cashier.services import play_money_reload

    if balances_for(user=user).get("PLAY", 0) < at_least:
        with contextlib.suppress(CashierError):
            play_money_reload(user=user, idempotency_key=f"bot-reload-{uuid.uuid4().hex}")


def session_cookie(user: Any) -> str:
    """A logged-in session for `user`, stored where the room reads it; returns the cookie
    header value. Equivalent to django.contrib.auth.login() without a request."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend

    # The first backend that can load a user (as the test client's force_login picks it): the
    # login throttle's backend comes first but loads nobody.
    backend = next(path for path in settings.AUTHENTICATION_BACKENDS
                   if hasattr(load_backend(path), "get_user"))
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = backend
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def ws_url(base: str, table_id: int) -> str:
    """http://host:port → ws://host:port/ws/tables/<id>/ (https → wss)."""
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws/tables/{table_id}/"


# Playing (asyncio) ---------------------------------------------------------------------------
@dataclass
class TableTally:
    """Hands finished at one table, and the seats its bots asked for, shared by the bots of
    one process sitting there (so two of them never ask for the same seat)."""

    target: int
    ended: set[int] = field(default_factory=set)
    claimed: dict[int, int] = field(default_factory=dict)  # seat → the bot's user id

    def seat_claim(self, *, user_id: int, want: int | None, free: list[int]) -> int | None:
        """A free seat no other bot of this process has asked for: `want` if possible."""
        mine = [n for n, uid in self.claimed.items() if uid == user_id]
        for n in mine:
            del self.claimed[n]
        open_ = [n for n in free if n not in self.claimed]
        if not open_:
            return None
        seat = want if want in open_ else open_[0]
        self.claimed[seat] = user_id
        return seat

    @property
    def done(self) -> bool:
        return self.target > 0 and len(self.ended) >= self.target


FIRST_CONNECT_SECONDS = 3.0  # how long a bot that never got in keeps trying


@dataclass
class BotResult:
    name: str
    seat: int | None = None  # where the bot sits now
    sat_at: int | None = None  # where it sat (kept after it left); None: it never got a seat
    hands: int = 0
    actions: int = 0
    bought_in: int = 0
    cashed_out: int = 0
    races: Counter[str] = field(default_factory=Counter)  # refused as out of date, by code
    reconnects: int = 0
    throttled: int = 0
    timeouts: int = 0  # turns the server acted on for us (then sat us out; we sat in again)
    let_go: int = 0  # turns left to time out on purpose (`timeout_rate`)
    snapshot_requests: int = 0  # as the browser: only for an event type it does not know
    errors: Counter[str] = field(default_factory=Counter)
    left: bool = False
    last_error: str = ""

    @property
    def net(self) -> int:
        return self.cashed_out - self.bought_in

    @property
    def where(self) -> str:
        """Where the bot is, for the summary: never seated, seated, or left."""
        if self.sat_at is None:
            return "never seated"
        return f"seat {self.sat_at}" + ("" if self.left else " (still seated)")


def choose_action(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action; mostly check/call so hands reach the flop and showdown."""
    if legal.get("show") or legal.get("muck"):
        return {"type": "show" if rng.random() < 0.5 else "muck"}
    roll = rng.random()
    if (legal.get("bet") or legal.get("raise")) and roll < 0.25:
        low, high = legal["min_to"], legal["max_to"]
        to = high if rng.random() < 0.1 else rng.randint(low, min(high, low * 3))
        return {"type": "act", "action": "bet" if legal.get("bet") else "raise", "amount": to}
    if legal.get("fold") and not legal.get("check") and roll > 0.85:
        return {"type": "act", "action": "fold"}
    return {"type": "act", "action": "check" if legal.get("check") else "call"}


class Bot:
    """One bot's socket: sit (or find its seat), play its turns, leave after the tally is done.

    Hooks for the benchmarks: `on_send(bot, message)` just before an `act` is sent and
    `on_event(bot, version, event)` for every event received. Playing like a person (all off
    by default): `choose(legal, rng)` the decision (instead of `choose_action`),
    `think_time(rng)` seconds before each decision (instead of `think` x 0.5-1.5),
    `timeout_rate` of turns left to the server's timer, a `ping` every `ping_seconds` as the
    browser's heartbeat, `watch_only` (a spectator: never sits), and `drop()` (the socket goes
    away; the bot reconnects with its last version, as the page does)."""

    def __init__(self, *, url: str, table_id: int, user_id: int, name: str, cookie: str,
                 seat: int, tally: TableTally, think: float = 0.5, buy_in: int | None = None,
                 rng: random.Random | None = None, reconnect_seconds: float = 30.0,
                 on_send: Callable[[Bot, dict[str, Any]], None] | None = None,
                 on_event: Callable[[Bot, int, dict[str, Any]], None] | None = None,
                 think_time: ThinkTime | None = None, timeout_rate: float = 0.0,
                 ping_seconds: float = 0.0, watch_only: bool = False,
                 choose: Strategy = choose_action, tournament: bool = False,
                 entropy: dict[str, str] | None = None) -> None:
        self.url, self.table_id, self.user_id, self.cookie = url, table_id, user_id, cookie
        self.want_seat, self.tally, self.think, self.buy_in = seat, tally, think, buy_in
        self.rng = rng or random.Random()
        self.reconnect_seconds = reconnect_seconds
        self.lost_at: float | None = None
        self.on_send, self.on_event = on_send, on_event
        self.think_time, self.timeout_rate = think_time, timeout_rate
        self.ping_seconds, self.watch_only, self.choose = ping_seconds, watch_only, choose
        # A tournament's table: the tournament seats the bot, it never tops up nor leaves; it
        # plays until its seat is taken away (busted, or the tournament is over).
        self.tournament = tournament
        self.letting_go = False  # this turn is left to the timer
        self.last_think = 0.0  # the wait before the last decision sent
        self.stack: int | None = None  # our chips, from the last `stacks` or `seat_taken`
        self.result = BotResult(name=name)
        self.version: int | None = None
        self.asked_from: int | None = None
        self.legal: dict[str, Any] | None = None
        self.in_flight = False
        self.leaving = False
        self.leave_wanted = False  # finish() was called: leave, on this socket or the next one
        self.leave_sent_on: Any = None  # the socket the last `leave` went out on
        self.topping_up = False
        self.seats_refused: set[int] = set()  # taken by someone else under our feet
        self.sit_asked: int | None = None
        self.sent_version: int | None = None
        self.next_send_at = 0.0
        # One sender at a time, in call order: the session task and finish() (another task) both
        # send, and a message waiting for its rate slot must not be overtaken (a `leave` ahead of
        # the `top_up` decided just before it frees the seat: the top-up is refused, `not_seated`).
        self.send_lock = asyncio.Lock()
        self.last_sent: str | None = None
        self.table: dict[str, Any] = {}
        self.stop = asyncio.Event()
        self.next_commitment: str | None = None  # the table's next deck (fair deal)
        # commitment → the entropy sent for it: the browser's localStorage (static/js/entropy.js),
        # which a player coming back to a table whose next deck he already answered still has
        self.entropy = {} if entropy is None else entropy

    @property
    def seat(self) -> int | None:
        return self.result.seat

    async def run(self) -> BotResult:
        """Play until the bot left (or was stopped). A dropped connection (a restarted server)
        is reopened with `?last_version=` for up to `reconnect_seconds`, like the web client."""
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        while True:
            try:
                await self.session()
                return self.result
            except (TimeoutError, ConnectionClosed, OSError, InvalidStatus) as e:
                if isinstance(e, InvalidStatus):  # the page retries it too, but it is an error
                    self.result.errors[f"handshake answered {e.response.status_code}"] += 1
                now = time.monotonic()
                self.lost_at = self.lost_at or now
                # Never connected: a wrong address, not a restart. Say so within seconds.
                patience = self.reconnect_seconds if self.version is not None else min(
                    self.reconnect_seconds, FIRST_CONNECT_SECONDS)
                if self.stop.is_set():
                    raise
                if now - self.lost_at > patience:
                    raise ConnectionError(f"no room answers at {ws_url(self.url, self.table_id)}"
                                          f" ({e or type(e).__name__})") from e
            # The last action may have died with the socket: decide again on the next news
            # (a copy that did land is refused as stale, like a second click in the browser).
            self.in_flight, self.sent_version = False, None
            self.result.reconnects += 1
            await asyncio.sleep(0.2)

    async def session(self) -> None:
        from websockets.asyncio.client import connect

        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.url))
        url = ws_url(self.url, self.table_id)
        if self.version is not None:
            url += f"?last_version={self.version}"
        async with connect(url, open_timeout=10, max_size=2**22,
                           additional_headers={"Cookie": self.cookie, "Origin": origin}) as ws:
            self.ws, self.lost_at = ws, None
            if self.leave_wanted and self.seat is not None and self.leave_sent_on is not ws:
                # finish() was called while the socket was down, or its leave may have been lost
                # with the old socket. The server answers only after its resync: a seat freed
                # meanwhile shows up as `seat_left` first, and the session ends on it.
                await self.send_leave()
            pinger = asyncio.create_task(self.heartbeat(ws)) if self.ping_seconds else None
            try:
                await self.maybe_act()  # back during our turn: the bar is still there, act again
                async for raw in ws:
                    await self.handle(json.loads(raw))
                    if self.result.left or self.stop.is_set():
                        return
                    await self.maybe_act()
            finally:
                if pinger is not None:
                    pinger.cancel()
        if self.stop.is_set():  # finish() closed it
            return
        raise ConnectionError("the server closed the connection")

    async def heartbeat(self, ws: Any) -> None:
        """`ping` every `ping_seconds` on this socket, as static/js/table/client.js does."""
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.sleep(self.ping_seconds)
                if self.ws is not ws:
                    return
                await self.send({"type": "ping"})

    async def drop(self) -> None:
        """Close the socket as a lost network would: `run` reconnects with `?last_version=`
        (the server answers with the missed events or a snapshot)."""
        ws = getattr(self, "ws", None)
        if ws is not None:
            await ws.close()

    async def send(self, message: dict[str, Any]) -> Any:
        """Send at most SEND_RATE messages a second: the server refuses faster clients
        (`rate_limited`, docs/protocol.md), and a bot acting at once can be that fast.

        Messages go out in the order `send` was called, whichever task calls it, on the socket
        that was current then (a message decided before a reconnect is not sent on the new
        socket: ConnectionClosed). Returns that socket."""
        ws = self.ws
        if message.get("type") in MONEY_MESSAGES and "request_id" not in message:
            message = {**message, "request_id": uuid.uuid4().hex}
        async with self.send_lock:
            wait = self.next_send_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.next_send_at = time.monotonic() + 1 / SEND_RATE
            self.last_sent = message.get("type")
            await ws.send(json.dumps(message))
        return ws

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            await self.on_snapshot(msg)
        elif kind == "events":
            for one in msg["events"]:
                await self.handle(one)
        elif kind == "event":
            if self.version is not None and msg["version"] <= self.version:
                return  # seen already
            if self.version is not None and msg["version"] > self.version + 1:
                if self.asked_from != self.version:  # a gap: ask once for what is missing
                    self.asked_from = self.version
                    await self.send({"type": "hello", "last_version": self.version})
                return
            self.version, self.asked_from = msg["version"], None
            if self.on_event is not None:
                self.on_event(self, msg["version"], msg["event"])
            if msg["event"].get("type") not in EVENTS:  # what the browser page does too
                self.result.snapshot_requests += 1
                await self.send({"type": "snapshot"})
            await self.on_table_event(msg["event"])
        elif kind == "error":
            self.in_flight = False
            code = msg.get("code", "?")
            if code == "rate_limited":  # nothing happened: slow down, then try again
                self.result.throttled += 1
                self.sent_version = None
                self.next_send_at = time.monotonic() + 1.0
                if self.last_sent == "leave":  # ask again on the next event
                    self.leaving = False
                elif self.last_sent == "sit" and self.seat is None:  # sit on a fresh view
                    self.sit_asked = None
                    await self.send({"type": "snapshot"})
            elif code == "seat_taken" and self.seat is None and self.sit_asked is not None:
                # Someone sat there first (a player, or a bot of another process): try
                # another free seat on a fresh view of the table.
                self.result.races[code] += 1
                self.seats_refused.add(self.sit_asked)
                self.sit_asked = None
                await self.send({"type": "snapshot"})
            elif code in RACE_ERRORS:
                self.result.races[code] += 1
                if code == "not_your_turn":
                    self.legal = None
            else:
                self.result.errors[code] += 1
                self.result.last_error = f"{code}: {msg.get('message', '')}"
                if self.leaving:  # the leave was refused: ask again after the next hand
                    self.leaving = False
                if code in ("insufficient_funds", "below_min_buy_in", "above_max_buy_in",
                            "table_full") and self.seat is None:
                    self.stop.set()

    async def contribute(self, commitment: str | None) -> None:
        """Seated, answer each new deck commitment once with 32 random bytes, as the browser
        does (static/js/entropy.js; docs/protocol.md, "Fair deal")."""
        if commitment:
            self.next_commitment = commitment
        deck = self.next_commitment
        if self.seat is not None and deck and deck not in self.entropy:
            value = self.entropy[deck] = secrets.token_hex(32)
            await self.send({"type": "entropy", "commitment": deck, "value": value})

    async def on_snapshot(self, snap: dict[str, Any]) -> None:
        self.version, self.table = snap["version"], snap["table"]
        you = snap.get("you") or {}
        self.legal = you.get("legal")
        if self.seat is None and you.get("seat"):
            self.result.seat = self.result.sat_at = you["seat"]
        await self.contribute(snap.get("next_commitment"))
        if self.watch_only:
            return
        if self.tournament and self.seat is None:  # busted while away, or not seated yet
            return
        if self.seat is None and not self.leaving and self.sit_asked is None:
            taken = {s["seat"] for s in snap["seats"]} | self.seats_refused
            free = [n for n in range(1, self.table["max_seats"] + 1) if n not in taken]
            seat = self.tally.seat_claim(user_id=self.user_id, want=self.want_seat, free=free)
            if seat is None:
                self.result.errors["table_full"] += 1
                self.result.last_error = "table_full: no free seat was left for this bot"
                self.stop.set()
                return
            self.sit_asked = seat
            amount = self.buy_in or self.table["max_buy_in"]
            await self.send({"type": "sit", "seat": seat, "amount": amount})

    async def on_table_event(self, event: dict[str, Any]) -> None:
        kind, seat = event.get("type"), event.get("seat")
        if event.get("next_commitment") or (kind == "seat_taken"
                                             and event.get("player_id") == self.user_id):
            if kind == "seat_taken" and event.get("player_id") == self.user_id:
                self.result.seat = self.result.sat_at = seat
            await self.contribute(event.get("next_commitment"))
        if kind == "seat_taken" and event.get("player_id") == self.user_id:
            self.sit_asked = None
            self.result.bought_in += event["stack"]
            self.stack = event["stack"]
        elif kind == "top_up" and seat == self.seat and self.seat is not None:
            self.result.bought_in += event["amount"]
        elif kind == "seat_left" and event.get("player_id") == self.user_id:
            self.result.cashed_out += event.get("cashed_out") or 0
            self.result.seat, self.result.left = None, True
        elif kind == "turn":
            self.in_flight = False
            self.legal = event.get("legal") if seat == self.seat else None
            self.letting_go = bool(self.legal and self.timeout_rate
                                   and not (self.legal.get("show") or self.legal.get("muck"))
                                   and self.rng.random() < self.timeout_rate)
            self.result.let_go += self.letting_go
        elif kind == "action" and seat == self.seat:
            self.legal, self.in_flight = None, False
        elif kind == "hand_start" and self.seat in (event.get("seats") or []):
            self.result.hands += 1
        elif kind == "hand_end":
            self.legal = None
            if event.get("hand_id") is not None:
                self.tally.ended.add(event["hand_id"])
        elif (kind == "stacks" and self.seat is not None and not self.leaving
              and not self.tournament):
            stack = (event.get("stacks") or {}).get(str(self.seat))
            self.stack = stack if stack is not None else self.stack
            low = stack is not None and stack < self.table.get("big_blind", 1) * 2
            if low and not self.topping_up:
                self.topping_up = True
                await self.send({"type": "top_up", "amount": self.table["min_buy_in"]})
            elif not low:
                self.topping_up = False
        elif (kind == "status" and seat == self.seat and event.get("status") == "sitting_out"
              and not self.leaving and not self.topping_up):
            # The server sat us out after acting for us (a slow turn): come straight back.
            # (A busted bot is sat out too; its pending top-up brings it back by itself.)
            self.result.timeouts += 1
            await self.send({"type": "sit_in"})
        done = (self.tally.done or self.leave_wanted) and not self.tournament
        if done and not self.leaving and self.seat is not None and (
                kind == "hand_end" or not self.result.errors):  # a refused leave: next hand
            await self.send_leave()

    async def finish(self) -> None:
        """Leave now (or when the current hand ends); `run` returns once the seat is free.

        Called from another task than `run`'s. When the socket is down (a restarted server),
        the session sends the leave as soon as it has reconnected."""
        from websockets.exceptions import ConnectionClosed

        self.leave_wanted = True
        if self.seat is None:
            self.stop.set()
            await self.drop()  # a spectator may wait long for its next message
        elif not self.leaving:
            with contextlib.suppress(ConnectionClosed):  # `session` asks again once reconnected
                await self.send_leave()

    async def send_leave(self) -> None:
        self.leaving = True
        self.leave_sent_on = await self.send({"type": "leave"})

    async def maybe_act(self) -> None:
        """Act when it is our turn. After a refusal, wait for news (a newer version) first:
        the event that made our view stale is still on its way."""
        if (self.legal is None or self.in_flight or self.version is None
                or self.version == self.sent_version or self.letting_go):
            return
        if self.think_time is not None:
            self.last_think = self.think_time(self.rng)
        else:
            self.last_think = self.rng.uniform(0.5, 1.5) * self.think if self.think > 0 else 0.0
        if self.last_think > 0:
            await asyncio.sleep(self.last_think)
        message = {**self.choose(self.legal, self.rng), "version": self.version}
        if self.on_send is not None:
            self.on_send(self, message)
        self.in_flight, self.sent_version = True, self.version
        self.result.actions += 1
        await self.send(message)


def summary_lines(results: list[BotResult], *, seconds: float) -> list[str]:
    """A readable summary: one line per bot, then the totals."""
    lines = []
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r.errors)
        flag = f"  last error: {r.last_error}" if r.last_error else ""
        lines.append(f"{r.name:>10}  {r.where:<14}  hands {r.hands:4d}  actions {r.actions:5d}  "
                     f"net {r.net:+7d}  races {r.races.total():3d}  throttled {r.throttled}  "
                     f"timeouts {r.timeouts}  reconnects {r.reconnects}  "
                     f"errors {dict(r.errors) or 0}{flag}")
    actions = sum(r.actions for r in results)
    seated = sum(r.sat_at is not None for r in results)
    lines.append(f"seated: {seated} of {len(results)} bots")
    lines.append(f"total: {actions} actions in {seconds:.1f} s "
                 f"({actions / max(seconds, 1e-9):.1f}/s), net {sum(r.net for r in results):+d}, "
                 f"snapshot requests: {sum(r.snapshot_requests for r in results)}, "
                 f"errors: {dict(errors) or 'none'}")
    return lines

