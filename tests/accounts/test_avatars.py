"""Avatars (accounts/avatars.py): twelve built-in emblems or a pattern generated from the user
id, chosen in the profile, carried to the tables as a short key and drawn by one URL of the
room's — never an upload, never a URL made of what a player typed."""
from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.urls import reverse

from accounts.avatars import BUILT_IN, CHOICES, GENERATED, KEY_PATTERN, avatar_key, avatar_svg

pytestmark = pytest.mark.django_db

PROFILE = {"display_name": "", "email": "ann@example.com", "deck": "four",
           "table_theme": "green"}


def test_twelve_emblems_and_a_generated_pattern_each_draw_a_clean_svg() -> None:
    assert len(BUILT_IN) == 12 and [c for c, _ in CHOICES] == [GENERATED, *BUILT_IN]
    keys = [*BUILT_IN, avatar_key(1, GENERATED), avatar_key(2, GENERATED)]
    for key in keys:
        assert KEY_PATTERN.fullmatch(key), key
        svg = avatar_svg(key)
        root = ElementTree.fromstring(svg)  # well-formed
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert "style" not in svg and "<script" not in svg and "href" not in svg  # the CSP
    assert avatar_key(7, "moon") == "moon"


def test_the_generated_pattern_is_the_user_ids_own_and_always_the_same() -> None:
    mine, again, other = avatar_key(7, GENERATED), avatar_key(7, GENERATED), avatar_key(8, GENERATED)
    assert re.fullmatch(r"g[0-9a-f]{12}", mine) and mine == again and mine != other
    assert avatar_svg(mine) == avatar_svg(again) != avatar_svg(other)
    assert avatar_key(7, "no-such-emblem") == mine  # anything unknown: his own pattern


@pytest.mark.parametrize("key", ["", "g12", "G0123456789ab", "moon.svg", "x" * 9, "nosuch",
                                 "../etc", "javascript:alert(1)", "g0123456789abc"])
def test_anything_but_a_key_draws_nothing(client, key) -> None:
    assert avatar_svg(key) is None
    if "/" not in key and key:
        assert client.get(f"/accounts/avatars/{key}.svg").status_code == 404


def test_anyone_may_fetch_an_avatar_and_keep_it(client) -> None:
    """Spectators see the seats too: no login; a key draws one picture for ever."""
    answer = client.get(reverse("accounts:avatar", args=["moon"]))
    assert answer.status_code == 200 and answer["Content-Type"] == "image/svg+xml"
    assert "immutable" in answer["Cache-Control"]
    assert answer.content.decode() == avatar_svg("moon")
    assert client.post(reverse("accounts:avatar", args=["moon"])).status_code == 405


def test_the_profile_offers_every_avatar_and_saves_the_choice(client, make_user) -> None:
    ann = make_user("ann")
    assert ann.avatar == GENERATED and ann.avatar_key == avatar_key(ann.pk, GENERATED)
    client.force_login(ann)
    page = client.get(reverse("accounts:profile")).content.decode()
    for key in BUILT_IN:
        assert f'value="{key}"' in page and f'src="/accounts/avatars/{key}.svg"' in page
    assert f'src="/accounts/avatars/{ann.avatar_key}.svg"' in page  # his own pattern
    assert client.post(reverse("accounts:profile"), {**PROFILE, "avatar": "moon"}).status_code \
        == 302
    ann.refresh_from_db()
    assert (ann.avatar, ann.avatar_key) == ("moon", "moon")
    client.post(reverse("accounts:profile"), PROFILE)  # a form without it keeps it
    ann.refresh_from_db()
    assert ann.avatar == "moon"


def test_an_unknown_avatar_is_refused(client, make_user) -> None:
    ann = make_user("ann")
    client.force_login(ann)
    answer = client.post(reverse("accounts:profile"), {**PROFILE,
                                                       "avatar": "https://evil.example/x.svg"})
    assert answer.status_code == 200 and "is not one of the available choices" in \
        answer.content.decode()
    ann.refresh_from_db()
    assert ann.avatar == GENERATED
