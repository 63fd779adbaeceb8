"""WebSocket consumers. Thin: authenticate, validate the message, call a selector or service."""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from observability import metrics
from tables import admission, fanout, services
from tables.engine import fairness
from tables.errors import TableError
from tables.groups import batch_frame, server_loop_use, table_group
from tables.models import TableConfig
from tables.selectors import LobbyFilters, lobby_rows
from tables.services import chat, dealing
from tables.snapshots import events_since, table_snapshot


def lobby_snapshot() -> list[dict[str, Any]]:
    return [
        {
            "id": row.table.pk,
            "name": row.table.name,
            "structure": row.table.structure,
            "currency": row.table.currency,
            "stakes": row.table.stakes_label(),
            "seats_taken": row.seats_taken,
            "max_seats": row.table.max_seats,
            "average_pot": row.average_pot,
            "players_per_flop_percent": row.players_per_flop_percent,
            "hands_per_hour": row.hands_per_hour,
        }
        for row in lobby_rows(LobbyFilters())
    ]


logger = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 4096  # larger messages are answered `too_large`; the server closes the
# socket (1009, with a reason) above its own maximum (`--websocket-max-frame-size`, Procfile)
RATE_PER_SECOND = 10.0
RATE_BURST = 20.0
RATE_LIMITED = (f"Too many requests: at most {RATE_PER_SECOND:g} tokens a second, {RATE_BURST:g} "
                f"at once; a message costs 1, a snapshot {admission.SNAPSHOT_TOKENS}, a hello 1 "
                f"more per {admission.EVENTS_PER_TOKEN} events it catches up. Nothing was done.")
GAP_WAIT_SECONDS = 0.05
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
CHAT_TYPES = ("chat", "mute")  # tables/services/chat.py
NO_ARGS = {
    "sit_out": "sit_out", "sit_in": "sit_in", "post_bb": "post_big_blind_now",
    "wait_bb": "wait_for_big_blind",
}


class TokenBucket:
    """`rate` tokens per second up to `burst`; each message takes one, a request that reads
    more takes more (tables/admission.py), all or none."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self, cost: float = 1) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class BadRequest(Exception):
    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message


MAX_NESTING = 16
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def decode(raw: str) -> dict[str, Any]:
    """One JSON object, or BadRequest: never an exception that would end the socket. Deeply
    nested input is refused before parsing: `json.loads` would raise RecursionError (not
    ValueError), and a RecursionError can leave CPython 3.11's compiler in a bad state."""
    if raw.count("[") + raw.count("{") > MAX_NESTING and _nesting(raw) > MAX_NESTING:
        raise BadRequest("bad_json", f"JSON nested more than {MAX_NESTING} levels deep.")
    try:
        content = json.loads(raw)
    except (ValueError, RecursionError):
        content = None
    if not isinstance(content, dict):
        raise BadRequest("bad_json", "Send one JSON object per message.")
    return content


def ref_of(content: dict[str, Any]) -> str | None:
    """The request's `ref`, echoed in its answer: any string of at most 64 characters."""
    ref = content.get("ref")
    return ref if isinstance(ref, str) and len(ref) <= 64 else None


