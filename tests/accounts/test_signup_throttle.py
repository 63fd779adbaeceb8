"""Sign-ups per address (accounts/throttle.py): each sign-up grants play money, so one network
makes at most SIGNUPS_PER_ADDRESS_PER_DAY accounts a UTC day; the next is answered 429 with a
message that says why and until when, and nothing of it is saved."""
from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from accounts.models import SignUpCount, User
from cashier.models import LedgerAccount

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")


def sign_up(client, n: int, address: str = "203.0.113.20"):
    client.logout()
    return client.post(SIGNUP, {
        "username": f"newplayer{n}", "email": f"new{n}@example.com",
        "date_of_birth": "1990-05-17", "password1": "a-long-pass-phrase-42",
        "password2": "a-long-pass-phrase-42", "confirm_age": "on",
    }, REMOTE_ADDR=address)


def test_the_default_is_a_few_sign_ups_a_day(settings):
    assert 3 <= settings.SIGNUPS_PER_ADDRESS_PER_DAY <= 10


def test_sign_ups_past_the_days_limit_from_one_address_are_refused_with_a_clear_429(
        client, settings):
    settings.SIGNUPS_PER_ADDRESS_PER_DAY = 3
    for n in range(3):
        assert sign_up(client, n).status_code == 302
    wallets = LedgerAccount.objects.count()

    response = sign_up(client, 3)

    assert response.status_code == 429
    page = " ".join(response.content.decode().split())
    assert "Too many accounts were created from your network today: at most 3 a day" in page
    assert 0 < int(response["Retry-After"]) <= 24 * 3600
    assert 'name="username"' in page
    assert not User.objects.filter(username="newplayer3").exists()
    assert LedgerAccount.objects.count() == wallets  # no play-money grant either
    assert SignUpCount.objects.get().count == 3  # the refused one is not counted


def test_other_addresses_and_the_next_day_are_not_throttled(client, settings):
    settings.SIGNUPS_PER_ADDRESS_PER_DAY = 1
    assert sign_up(client, 0).status_code == 302
    assert sign_up(client, 1).status_code == 429

    assert sign_up(client, 2, address="198.51.100.7").status_code == 302

    yesterday = datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=1)
    SignUpCount.objects.update(day=yesterday)
    assert sign_up(client, 3).status_code == 302
    assert SignUpCount.objects.filter(day=yesterday).count() == 0  # old days are forgotten


def test_an_ipv6_network_counts_as_one_address(client, settings):
    """An IPv6 client holds a /64: a new address per sign-up must not reset the count."""
    settings.SIGNUPS_PER_ADDRESS_PER_DAY = 2
    assert sign_up(client, 0, address="2001:db8:1:2::10").status_code == 302
    assert sign_up(client, 1, address="2001:db8:1:2:ffff::1").status_code == 302

    assert sign_up(client, 2, address="2001:db8:1:2::99").status_code == 429
    assert sign_up(client, 3, address="2001:db8:1:3::10").status_code == 302  # another /64
