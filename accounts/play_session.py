"""When the player's session began: stamped in his Django session at login, so the
session-length reminder counts from this session's start (not from `last_login`, which a login
elsewhere moves, and which an old remembered session would count from)."""
from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone

SESSION_STARTED_KEY = "play_session_started_at"


@receiver(user_logged_in, dispatch_uid="accounts.play_session.stamp")
def play_session_stamp(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Every login starts a new session: remember when."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_STARTED_KEY] = timezone.now().isoformat()


def play_session_started_at(request: HttpRequest) -> datetime.datetime | None:
    """This session's start, or None for a session stamped before this was kept."""
    session = getattr(request, "session", None)
    stamp = session.get(SESSION_STARTED_KEY) if session is not None else None
    try:
        return datetime.datetime.fromisoformat(stamp) if stamp else None
    except ValueError:
        return None
