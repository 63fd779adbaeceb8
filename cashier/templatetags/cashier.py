"""`{% load cashier %}`: `{{ cents|money:"REAL" }}` → "$12.34", `{{ chips|money:"PLAY" }}` →
"2,500 chips"; `{% session_reminder %}` shows the player's session-length reminder when due."""
from __future__ import annotations

from typing import Any

from django import template

from cashier.money import money_format
from cashier.services.responsible import session_reminder_due

register = template.Library()


@register.filter
def money(amount: int | None, currency: str) -> str:
    return money_format(int(amount or 0), currency)


@register.inclusion_tag("cashier/_session_reminder.html", takes_context=True)
def session_reminder(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    due = bool(
        user is not None and user.is_authenticated and user.last_login
        and session_reminder_due(user=user, session_started_at=user.last_login)
    )
    return {"due": due, "since": user.last_login if due else None}
