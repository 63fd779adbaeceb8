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


def test_sign_up_answers_alike_for_a_new_and_a_registered_email(
        client, make_user, mailoutbox, django_capture_on_commit_callbacks):
    """Nobody learns from the sign-up whether an address plays here: both get the same answer,
    a registered address is not linked twice, and its owner is told by email."""
    make_user("existing", email="known@example.com")

    with django_capture_on_commit_callbacks(execute=True):
        fresh = client.post(reverse("accounts:signup"), signup_data(), follow=True)
    client.post(reverse("accounts:logout"))
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post(reverse("accounts:signup"), signup_data(
            username="another", email="Known@Example.com"), follow=True)

    assert fresh.redirect_chain == known.redirect_chain == [(reverse("lobby"), 302)]
    assert [m.message for m in fresh.context["messages"]] == [
        "Welcome to the room, newplayer! We sent a note to new@example.com."]
    assert [m.message for m in known.context["messages"]] == [
        "Welcome to the room, another! We sent a note to known@example.com."]
    assert User.objects.get(username="newplayer").email == "new@example.com"
    assert User.objects.get(username="another").email == ""  # not linked a second time
    assert User.objects.filter(email__iexact="known@example.com").count() == 1
    welcome, notice = mailoutbox
    assert welcome.to == ["new@example.com"] and "newplayer" in welcome.body
    assert notice.to == ["known@example.com"]
    assert "already belongs to an account of yours" in notice.body


def test_the_profile_does_not_link_another_accounts_email(
        client, make_user, mailoutbox, django_capture_on_commit_callbacks):
    make_user("bob", email="bob@example.com")
    alice = make_user("alice", email="alice@example.com")
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:profile"),
                               {"display_name": "", "email": "BOB@example.com"}, follow=True)

    assert "Profile saved. We sent a note to BOB@example.com." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert mailoutbox[0].to == ["BOB@example.com"]


def test_the_profile_changes_an_email_nobody_has(
        client, make_user, mailoutbox, django_capture_on_commit_callbacks):
    alice = make_user("alice", email="alice@example.com")
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:profile"),
                    {"display_name": "", "email": "alice@new.example.com"})

    alice.refresh_from_db()
    assert alice.email == "alice@new.example.com"
    assert mailoutbox[0].to == ["alice@new.example.com"]


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

    assert "That name belongs to another player." in response.content.decode()