def _nesting(raw: str) -> int:
    """How deep brackets nest outside string literals."""
    depth = deepest = 0
    for ch in JSON_STRING.sub('""', raw):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """What both sockets share: size and rate limits, decoding, errors that never close the
    socket, and a clean end.

    It keeps its own receive loop (`__call__`), which is Channels' public consumer contract
    (an ASGI app that awaits `receive` and dispatches each message by type), without a channel
    of its own on the channel layer (table events reach the consumers of a process through its
    hub, tables/fanout.py) and without the per-message `aclose_old_connections()` hop (every
    database call here goes through `database_sync_to_async`, which closes stale connections
    itself, in the thread using them). tests/tables/test_socket_input.py pins that contract.
    Whatever ends the loop (a close, a bug), `ended` runs: nothing stays subscribed."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.scope, self.channel_layer, self.base_send = scope, None, send
        self.bucket, self.closed = TokenBucket(), False
        self.anonymous_network: str | None = None  # counted in admission.ANONYMOUS
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            if self.anonymous_network is not None:
                admission.ANONYMOUS.release(self.anonymous_network)
                self.anonymous_network = None
            await self.ended()

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def ended(self) -> None:
        """Called once when the consumer stops, however it stops."""

    async def admitted(self) -> bool:
        """Let the socket in, unless it is anonymous and over a cap (tables/admission.py): then
        it is accepted only to be told why in an `error` frame, and closed."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            return True
        try:
            self.anonymous_network = admission.ANONYMOUS.admit(self.scope.get("client"))
        except admission.Refused as refused:
            await self.accept()
            await self.error(refused.code, refused.message)
            await self.close(code=admission.REFUSED_CLOSE_CODE, reason=refused.code)
            self.closed = True
            return False
        return True

    def spend(self, cost: int) -> None:
        """Take `cost` tokens for a request that reads more than a message (its first token
        is already taken), or refuse it before it reads anything."""
        if cost > 0 and not self.bucket.take(cost):
            raise BadRequest("rate_limited", RATE_LIMITED)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                   close: bool = False) -> None:
        """Send a frame. A socket that closed meanwhile is not an error (its disconnect is on
        its way): the reply to a message whose sender just left is dropped quietly."""
        if self.closed:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Exception as e:  # the server refuses to write to a closed connection
            self.closed = True
            logger.debug("%s: socket closed before a frame was sent: %s", type(self).__name__, e)

    async def send_json(self, content: Any, close: bool = False) -> None:
        # (AsyncJsonWebsocketConsumer's own send_json goes past `send` above, to its parent's.)
        await self.send(text_data=await self.encode_json(content), close=close)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if self.closed:  # refused at connect, or gone: nobody to answer
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        ref = None
        try:
            if not self.bucket.take():  # every message, a too large one too
                raise BadRequest("rate_limited", RATE_LIMITED)
            if len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
                raise BadRequest("too_large", f"Messages are at most {MAX_MESSAGE_BYTES} bytes.")
            content = decode(raw)
            ref = ref_of(content)
            await self.handle(content)
        except (BadRequest, TableError) as e:
            await self.error(e.code, e.message, ref)
        except Exception:  # a bug must not close the socket: log it, say so
            logger.exception("%s: a message failed", type(self).__name__)
            await self.error("server_error", "Something went wrong on our side; nothing was "
                             "changed. Try again.", ref)

    async def handle(self, content: dict[str, Any]) -> None:
        raise NotImplementedError

    async def error(self, code: str, message: str, ref: str | None = None) -> None:
        frame = {"type": "error", "code": code, "message": message}
        if ref is not None:
            frame["ref"] = ref
        await self.send_json(frame)


class LobbyConsumer(RoomConsumer):
    """Anyone may watch the lobby: sends the table list on connect and on {"type": "refresh"}."""

    async def connect(self) -> None:
        if not await self.admitted():
            return
        await self.accept()
        await self.send_lobby()

    async def handle(self, content: dict[str, Any]) -> None:
        if content.get("type") != "refresh":
            raise BadRequest("unknown_type",
                             'The lobby socket only understands {"type": "refresh"}.')
        self.spend(admission.SNAPSHOT_TOKENS - 1)
        await self.send_lobby()

    async def send_lobby(self) -> None:
        tables = await database_sync_to_async(lobby_snapshot)()
        await self.send_json({"type": "lobby", "tables": tables})


# Live table -----------------------------------------------------------------------------------
def pong_frame() -> dict[str, Any]:
    """The answer to `ping`, naming this daphne when ROOM_SERVER_NAME is set: clients (and the
    routing test) see which process serves their socket behind a load balancer."""
    name = settings.ROOM_SERVER_NAME
    return {"type": "pong", "server": name} if name else {"type": "pong"}


def _int_field(content: dict, name: str, *, required: bool = True) -> int | None:
    value = content.get(name)
    if value is None and not required:
        return None
    if type(value) is not int:
        raise BadRequest("bad_request", f"'{name}' must be an integer.")
    return value


def _bool_field(content: dict, name: str, *, default: bool | None = None) -> bool:
    """`content[name]`, true or false; absent: `default` when there is one."""
    value = content.get(name, default)
    if type(value) is not bool:
        raise BadRequest("bad_request", f"'{name}' must be true or false.")
    return value


def _request_key(content: dict, user_id: int) -> str:
    """The idempotency key of a money-moving message, from its client-made `request_id`: a
    message resent (after a reconnect, say) with the same id moves money once."""
    request_id = content.get("request_id")
    if not isinstance(request_id, str) or not REQUEST_ID.fullmatch(request_id):
        raise BadRequest("bad_request", "'request_id' must be a client-made id of 8 to 64 "
                         "letters, digits, '-' or '_' (a UUID), the same when a request is resent.")
    return f"ws:{user_id}:{request_id}"


