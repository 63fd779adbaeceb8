"""Who is asking on a socket: Channels' auth stack, with the session and user read by any of
the sockets' database threads (tables/consumers.py `in_thread`).

Channels' `AuthMiddleware` reads them through `database_sync_to_async`, whose default runs
every call of a process in one shared thread. When a daphne restarts, every socket of its
tables reconnects at once (nginx moves them to the other daphnes): queued one by one behind
that thread, the last handshakes would wait for all the others' reads, past daphne's 5 s
handshake limit when the process is busy.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib import auth

from tables.consumers import in_thread


def session_user(session: Any) -> Any:
    """Django's own `get_user` (session hash checked, a stale session flushed)."""
    return auth.get_user(SimpleNamespace(session=session))


class PooledAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await in_thread(session_user)(scope["session"])


def auth_stack(inner: Any) -> Any:
    """Channels' `AuthMiddlewareStack`, with `PooledAuthMiddleware`."""
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))
