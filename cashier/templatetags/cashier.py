"""`{% load cashier %}`: `{{ cents|money:"REAL" }}` → "$12.34", `{{ chips|money:"PLAY" }}` →
"2,500 chips"; `{% session_reminder %}` shows the player's session-length reminder when due,
and on a page opened before then, when it falls due (static/js/session-reminder.js), so an open
table shows it without a reload."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from accounts.play_session import play_session_started_at
from cashier.money import money_format
from cashier.services.responsible import session_reminder_at

register = template.Library()


@register.filter
def money(amount: int | None, currency: str) -> str:
    return money_format(int(amount or 0), currency)


@register.inclusion_tag("cashier/_session_reminder.html", takes_context=True)
def session_reminder(context: dict[str, Any]) -> dict[str, Any]:
    """Counted from this session's start (a session from before it was stamped: the login)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"due_at": None}
    since = play_session_started_at(request) or user.last_login
    due_at = since and session_reminder_at(user=user, session_started_at=since)
    if not due_at:
        return {"due_at": None}
    due_in = (due_at - timezone.now()).total_seconds()
    return {"due_at": due_at, "due": due_in <= 0, "due_in": max(int(due_in) + 1, 0),
            "since": since}