@functools.cache
def in_thread(service: Callable[..., Any]) -> Callable[..., Any]:
    """`service` as an awaitable run by any thread of the pool, not the one shared thread:
    sockets of different tables act in parallel (the table row lock orders one table's
    calls). Wrapped once per service, not per message."""
    return database_sync_to_async(service, thread_sensitive=False)


def act_timed(*, queued: float, **act: Any) -> list[dict[str, Any]]:
    """`services.act`, counting its wait for a database thread (room_act_wait_seconds): the
    part of room_act_seconds that is the pool's, not the step's."""
    metrics.ACT_WAIT_SECONDS.observe(time.perf_counter() - queued)
    return services.act(**act)


class EventStream(RoomConsumer):
    """A socket that follows one versioned event log (a table's, a tournament's): on connect
    a snapshot, or the events missed since `last_version`; then the log's broadcasts, taken
    from the process's hub and sent in version order, a gap filled from the database. What
    the log is, the subclass says: `read_snapshot` and `read_events` (run in a thread).

    Call `stream_start` before joining a group, `stream_join` for each group; `stream_message`
    answers the messages every stream understands (`ping`, `snapshot`, `hello`)."""

    version: int | None
    user_id: int | None

    def read_snapshot(self) -> Mapping[str, Any]:
        """The snapshot frame (its `version` is where the events resume)."""
        raise NotImplementedError

    def read_events(self, last_version: int) -> list[dict[str, Any]] | None:
        """The `event` messages after `last_version`, or None: a snapshot is needed."""
        raise NotImplementedError

    def stream_start(self) -> None:
        self.version = None
        self.ahead: dict[int, dict[str, Any]] = {}  # events not sent yet, by version
        self.fill_due = False
        # Held while events are sent or read from the database: one delivery at a time, in
        # order. The hub never waits for it (held events go out when the holder is done).
        self.delivering = asyncio.Lock()
        self.groups_joined: list[str] = []

    async def stream_join(self, group: str) -> None:
        """Join `group` before reading the log: no event falls between the two."""
        await fanout.hub().join(group, self)
        self.groups_joined.append(group)

    async def ended(self) -> None:
        """Leave the hub's groups, whether the socket closed or the consumer failed."""
        self.closed = True
        for group in getattr(self, "groups_joined", []):
            await fanout.hub().leave(group, self)
        self.groups_joined = []

    async def stream_message(self, kind: object, content: dict[str, Any]) -> bool:
        """Answer `ping`, `snapshot` and `hello`; False for any other message."""
        if kind == "ping":
            await self.send_json(pong_frame())
        elif kind == "snapshot":
            self.spend(admission.SNAPSHOT_TOKENS - 1)
            await self.send_snapshot()
        elif kind == "hello":
            last_version = _int_field(content, "last_version")
            self.spend(admission.hello_cost(last_version=last_version, current=self.version) - 1)
            await self.resync(last_version)
        else:
            return False
        return True

    # Resync -------------------------------------------------------------------------------
    async def resync(self, last_version: int | None) -> None:
        """Missed events after `last_version` when possible, else a snapshot; then whatever
        arrived meanwhile."""
        if last_version is not None:
            metrics.RESYNCS.inc()
        async with self.delivering:
            await self._resync(last_version)
            await self.deliver()

    async def send_snapshot(self) -> None:
        async with self.delivering:
            await self._snapshot()
            await self.deliver()

    async def _resync(self, last_version: int | None) -> None:
        if last_version is not None:
            events = await database_sync_to_async(self.read_events)(last_version)
            if events is not None:
                self.version = last_version
                for message in events:
                    await self.send_json(message)
                    self.version = message["version"]
                self.forget_delivered()
                return
        await self._snapshot()

    async def _snapshot(self) -> None:
        metrics.SNAPSHOTS.inc()
        snap = await database_sync_to_async(self.read_snapshot)()
        self.version = snap["version"]
        self.forget_delivered()
        await self.send_json(snap)

    # Events from the hub ------------------------------------------------------------------
    async def take(self, message: dict[str, Any]) -> None:
        """A broadcast (`groups._message`): hold its events, then send what is in order now,
        unless a delivery or resync is under way (it sends them when it is done)."""
        if self.closed:
            return
        for item in message["events"]:
            if self.version is None or item["version"] > self.version:
                self.ahead[item["version"]] = item
        if not self.delivering.locked():
            async with self.delivering:
                await self.deliver()

    async def deliver(self) -> None:
        """Send the held events in version order for as long as the next one is here, those in
        a row as one frame (`events`, docs/protocol.md). Never waits for the database: a batch
        that arrives early (the broadcasts of two commits can swap on the way) waits
        GAP_WAIT_SECONDS for the one before it, and only then is the gap filled from HandEvent
        (`fill`, a task of its own). An event addressed to this socket's user goes out as its
        private copy, every other one as the public frame. Needs `self.delivering`."""
        frames = []
        while self.version is not None and self.version + 1 in self.ahead:
            item = self.ahead.pop(self.version + 1)
            mine = self.user_id is not None and item.get("private_for") == self.user_id
            frames.append(item["private_frame"] if mine else item["frame"])
            self.version = item["version"]
        await self.send_frame(batch_frame(frames))
        self.forget_delivered()
        if self.ahead and self.version is not None and not self.fill_due:
            self.fill_due = True
            asyncio.get_running_loop().call_later(
                GAP_WAIT_SECONDS, lambda: asyncio.ensure_future(self.fill()))

    async def fill(self) -> None:
        """Read a gap from the database, unless what was missing came meanwhile."""
        async with self.delivering:
            self.fill_due = False
            if self.closed or self.version is None or not self.ahead:
                return
            metrics.GAPS.inc()
            await self._resync(self.version)
            await self.deliver()

    async def send_frame(self, frame: str | None) -> None:
        """Send a frame already encoded by the broadcaster (`groups.event_frame`). A socket
        that closed meanwhile is not an error: its disconnect is on its way."""
        if frame is not None:
            await self.send(text_data=frame)

    def forget_delivered(self) -> None:
        if self.version is not None:
            self.ahead = {v: i for v, i in self.ahead.items() if v > self.version}


