"""The table page and finished hands' histories (events, seed, commitment: verifiable)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tables import services
from tables.engine import fairness
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_table_page_renders_with_the_socket_path(client, play_table):
    response = client.get(reverse("tables:table", args=[play_table.pk]))
    assert response.status_code == 200
    assert f'data-ws-path="/ws/tables/{play_table.pk}/"' in response.content.decode()
    assert client.get(reverse("tables:table", args=[999999])).status_code == 404


def test_a_self_excluded_player_is_told_why_and_offered_no_seat(client, play_table,
                                                                 make_player):
    from cashier.services import self_exclusion_start

    ann = make_player("ann")
    client.force_login(ann)
    url = reverse("tables:table", args=[play_table.pk])
    page = client.get(url).content.decode()
    assert 'data-sit-blocked=""' in page and "Pick an empty seat" in page
    self_exclusion_start(user=ann, days=30)
    page = client.get(url).content.decode()
    assert 'data-sit-blocked="1"' in page and "Pick an empty seat" not in page
    assert 'id="sit-blocked"' in page and "You are self-excluded until" in page
    assert "you cannot sit down at a table before then." in page
    watching = client.get(url, {"watch": "1"}).content.decode()
    assert "Play at this table" not in watching and "You are self-excluded" in watching


def test_hand_history_is_verifiable_and_private_until_shown(client, play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    hand = services.hand_start(table_id=play_table.pk, force=True)
    url = reverse("tables:hand_json", args=[hand.pk])
    assert client.get(url).status_code == 404  # not finished yet
    play_out(play_table.pk, passive=True)
    data = client.get(url).json()
    assert data["commitment"] == hand.commitment and data["proof"]["root"] == hand.commitment
    assert fairness.verify_hand(data) == []  # the board, proven to anyone
    assert data["own_openings"] == [] and "seed" not in data
    assert all("cards" not in e for e in data["events"] if e["type"] == "hole_cards")
    client.force_login(alice)
    own = client.get(url).json()
    mine = [e for e in own["events"] if e["type"] == "hole_cards" and "cards" in e]
    assert len(mine) == 1 and len(own["own_openings"]) == 2
    assert fairness.verify_hand(own) == []  # and her own cards, to her
    page = client.get(reverse("tables:hand", args=[hand.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and data["commitment"] in html
    # the page checks the deal in the browser: static/js/verify-page.js writes into #verify-result
    assert '<p id="verify-result" role="status"></p>' in html
    assert 'type="module" src="/static/js/verify-page.js"' in html
