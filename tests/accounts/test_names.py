"""Display names may not pass for another player: not another's username (staff too), not
another's display name, not the house's titles, not with case, width or invisible tricks."""
from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from tests.accounts.test_signup import signup_data

pytestmark = pytest.mark.django_db


def set_display_name(client, user: User, name: str) -> str:
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": name, "email": user.email})
    return response.content.decode() if response.status_code == 200 else ""


@pytest.mark.parametrize("name", ["bob", "BOB", "Bob", " bob ", "\uff42\uff4f\uff42"])  # last: full-width
def test_a_display_name_may_not_be_another_players_username(client, make_user, name):
    make_user("bob")
    alice = make_user("alice")

    page = set_display_name(client, alice, name)

    assert "That name belongs to another player." in page
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_a_display_name_may_not_be_a_staff_members_username(client, make_user):
    make_user("pitboss", is_staff=True)
    alice = make_user("alice")

    assert "That name belongs to another player." in set_display_name(client, alice, "PitBoss")


def test_a_display_name_may_not_be_another_players_display_name(client, make_user):
    make_user("bob", display_name="Queen of Hearts")
    alice = make_user("alice")

    assert "That name belongs to another player." in set_display_name(client, alice, "queen  of hearts")


@pytest.mark.parametrize("name", ["Admin", "support", "Dealer", "Poker Room"])
def test_the_houses_titles_are_reserved_for_staff(client, make_user, name):
    alice = make_user("alice")
    assert "That name belongs to another player." in set_display_name(client, alice, name)

    staff = make_user("helpdesk", is_staff=True)
    assert set_display_name(client, staff, name) == ""  # saved (redirect)
    staff.refresh_from_db()
    assert staff.display_name == name


def test_invisible_characters_are_refused(client, make_user):
    alice = make_user("alice")

    assert "Use visible characters only." in set_display_name(client, alice, "bo\u200bb")


def test_look_alike_letters_from_another_alphabet_are_refused(client, make_user):
    make_user("alice")
    bob = make_user("bob")
    cyrillic_a = "\u0430"

    page = set_display_name(client, bob, f"{cyrillic_a}lice")

    assert "Use letters of one alphabet" in page
    client.logout()
    response = client.post(reverse("accounts:signup"), signup_data(username=f"{cyrillic_a}lice"))
    assert "Use letters of one alphabet" in response.content.decode()


def test_names_in_other_alphabets_are_welcome(client, make_user):
    bob = make_user("bob")

    set_display_name(client, bob, "\u0394\u03ad\u03bb\u03c4\u03b1")  # Greek "Delta"

    bob.refresh_from_db()
    assert bob.display_name == "\u0394\u03ad\u03bb\u03c4\u03b1"


def test_ones_own_username_or_a_free_name_is_fine(client, make_user):
    make_user("bob")
    alice = make_user("alice")

    set_display_name(client, alice, "ALICE")
    alice.refresh_from_db()
    assert alice.display_name == "ALICE"
    set_display_name(client, alice, "  River   Rat ")
    alice.refresh_from_db()
    assert alice.display_name == "River Rat"


def test_sign_up_may_not_take_a_name_another_player_shows(client, make_user):
    make_user("bob", display_name="Shark")

    response = client.post(reverse("accounts:signup"), signup_data(username="shark"))

    assert "That name belongs to another player." in response.content.decode()
    assert not User.objects.filter(username="shark").exists()


def test_sign_up_may_not_take_a_username_differing_only_in_case(client, make_user):
    make_user("bob")

    response = client.post(reverse("accounts:signup"), signup_data(username="Bob"))

    assert "A user with that username already exists." in response.content.decode()


def test_sign_up_may_not_take_a_house_title(client):
    response = client.post(reverse("accounts:signup"), signup_data(username="Support"))

    assert "That name belongs to another player." in response.content.decode()
