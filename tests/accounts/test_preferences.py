"""The player's table preferences in his profile: deck, theme and his own bet-size buttons."""
from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PROFILE = {"display_name": "", "email": "ann@example.com", "deck": "two",
           "table_theme": "blue"}


def test_the_profile_saves_deck_theme_and_bet_sizes_and_the_table_page_carries_them(
        client, make_user, make_table):
    ann = make_user("ann")
    client.force_login(ann)
    answer = client.post(reverse("accounts:profile"), {
        **PROFILE, "preflop_sizes": "4, 2.5 3", "postflop_sizes": "60;33"})

    assert answer.status_code == 302
    ann.refresh_from_db()
    assert (ann.deck, ann.table_theme) == ("two", "blue")
    assert ann.bet_presets == {"preflop": [2.5, 3.0, 4.0], "postflop": [33, 60]}
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'value="2.5, 3, 4"' in page and 'value="33, 60"' in page
    table = client.get(reverse("tables:table", args=[make_table().pk])).content.decode()
    presets = re.search(r'data-presets="([^"]*)"', table).group(1)
    assert json.loads(html.unescape(presets)) == ann.bet_presets
    assert 'data-deck="two" data-theme="blue"' in table


@pytest.mark.parametrize(("field", "value"), [
    ("preflop_sizes", "2x"), ("preflop_sizes", "1"), ("preflop_sizes", "2, 3, 4, 5, 6"),
    ("preflop_sizes", "2.55"), ("postflop_sizes", "33.5"), ("postflop_sizes", "500")])
def test_sizes_out_of_range_are_refused_and_nothing_is_saved(client, make_user, field, value):
    ann = make_user("ann")
    client.force_login(ann)
    answer = client.post(reverse("accounts:profile"), {**PROFILE, field: value})
    page = answer.content.decode()
    assert answer.status_code == 200  # the form again, with the reason
    assert "Up to four" in page or "Give numbers" in page
    ann.refresh_from_db()
    assert ann.bet_presets == {} and ann.deck == "four"


def test_clearing_the_sizes_brings_back_the_rooms(client, make_user):
    ann = make_user("ann")
    ann.bet_presets = {"preflop": [2.0]}
    ann.save()
    client.force_login(ann)
    client.post(reverse("accounts:profile"), {**PROFILE, "preflop_sizes": ""})
    ann.refresh_from_db()
    assert ann.bet_presets == {}
