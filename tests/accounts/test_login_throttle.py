"""Login throttling (django-axes): too many wrong passwords for one account from one address pause
that account's log-ins from there, and many more from one address (across accounts) pause the
address, with a page that says when to retry; nobody can lock a player out from elsewhere; staff
lift the pause in admin."""
from __future__ import annotations

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")
LIMIT = settings.LOGIN_FAILURE_LIMIT


def log_in(client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def is_logged_in(client) -> bool:
    return client.get(reverse("accounts:profile")).status_code == 200


def test_the_configured_throttle_is_per_account_and_address_and_per_address():
    assert 5 <= LIMIT <= 10
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT >= 3 * LIMIT
    cool_off = settings.AXES_COOLOFF_TIME
    assert cool_off == datetime.timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_wrong_passwords_for_one_account_pause_its_log_ins_from_that_address(client, make_user):
    make_user("alice", password="alice-pass-123")
    for _ in range(LIMIT - 1):
        response = log_in(client, "alice", "guess")
        assert response.status_code == 200
        assert "Please enter a correct username and password." in response.content.decode()

    response = log_in(client, "alice", "guess")

    assert response.status_code == 429
    page = " ".join(response.content.decode().split())
    assert "Too many failed log-ins." in page
    assert "log-ins to this account from your network are paused for 15 minutes" in page
    assert "try again after" in page
    assert response["Retry-After"] == "900"
    assert 'name="username"' in page  # the login form is still there, for later

    # Even the right password is refused now from that address.
    assert log_in(client, "alice", "alice-pass-123").status_code == 429
    assert not is_logged_in(client)


def test_nobody_can_lock_a_player_out_from_elsewhere(client, make_user):
    """Failing the admin's username from one address used to pause his log-ins everywhere."""
    make_user("admin", password="admin-pass-123", is_staff=True, is_superuser=True)
    for _ in range(LIMIT + 5):
        log_in(client, "admin", "guess", address="203.0.113.66")
    assert log_in(client, "admin", "admin-pass-123", address="203.0.113.66").status_code == 429

    assert log_in(client, "admin", "admin-pass-123", address="198.51.100.4").status_code == 302
    assert is_logged_in(client)


def test_wrong_passwords_from_one_address_across_accounts_pause_that_address(
        client, make_user, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = address_limit = 2 * LIMIT + 1
    make_user("bob", password="bob-pass-123")
    # Many failures from one address, none reaching an account's limit, stay below the
    # address's own: a shared address (an office, a carrier's NAT) is not paused at LIMIT.
    for n in range(address_limit - 1):
        log_in(client, f"someone{n % 3}", "guess", address="203.0.113.9")
    assert log_in(client, "bob", "bob-pass-123", address="203.0.113.9").status_code == 302
    client.logout()

    log_in(client, "someone-else", "guess", address="203.0.113.9")  # the address's limit

    response = log_in(client, "bob", "bob-pass-123", address="203.0.113.9")
    assert response.status_code == 429
    page = " ".join(response.content.decode().split())
    assert "every log-in from your network is paused" in page
    assert not is_logged_in(client)
    # Bob's account is not paused: from his own address he logs in.
    assert log_in(client, "bob", "bob-pass-123", address="198.51.100.2").status_code == 302
    assert is_logged_in(client)


def test_a_few_mistakes_do_not_pause_anyone(client, make_user):
    make_user("alice", password="alice-pass-123")
    for _ in range(LIMIT - 1):
        log_in(client, "alice", "guess")

    assert log_in(client, "alice", "alice-pass-123").status_code == 302


def test_the_pause_ends_after_the_cool_off(client, make_user):
    make_user("alice", password="alice-pass-123")
    for _ in range(LIMIT):
        log_in(client, "alice", "guess")
    assert log_in(client, "alice", "alice-pass-123").status_code == 429

    sixteen_minutes_ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=16)
    AccessAttempt.objects.update(attempt_time=sixteen_minutes_ago)

    assert log_in(client, "alice", "alice-pass-123").status_code == 302


def test_staff_lift_a_pause_in_admin(client, make_user):
    make_user("alice", password="alice-pass-123")
    for _ in range(LIMIT):
        log_in(client, "alice", "guess")
    assert log_in(client, "alice", "alice-pass-123").status_code == 429

    staff = Client()  # the staff member's own browser
    staff.force_login(make_user("admin", is_staff=True, is_superuser=True))
    changelist = reverse("admin:axes_accessattempt_changelist")
    assert "alice" in staff.get(changelist).content.decode()
    attempts = list(AccessAttempt.objects.filter(username="alice").values_list("pk", flat=True))
    response = staff.post(changelist, {"action": "delete_selected", "_selected_action": attempts,
                                       "post": "yes"})
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="alice").exists()

    assert log_in(client, "alice", "alice-pass-123").status_code == 302
    assert is_logged_in(client)


def test_the_admin_login_is_throttled_too(client, make_user):
    make_user("admin", password="admin-pass-123", is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        client.post(reverse("admin:login"), {"username": "admin", "password": "guess"})

    response = client.post(reverse("admin:login"), {"username": "admin", "password": "admin-pass-123"})

    assert response.status_code == 429
    assert "Too many failed log-ins." in response.content.decode()
