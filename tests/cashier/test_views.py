"""The cashier page: what a player sees and every refusal's message (with and without htmx)."""
from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from cashier.models import Deposit, Withdrawal, WithdrawalStatus
from cashier.services import withdrawal_request

from .conftest import SANDBOX_DECLINED, SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ann(make_player, client):
    user = make_player("ann", real=10_000)
    client.force_login(user)
    return user


def post(client, name: str, data: dict, *, args: tuple = (), htmx: bool = True):
    data = {"idempotency_key": str(uuid.uuid4()), **data}
    return client.post(reverse(f"cashier:{name}", args=args), data, **(HTMX if htmx else {}))


def test_the_page_shows_both_balances_and_the_forms(client, ann):
    page = client.get(reverse("cashier:home")).content.decode()
    assert "$100" in page and "10,000" in page
    for title in ("Deposit", "Withdraw", "Transaction history", "Limits and self-exclusion"):
        assert title in page


def test_the_page_needs_a_login(client):
    assert client.get(reverse("cashier:home")).status_code == 302


def test_a_sandbox_deposit_answers_with_the_refreshed_panel(client, ann):
    response = post(client, "deposit", {"amount": "25.50", "provider": "sandbox",
                                        "card_number": SANDBOX_OK})
    html = response.content.decode()
    assert "Deposited $25.50." in html
    assert "$125.50" in html
    assert response["HX-Trigger"] == "cashier-changed"


def test_a_double_submitted_deposit_form_credits_once(client, ann):
    data = {"amount": "10", "provider": "sandbox", "card_number": SANDBOX_OK,
            "idempotency_key": str(uuid.uuid4())}
    post(client, "deposit", data)
    second = post(client, "deposit", data)
    assert "Deposited $10." in second.content.decode()
    assert Deposit.objects.filter(user=ann).count() == 2  # the fixture's and this one


def test_the_same_form_key_with_another_amount_is_refused_as_a_duplicate(client, ann):
    key = str(uuid.uuid4())
    post(client, "deposit", {"amount": "10", "provider": "sandbox", "card_number": SANDBOX_OK,
                             "idempotency_key": key})
    html = post(client, "deposit", {"amount": "20", "provider": "sandbox",
                                    "card_number": SANDBOX_OK,
                                    "idempotency_key": key}).content.decode()
    assert "already used for a different request" in html


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("deposit", {"amount": "10", "provider": "sandbox", "card_number": SANDBOX_DECLINED},
         "Deposit declined: Card declined (sandbox)."),
        ("deposit", {"amount": "0.50", "provider": "sandbox", "card_number": SANDBOX_OK},
         "Amount ($): Ensure this value is greater than or equal to 1.00."),
        ("withdraw", {"amount": "100.01"}, "Insufficient balance: $100 available"),
        ("reload", {}, "Reloads are for wallets below 10,000"),
        ("withdraw", {"amount": "abc"}, "Amount ($): Enter a number."),
    ],
)
def test_refusals_are_shown_with_a_clear_message(client, ann, name, data, message):
    html = post(client, name, data).content.decode()
    assert message in html
    assert 'class="notice error"' in html


def test_over_the_limit_and_self_excluded_refusals(client, ann):
    post(client, "limit", {"period": "day", "amount": "150"})
    html = post(client, "deposit", {"amount": "60", "provider": "sandbox",
                                    "card_number": SANDBOX_OK}).content.decode()
    assert "Over your daily deposit limit of $150" in html

    post(client, "exclusion", {"days": "7", "confirm": "on"})
    html = post(client, "deposit", {"amount": "1", "provider": "sandbox",
                                    "card_number": SANDBOX_OK}).content.decode()
    assert "You are self-excluded until" in html


def test_withdraw_then_cancel_from_the_page(client, ann):
    html = post(client, "withdraw", {"amount": "40"}).content.decode()
    assert "Withdrawal of $40 requested: pending approval." in html
    assert "$60" in html
    row = Withdrawal.objects.get(user=ann)
    html = post(client, "withdrawal_cancel", {}, args=(row.pk,)).content.decode()
    assert "Withdrawal cancelled: $40 is back in your wallet." in html
    row.refresh_from_db()
    assert row.status == WithdrawalStatus.CANCELLED


def test_nobody_cancels_another_players_withdrawal(client, ann, make_player):
    bob = make_player("bob", real=5_000)
    row = withdrawal_request(user=bob, amount=1_000, idempotency_key=new_key())
    assert post(client, "withdrawal_cancel", {}, args=(row.pk,)).status_code == 404


def test_without_htmx_an_action_redirects_with_a_message(client, ann):
    response = post(client, "withdraw", {"amount": "5"}, htmx=False)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Withdrawal of $5 requested" in page


