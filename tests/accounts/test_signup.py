"""Sign-up, login, logout and the profile page, through real HTTP requests."""
from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User, age_on

pytestmark = pytest.mark.django_db


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "newplayer",
        "email": "new@example.com",
        "date_of_birth": "1990-05-17",
        "password1": "a-long-pass-phrase-42",
        "password2": "a-long-pass-phrase-42",
        "confirm_age": "on",
    }
    data.update(overrides)
    return data


def test_an_adult_signs_up_and_is_logged_in(client):
    response = client.post(reverse("accounts:signup"), signup_data())

    assert response.status_code == 302
    user = User.objects.get(username="newplayer")
    assert user.date_of_birth == datetime.date(1990, 5, 17)
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_a_seventeen_year_old_is_refused_with_a_clear_message(client):
    today = timezone.localdate()
    seventeen = today.replace(year=today.year - 17).isoformat()

    response = client.post(reverse("accounts:signup"), signup_data(date_of_birth=seventeen))

    assert response.status_code == 200
    assert "You must be at least 18 years old to sign up." in response.content.decode()
    assert not User.objects.filter(username="newplayer").exists()


def test_someone_turning_eighteen_today_may_sign_up(client):
    today = timezone.localdate()
    try:
        birthday = today.replace(year=today.year - 18)
    except ValueError:  # today is 29 February
        birthday = today.replace(year=today.year - 18, day=28)

    response = client.post(reverse("accounts:signup"), signup_data(date_of_birth=birthday.isoformat()))

    assert response.status_code == 302


def test_the_age_confirmation_box_is_required(client):
    data = signup_data()
    del data["confirm_age"]

    response = client.post(reverse("accounts:signup"), data)

    assert "This field is required." in response.content.decode()
    assert not User.objects.exists()


def test_a_date_of_birth_in_the_future_is_refused(client):
    response = client.post(reverse("accounts:signup"), signup_data(date_of_birth="2999-01-01"))

    assert "The date of birth is in the future." in response.content.decode()


def test_a_duplicate_email_is_refused(client, make_user):
    make_user("existing", email="new@example.com")

    response = client.post(reverse("accounts:signup"), signup_data())

    assert "An account with this email already exists." in response.content.decode()


def test_mismatched_passwords_are_shown_inline(client):
    response = client.post(reverse("accounts:signup"), signup_data(password2="something-else-1"))

    assert 'class="field invalid"' in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("birth", "today", "age"),
    [
        (datetime.date(2000, 3, 1), datetime.date(2018, 2, 28), 17),
        (datetime.date(2000, 3, 1), datetime.date(2018, 3, 1), 18),
        (datetime.date(2000, 2, 29), datetime.date(2018, 2, 28), 17),
        (datetime.date(2000, 2, 29), datetime.date(2018, 3, 1), 18),
    ],
)
def test_age_on_counts_whole_years(birth, today, age):
    assert age_on(birth, today) == age


def test_login_and_logout(client, make_user):
    make_user("alice", password="alice-pass-123")

    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "alice-pass-123"})
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200

    client.post(reverse("accounts:logout"))
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_a_wrong_password_is_refused(client, make_user):
    make_user("alice", password="alice-pass-123")

    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()


def test_the_profile_sets_a_display_name_shown_in_the_header(client, make_user):
    user = make_user("alice")
    client.force_login(user)

    client.post(reverse("accounts:profile"), {"display_name": "Queen of Hearts", "email": user.email})

    user.refresh_from_db()
    assert user.display_name == "Queen of Hearts"
    assert "Queen of Hearts" in client.get(reverse("lobby")).content.decode()


def test_a_taken_display_name_is_refused(client, make_user):
    make_user("bob", display_name="Shark")
    alice = make_user("alice")
    client.force_login(alice)

    response = client.post(reverse("accounts:profile"), {"display_name": "shark", "email": alice.email})

    assert "That display name is taken." in response.content.decode()
