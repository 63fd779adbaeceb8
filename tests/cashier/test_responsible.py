"""Responsible gaming: deposit limits (lower now, raise after 24 h), self-exclusion, reminder."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from cashier.services import (
    CashierError,
    deposit,
    deposit_limit_current,
    deposit_limit_pending,
    deposit_limit_set,
    exclusion_message,
    self_exclusion_start,
    session_reminder_at,
    session_reminder_due,
    session_reminder_set,
    withdrawal_request,
)

from .conftest import SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db


def pay(user, amount: int, provider: str = "sandbox"):
    return deposit(user=user, amount=amount, provider=provider, card_number=SANDBOX_OK,
                   idempotency_key=new_key())


def in_hours(monkeypatch, hours: float) -> None:
    later = timezone.now() + datetime.timedelta(hours=hours)
    monkeypatch.setattr(timezone, "now", lambda: later)


def test_a_daily_limit_refuses_the_deposit_that_would_exceed_it(make_player):
    ann = make_player("ann")
    deposit_limit_set(user=ann, period="day", amount=10_000)
    pay(ann, 7_000)
    with pytest.raises(CashierError) as refused:
        pay(ann, 3_001)
    assert refused.value.code == "over_deposit_limit"
    assert "you can deposit $30 more now" in refused.value.message
    pay(ann, 3_000)


def test_pending_manual_deposits_count_toward_the_limit(make_player):
    ann = make_player("ann")
    deposit_limit_set(user=ann, period="week", amount=10_000)
    pay(ann, 8_000, provider="manual")
    with pytest.raises(CashierError):
        pay(ann, 2_001)


def test_lowering_a_limit_takes_effect_at_once(make_player):
    ann = make_player("ann")
    deposit_limit_set(user=ann, period="month", amount=50_000)
    deposit_limit_set(user=ann, period="month", amount=20_000)
    assert deposit_limit_current(user=ann, period="month") == 20_000


def test_raising_a_limit_waits_24_hours(make_player, monkeypatch):
    ann = make_player("ann")
    deposit_limit_set(user=ann, period="day", amount=10_000)
    deposit_limit_set(user=ann, period="day", amount=50_000)
    assert deposit_limit_current(user=ann, period="day") == 10_000
    assert deposit_limit_pending(user=ann, period="day").amount == 50_000
    with pytest.raises(CashierError):
        pay(ann, 20_000)

    in_hours(monkeypatch, 24.01)
    assert deposit_limit_current(user=ann, period="day") == 50_000
    pay(ann, 20_000)


def test_removing_a_limit_also_waits_24_hours(make_player, monkeypatch):
    ann = make_player("ann")
    deposit_limit_set(user=ann, period="day", amount=10_000)
    deposit_limit_set(user=ann, period="day", amount=None)
    assert deposit_limit_current(user=ann, period="day") == 10_000
    in_hours(monkeypatch, 25)
    assert deposit_limit_current(user=ann, period="day") is None


def test_a_lower_setting_replaces_a_raise_still_waiting(make_player, monkeypatch):
    ann = make_player("ann")
    deposit_limit_set(user=ann, period="day", amount=10_000)
    deposit_limit_set(user=ann, period="day", amount=50_000)
    deposit_limit_set(user=ann, period="day", amount=5_000)
    in_hours(monkeypatch, 25)
    assert deposit_limit_current(user=ann, period="day") == 5_000


def test_self_exclusion_blocks_deposits_but_not_withdrawals(make_player):
    ann = make_player("ann", real=5_000)
    self_exclusion_start(user=ann, days=30)
    with pytest.raises(CashierError) as refused:
        pay(ann, 1_000)
    assert refused.value.code == "self_excluded"
    assert "you cannot deposit before then" in refused.value.message
    withdrawal_request(user=ann, amount=5_000, idempotency_key=new_key())


def test_self_exclusion_cannot_be_shortened_only_extended(make_player):
    ann = make_player("ann")
    self_exclusion_start(user=ann, days=30)
    with pytest.raises(CashierError) as refused:
        self_exclusion_start(user=ann, days=7)
    assert refused.value.code == "exclusion_cannot_shorten"
    self_exclusion_start(user=ann, days=90)


def test_self_exclusion_ends_by_itself(make_player, monkeypatch):
    ann = make_player("ann")
    self_exclusion_start(user=ann, days=1)
    in_hours(monkeypatch, 24.01)
    pay(ann, 1_000)


def test_the_session_reminder_is_due_after_the_chosen_length(make_player):
    ann = make_player("ann")
    started = timezone.now() - datetime.timedelta(minutes=61)
    assert not session_reminder_due(user=ann, session_started_at=started)
    session_reminder_set(user=ann, minutes=60)
    assert session_reminder_due(user=ann, session_started_at=started)
    assert not session_reminder_due(user=ann, session_started_at=timezone.now())
    assert session_reminder_at(user=ann, session_started_at=started) == (
        started + datetime.timedelta(minutes=60))


def test_the_exclusion_message_says_why_before_any_service_refuses(make_player):
    ann = make_player("ann")
    assert exclusion_message(user=ann, action="sit down at a table") is None
    self_exclusion_start(user=ann, days=7)
    message = exclusion_message(user=ann, action="sit down at a table")
    assert message.startswith("You are self-excluded until ")
    assert message.endswith(": you cannot sit down at a table before then.")


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda user: deposit_limit_set(user=user, period="year", amount=100), "invalid_period"),
        (lambda user: deposit_limit_set(user=user, period="day", amount=0), "invalid_amount"),
        (lambda user: self_exclusion_start(user=user, days=0), "invalid_period"),
        (lambda user: session_reminder_set(user=user, minutes=0), "invalid_period"),
    ],
)
def test_invalid_settings_are_refused(make_player, call, code):
    with pytest.raises(CashierError) as refused:
        call(make_player("ann"))
    assert refused.value.code == code