def test_raising_a_limit_says_when_it_takes_effect(client, ann):
    post(client, "limit", {"period": "week", "amount": "100"})
    html = post(client, "limit", {"period": "week", "amount": "500"}).content.decode()
    assert "Weekly deposit limit of $500: takes effect on" in html


def test_history_is_paginated_and_filterable(client, ann):
    for _ in range(25):
        post(client, "deposit", {"amount": "1", "provider": "sandbox", "card_number": SANDBOX_OK})
    first = client.get(reverse("cashier:history"), **HTMX).content.decode()
    assert "Page 1 of 2" in first
    play = client.get(reverse("cashier:history"), {"currency": "PLAY"}, **HTMX).content.decode()
    assert "<td>Play-money grant</td>" in play and "<td>Deposit</td>" not in play
    deposits = client.get(reverse("cashier:history"), {"kind": "deposit"}, **HTMX)
    assert "<td>Play-money grant</td>" not in deposits.content.decode()
    second = client.get(reverse("cashier:history"), {"page": 2}, **HTMX).content.decode()
    assert "Page 2 of 2" in second


def session_began(client, minutes_ago: float) -> None:
    """Move this browser session's start back (as if its login were that long ago)."""
    import datetime

    from django.utils import timezone

    from accounts.play_session import SESSION_STARTED_KEY

    session = client.session
    session[SESSION_STARTED_KEY] = (
        timezone.now() - datetime.timedelta(minutes=minutes_ago)).isoformat()
    session.save()


def test_the_session_reminder_shows_when_due(client, ann):
    post(client, "reminder", {"minutes": "30"})
    session_began(client, 31)
    assert "session-length reminder" in client.get(reverse("cashier:home")).content.decode()


def test_the_session_reminder_counts_from_this_sessions_start_not_the_last_login(client, ann):
    import datetime

    from django.utils import timezone

    post(client, "reminder", {"minutes": "30"})
    # An old login (another device's, or one from yesterday): this session began just now.
    ann.last_login = timezone.now() - datetime.timedelta(minutes=45)
    ann.save(update_fields=["last_login"])
    page = client.get(reverse("lobby")).content.decode()
    assert 'id="session-reminder" role="status" hidden data-due-in="' in page  # later…
    assert "js/session-reminder.js" in page  # …shown by the page itself when it falls due
    due_in = int(re.search(r'data-due-in="(\d+)"', page).group(1))
    assert 29 * 60 < due_in <= 30 * 60 + 1
    # This session began 31 minutes ago, though a login elsewhere since moved last_login.
    session_began(client, 31)
    ann.last_login = timezone.now()
    ann.save(update_fields=["last_login"])
    page = client.get(reverse("lobby")).content.decode()
    assert 'id="session-reminder" role="status">' in page and "data-due-in" not in page


def test_a_login_stamps_the_sessions_start(client, make_player):
    from accounts.play_session import SESSION_STARTED_KEY

    user = make_player("bea")
    user.set_password("a-long-pass-123")
    user.save()
    response = client.post(reverse("accounts:login"),
                           {"username": "bea", "password": "a-long-pass-123"})
    assert response.status_code == 302
    assert SESSION_STARTED_KEY in client.session


def test_each_pending_withdrawal_has_its_own_cancel_key(client, ann):
    post(client, "withdraw", {"amount": "10"})
    html = post(client, "withdraw", {"amount": "20"}).content.decode()
    keys = re.findall(r'name="idempotency_key" value="([0-9a-f-]+)"', html)
    assert len(keys) == len(set(keys))  # deposit, withdraw, reload and two cancel forms
    assert len(keys) == 5


def test_a_bank_transfer_deposit_waits_for_approval(client, ann):
    html = post(client, "deposit", {"amount": "75", "provider": "manual"}).content.decode()
    assert "Deposit of $75 requested: it is credited when a cashier confirms" in html
    assert "Waiting for approval" in html
    assert "$100" in html  # not credited yet


def test_an_action_tells_the_header_to_refresh_its_balances(client, ann):
    response = post(client, "deposit", {"amount": "12", "provider": "sandbox",
                                        "card_number": SANDBOX_OK})
    header = client.get(reverse("cashier:balances"))

    assert response["HX-Trigger"] == "cashier-changed"
    assert 'hx-trigger="cashier-changed from:body"' in header.content.decode()
    assert 'data-balance-currency="REAL" data-amount="11200"' in header.content.decode()


def test_each_form_on_the_page_has_its_own_field_ids(client, ann):
    html = client.get(reverse("cashier:home")).content.decode()

    ids = re.findall(r'\sid="([^"]+)"', html)
    assert 'id="deposit_amount"' in html and 'id="withdraw_amount"' in html
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_the_session_reminder_shows_on_every_page_once_due(client, ann):
    from cashier.services import session_reminder_set

    session_reminder_set(user=ann, minutes=30)
    session_began(client, 45)

    assert "session-length reminder" in client.get(reverse("lobby")).content.decode()
