"""A player's own table hotkeys: the pure check (accounts/hotkeys.py) and the profile's
endpoint, POST /accounts/profile/hotkeys/, which saves them or answers 400 saying why."""
from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from accounts.hotkeys import DEFAULTS, HotkeyError, check_hotkeys, hotkeys_of

MINE = {"fold": "q", "check_call": "w", "bet_raise": "E", "min": "F1", "half_pot": "F2",
        "pot": "F3", "all_in": "F4"}


# The check --------------------------------------------------------------------------------
def test_letters_are_kept_in_lower_case_and_f_keys_as_they_are():
    assert check_hotkeys(MINE) == {**MINE, "bet_raise": "e"}


def test_the_room_s_keys_pass_their_own_check():
    assert check_hotkeys(DEFAULTS) == DEFAULTS


@pytest.mark.parametrize(("change", "reason"), [
    ({"pot": "q"}, "Q is set twice: for Fold and for Pot."),
    ({"pot": "Q"}, "Q is set twice: for Fold and for Pot."),  # the same key, shifted
    ({"fold": "Enter"}, "Fold: Enter is used by the table itself; pick another key."),
    ({"fold": " "}, "Fold: Space is used by the table itself; pick another key."),
    ({"all_in": "F5"}, "All-in: F5 is used by the table itself; pick another key."),
    ({"min": "ArrowUp"}, "Minimum bet or raise: ArrowUp is used by the table itself"),
    ({"min": "qq"}, "'qq' is not a key you can set"),
    ({"min": "F13"}, "'F13' is not a key you can set"),
    ({"min": ""}, "Minimum bet or raise: Each action needs a key."),
    ({"min": 7}, "Each action needs a key."),
    ({"dance": "x"}, "Unknown action: dance."),
])
def test_a_map_with_a_bad_key_is_refused_with_the_reason(change, reason):
    with pytest.raises(HotkeyError) as refused:
        check_hotkeys({**MINE, **change})
    assert reason in str(refused.value)


def test_every_action_needs_a_key():
    with pytest.raises(HotkeyError, match=r"No key for: Pot, All-in\."):
        check_hotkeys({k: v for k, v in MINE.items() if k not in ("pot", "all_in")})


def test_a_player_without_keys_or_with_stale_ones_plays_with_the_room_s():
    assert hotkeys_of({}) == DEFAULTS
    assert hotkeys_of({"fold": "q"}) == DEFAULTS  # saved before a new action existed
    assert hotkeys_of(MINE)["fold"] == "q"


# The endpoint -----------------------------------------------------------------------------
@pytest.mark.django_db
def test_saved_keys_reach_the_table_page_and_the_profile_shows_them(client, make_user, make_table):
    ann = make_user("ann")
    client.force_login(ann)

    answer = client.post(reverse("accounts:hotkeys"), MINE, HTTP_ACCEPT="application/json")

    assert answer.status_code == 200
    assert answer.json() == {"message": "Hotkeys saved.", "keys": {**MINE, "bet_raise": "e"}}
    ann.refresh_from_db()
    assert ann.hotkeys["min"] == "F1"
    table = client.get(reverse("tables:table", args=[make_table().pk])).content.decode()
    sent = re.search(r'data-hotkeys="([^"]*)"', table).group(1)
    assert json.loads(html.unescape(sent)) == ann.hotkeys
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert 'name="bet_raise" value="E"' in profile and "Use these keys" in profile


@pytest.mark.django_db
def test_a_plain_form_post_comes_back_to_the_profile(client, make_user):
    client.force_login(make_user("ann"))
    answer = client.post(reverse("accounts:hotkeys"), MINE)
    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:profile")


@pytest.mark.django_db
def test_a_key_set_twice_is_refused_with_400_and_nothing_is_saved(client, make_user):
    ann = make_user("ann")
    client.force_login(ann)

    as_json = client.post(reverse("accounts:hotkeys"), {**MINE, "pot": "q"},
                          HTTP_ACCEPT="application/json")
    as_form = client.post(reverse("accounts:hotkeys"), {**MINE, "fold": "Enter"})

    assert as_json.status_code == 400
    assert as_json.json() == {"error": "Q is set twice: for Fold and for Pot."}
    assert as_form.status_code == 400
    assert "Enter is used by the table itself" in as_form.content.decode()
    ann.refresh_from_db()
    assert ann.hotkeys == {}


@pytest.mark.django_db
def test_a_visitor_gets_the_room_s_keys_and_may_not_save_any(client, make_table):
    answer = client.post(reverse("accounts:hotkeys"), MINE)
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    table = client.get(reverse("tables:table", args=[make_table().pk])).content.decode()
    sent = re.search(r'data-hotkeys="([^"]*)"', table).group(1)
    assert json.loads(html.unescape(sent)) == DEFAULTS


@pytest.mark.django_db
def test_only_post_saves(client, make_user):
    client.force_login(make_user("ann"))
    assert client.get(reverse("accounts:hotkeys")).status_code == 405