class TableConsumer(EventStream):
    """One viewer of one table (docs/protocol.md). Thin: validates a message, calls a service
    in a thread, answers errors; events arrive already redacted through the process's hub
    and are forwarded in version order (`EventStream`; a gap is filled from HandEvent)."""

    table_id: int
    user_id: int | None
    version: int | None

    async def connect(self) -> None:
        if not await self.admitted():
            return
        server_loop_use(asyncio.get_running_loop())
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.closed, self.present = False, False
        self.stream_start()
        if not await database_sync_to_async(_table_open)(self.table_id):
            await self.close(code=4404)
            return
        await self.stream_join(table_group(self.table_id))
        await self.accept()
        await self.resync(query_last_version(self.scope))
        if self.user_id is not None:
            ids = {"table_id": self.table_id, "user_id": self.user_id}
            dropped_at = await database_sync_to_async(services.presence_join)(**ids)
            self.present = True
            if dropped_at is not None:
                await database_sync_to_async(services.hand_reconnect_bonus)(
                    **ids, dropped_at=dropped_at)

    def read_snapshot(self) -> Mapping[str, Any]:
        return table_snapshot(table_id=self.table_id, user_id=self.user_id)

    def read_events(self, last_version: int) -> list[dict[str, Any]] | None:
        return events_since(table_id=self.table_id, last_version=last_version,
                            user_id=self.user_id)

    async def ended(self) -> None:
        """Leave the hub's groups and count the socket out, whether the socket closed or the
        consumer failed."""
        await super().ended()
        if getattr(self, "present", False):
            self.present = False
            await database_sync_to_async(services.presence_leave)(
                table_id=self.table_id, user_id=self.user_id)

    # Client messages ----------------------------------------------------------------------
    async def handle(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if await self.stream_message(kind, content):
            return
        if kind in CHAT_TYPES:
            await self.chat_message(kind, content)
            return
        if kind not in ("sit", "leave", "top_up", "act", "show", "muck", "always_show",
                        "sit_out_next_bb", "straddle", "run_twice", "entropy", "rabbit_hunt",
                        *NO_ARGS):
            raise BadRequest("unknown_type", f"Unknown message type {kind!r}; see docs/protocol.md.")
        if self.user_id is None:
            raise BadRequest("login_required", "Log in to play; anonymous visitors may only watch.")
        ids = {"table_id": self.table_id, "user_id": self.user_id}
        if kind == "act":
            action = content.get("action")
            if not isinstance(action, str):
                raise BadRequest("bad_request", "'action' must be one of fold, check, call, bet, raise.")
            if action in ("show", "muck"):
                raise BadRequest("bad_request", f"Send {{\"type\": \"{action}\"}} to {action}.")
            amount, version = (_int_field(content, "amount", required=False),
                               _int_field(content, "version"))
            with metrics.ACT_SECONDS.time():
                await in_thread(act_timed)(queued=time.perf_counter(), **ids, action=action,
                                           amount=amount, expected_version=version)
        elif kind == "show":  # at a showdown that asks, or in the pause after the hand
            await in_thread(services.hand_show)(**ids)
        elif kind == "rabbit_hunt":  # the board a fold-out left undealt (rabbit_hunting.py)
            await in_thread(services.rabbit_hunt)(
                **ids, hand_id=_int_field(content, "hand_id"))
        elif kind == "muck":
            await in_thread(services.act)(**ids, action=kind, expected_version=_int_field(
                content, "version", required=False))
        elif kind == "always_show":
            on = _bool_field(content, "on")
            await in_thread(services.seat_always_show)(**ids, on=on)
            await self.send_json({"type": "always_show", "on": on})
        elif kind == "sit_out_next_bb":  # answered by the seat's `status` event
            await in_thread(services.sit_out_next_bb)(**ids, on=_bool_field(content, "on"))
        elif kind == "run_twice":  # asked when all in before the river (docs/protocol.md)
            await in_thread(services.hand_run_twice)(**ids, twice=_bool_field(content, "twice"))
        elif kind == "straddle":
            on = _bool_field(content, "on")
            await in_thread(services.seat_straddle)(**ids, on=on)
            await self.send_json({"type": "straddle", "on": on})
        elif kind == "entropy":  # a seated player's share of the next deal's order (dealing.py)
            commitment, value = content.get("commitment"), content.get("value")
            if not (fairness.is_hex(commitment, 32) and fairness.is_hex(value, 32)):
                raise BadRequest("bad_request", "'commitment' and 'value' must be 64 lowercase "
                                 "hex digits each.")
            if not await in_thread(dealing.entropy_add)(**ids, commitment=commitment, value=value):
                raise BadRequest("entropy_refused", "Entropy is taken from seated players, once "
                                 "per deck, for the table's next deck commitment only.")
        elif kind in ("sit", "leave", "top_up"):
            key = _request_key(content, self.user_id)
            if kind == "sit":
                await in_thread(_sit)(**ids, number=_int_field(content, "seat"),
                                      amount=_int_field(content, "amount"), idempotency_key=key,
                                      post_bb=_bool_field(content, "post_bb", default=False))
            elif kind == "leave":
                await in_thread(services.seat_leave)(**ids, idempotency_key=key)
            else:
                await in_thread(services.seat_top_up)(
                    **ids, amount=_int_field(content, "amount"), idempotency_key=key)
            done = {"type": "done", "request_id": content["request_id"], "ref": ref_of(content)}
            await self.send_json({k: v for k, v in done.items() if v is not None})
        else:
            await in_thread(getattr(services, NO_ARGS[kind]))(**ids)

    async def chat_message(self, kind: str, content: dict[str, Any]) -> None:
        """`chat` {text}: say a line (its `chat` event is the answer); `mute` {player_id,
        muted}: mute or unmute a player's chat for oneself, answered `mutes` (private)."""
        if self.user_id is None:
            raise BadRequest("login_required", "Log in to chat; anonymous visitors may only watch.")
        if kind == "chat":
            text = content.get("text")
            if not isinstance(text, str):
                raise BadRequest("bad_request", "'text' must be a string.")
            await in_thread(chat.chat_say)(table_id=self.table_id, user_id=self.user_id, text=text)
            return
        muted = content.get("muted")
        if type(muted) is not bool:
            raise BadRequest("bad_request", "'muted' must be true or false.")
        ids = await in_thread(chat.chat_mute)(user_id=self.user_id, muted=muted,
                                              player_id=_int_field(content, "player_id"))
        players = await in_thread(chat.chat_muted_players)(user_id=self.user_id)
        answer = {"type": "mutes", "player_ids": ids, "players": players, "ref": ref_of(content)}
        await self.send_json({k: v for k, v in answer.items() if v is not None})


def _sit(*, table_id: int, user_id: int, number: int, amount: int,
         idempotency_key: str, post_bb: bool) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=user_id)
    services.seat_take(table_id=table_id, user=user, number=number, amount=amount,
                       idempotency_key=idempotency_key, post_bb=post_bb)


def _table_open(table_id: int) -> bool:
    return TableConfig.objects.filter(pk=table_id, is_active=True).exists()


def query_last_version(scope: dict[str, Any]) -> int | None:
    """The `?last_version=N` a reconnecting socket resumes from (None: none, or not a number)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("last_version")
    if not values:
        return None
    try:
        return int(values[0])
    except ValueError:
        return None
