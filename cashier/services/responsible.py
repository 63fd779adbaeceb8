"""Responsible gaming: deposit limits, self-exclusion and the session-length reminder.

Enforced here (deposit and sit-down services call `exclusion_check` / `deposit_limit_check`),
not only in forms. Settings are append-only rows, so the history of every change is kept.
"""
from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.db.models import QuerySet, Sum
from django.utils import timezone

from cashier import conf
from cashier.errors import CashierError
from cashier.models import (
    Deposit,
    DepositLimit,
    DepositStatus,
    LimitPeriod,
    ResponsibleGamingProfile,
    SelfExclusion,
)
from cashier.money import Currency, money_format

PERIOD_LENGTH = {
    LimitPeriod.DAY: datetime.timedelta(days=1),
    LimitPeriod.WEEK: datetime.timedelta(days=7),
    LimitPeriod.MONTH: datetime.timedelta(days=30),
}


# Self-exclusion -------------------------------------------------------------------------------
def exclusions_running(*, user: Any, now: datetime.datetime) -> QuerySet[SelfExclusion]:
    """The player's self-exclusions that run at `now`: what "self-excluded" means, for the
    services and for the lobby's one-query read of a visitor (tables/selectors.py). `user`:
    the player or his id."""
    return SelfExclusion.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now)


def exclusion_active(*, user: Any, now: datetime.datetime | None = None) -> SelfExclusion | None:
    return (exclusions_running(user=user, now=now or timezone.now())
            .order_by("-ends_at").first())


def exclusion_message(*, user: Any, action: str) -> str | None:
    """Why the player may not `action` now (a self-exclusion runs), or None: pages ask it to
    offer only what the services would allow, in the services' own words."""
    active = exclusion_active(user=user)
    return None if active is None else exclusion_text(active.ends_at, action=action)


def exclusion_text(ends_at: datetime.datetime, *, action: str) -> str:
    """`exclusion_message`'s words for an exclusion running until `ends_at`."""
    return (f"You are self-excluded until {ends_at:%Y-%m-%d %H:%M} UTC: "
            f"you cannot {action} before then.")


def exclusion_check(*, user: Any, action: str) -> None:
    """Raise `self_excluded` while a self-exclusion runs (`action` words the message)."""
    message = exclusion_message(user=user, action=action)
    if message is not None:
        raise CashierError("self_excluded", message)


def self_exclusion_start(*, user: Any, days: int) -> SelfExclusion:
    """Exclude the player from now for `days` days. It cannot be lifted early: a new exclusion
    can only end later than the running one (an earlier end is refused)."""
    if days < 1:
        raise CashierError("invalid_period", "Choose a self-exclusion of at least one day.")
    now = timezone.now()
    ends_at = now + datetime.timedelta(days=days)
    with transaction.atomic():
        active = exclusion_active(user=user, now=now)
        if active is not None and active.ends_at >= ends_at:
            raise CashierError(
                "exclusion_cannot_shorten",
                f"You are already self-excluded until {active.ends_at:%Y-%m-%d %H:%M} UTC; "
                "a self-exclusion cannot be shortened.",
            )
        return SelfExclusion.objects.create(user=user, starts_at=now, ends_at=ends_at)


# Deposit limits -------------------------------------------------------------------------------
def deposit_limit_current(
    *, user: Any, period: str, now: datetime.datetime | None = None
) -> int | None:
    """The limit in force now for the period (None = no limit)."""
    now = now or timezone.now()
    row = (
        DepositLimit.objects.filter(user=user, period=period, effective_at__lte=now,
                                    superseded=False)
        .order_by("-effective_at", "-id")
        .first()
    )
    return row.amount if row else None


def deposit_limit_pending(*, user: Any, period: str) -> DepositLimit | None:
    """A raise that waits for its 24 hours, if any."""
    return (
        DepositLimit.objects.filter(
            user=user, period=period, effective_at__gt=timezone.now(), superseded=False
        )
        .order_by("-effective_at")
        .first()
    )


def deposit_limit_set(*, user: Any, period: str, amount: int | None) -> DepositLimit:
    """Set a limit (None removes it). Lowering takes effect at once, raising or removing after
    `conf.limit_raise_delay()`; a newer setting replaces a raise still waiting."""
    if period not in PERIOD_LENGTH:
        raise CashierError("invalid_period", "Choose a daily, weekly or monthly limit.")
    if amount is not None and amount <= 0:
        raise CashierError("invalid_amount", "A deposit limit must be positive.")
    now = timezone.now()
    with transaction.atomic():
        DepositLimit.objects.filter(
            user=user, period=period, effective_at__gt=now, superseded=False
        ).update(superseded=True)
        current = deposit_limit_current(user=user, period=period, now=now)
        lowering = amount is not None and (current is None or amount <= current)
        effective_at = now if lowering else now + conf.limit_raise_delay()
        return DepositLimit.objects.create(
            user=user, period=period, amount=amount, effective_at=effective_at
        )


def deposited_since(*, user: Any, since: datetime.datetime) -> int:
    """Credited and pending deposits since a time (pending ones count toward the limits)."""
    total = Deposit.objects.filter(
        user=user, created_at__gte=since,
        status__in=[DepositStatus.APPROVED, DepositStatus.PENDING],
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


def deposit_limit_check(*, user: Any, amount: int) -> None:
    """Raise `over_deposit_limit` if the deposit would exceed a limit in force.

    Needs: the player's REAL wallet locked (it serialises the player's deposits)."""
    now = timezone.now()
    for period, length in PERIOD_LENGTH.items():
        limit = deposit_limit_current(user=user, period=period, now=now)
        if limit is None:
            continue
        used = deposited_since(user=user, since=now - length)
        if used + amount > limit:
            left = max(limit - used, 0)
            raise CashierError(
                "over_deposit_limit",
                f"Over your {LimitPeriod(period).label.lower()} deposit limit of "
                f"{money_format(limit, Currency.REAL)}: you can deposit "
                f"{money_format(left, Currency.REAL)} more now.",
            )


# Session reminder -----------------------------------------------------------------------------
def session_reminder_set(*, user: Any, minutes: int | None) -> ResponsibleGamingProfile:
    if minutes is not None and minutes < 1:
        raise CashierError("invalid_period", "Choose a reminder of at least one minute.")
    profile, _ = ResponsibleGamingProfile.objects.update_or_create(
        user=user, defaults={"session_reminder_minutes": minutes}
    )
    return profile


def session_reminder_at(
    *, user: Any, session_started_at: datetime.datetime
) -> datetime.datetime | None:
    """When the session-length reminder falls due (None: the player asked for none)."""
    profile = ResponsibleGamingProfile.objects.filter(user=user).first()
    if profile is None or not profile.session_reminder_minutes:
        return None
    return session_started_at + datetime.timedelta(minutes=profile.session_reminder_minutes)


def session_reminder_due(
    *, user: Any, session_started_at: datetime.datetime, now: datetime.datetime | None = None
) -> bool:
    """True when the player asked for a reminder and the session is at least that long."""
    due_at = session_reminder_at(user=user, session_started_at=session_started_at)
    return due_at is not None and (now or timezone.now()) >= due_at
