"""Cashier amounts and periods; each can be overridden in Django settings (CASHIER_<NAME>)."""
from __future__ import annotations

import datetime

from django.conf import settings


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, f"CASHIER_{name}", default))


def play_money_grant() -> int:
    """Chips credited once at sign-up."""
    return _setting("PLAY_MONEY_GRANT", 10_000)


def play_money_floor() -> int:
    """A free reload brings a play wallet below this back up to it."""
    return _setting("PLAY_MONEY_FLOOR", 10_000)


def play_money_reload_interval() -> datetime.timedelta:
    return datetime.timedelta(minutes=_setting("PLAY_MONEY_RELOAD_MINUTES", 60))


def limit_raise_delay() -> datetime.timedelta:
    """Raising (or removing) a deposit limit waits this long; lowering is immediate."""
    return datetime.timedelta(hours=_setting("LIMIT_RAISE_DELAY_HOURS", 24))


def max_deposit() -> int:
    """The largest single deposit in cents (a sanity bound, not a responsible-gaming limit)."""
    return _setting("MAX_DEPOSIT", 1_000_000)
