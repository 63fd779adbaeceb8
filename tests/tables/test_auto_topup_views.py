"""The auto top-up form on the table page: only the player himself sets his order."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import AutoTopUp

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_player_sets_changes_and_clears_his_order(client, play_table, make_player):
    alice = make_player("alice")
    client.force_login(alice)
    page = client.get(reverse("tables:table", args=[play_table.pk])).content.decode()
    assert 'id="auto-top-up"' in page and '<option value="off" selected>' in page
    url = reverse("tables:auto_top_up", args=[play_table.pk])

    response = client.post(url, {"mode": "below", "threshold_bb": "40"}, **HTMX)
    assert response.status_code == 200
    assert "Saved: below 40 BB, top up to the maximum." in response.content.decode()
    assert AutoTopUp.objects.filter(player=alice, table=play_table, mode="below",
                                    threshold_bb=40).exists()
    page = client.get(reverse("tables:table", args=[play_table.pk])).content.decode()
    assert '<option value="below" selected>' in page and 'value="40"' in page

    response = client.post(url, {"mode": "max"})  # without htmx: back to the table
    assert response.status_code == 302 and response["Location"].endswith(f"/{play_table.pk}/")
    assert AutoTopUp.objects.get(player=alice).mode == "max"

    response = client.post(url, {"mode": "off"}, **HTMX)
    assert "Saved: off." in response.content.decode()
    assert not AutoTopUp.objects.exists()


@pytest.mark.parametrize(("data", "error"), [
    ({"mode": "below", "threshold_bb": "0"}, "from 1 to 100"),
    ({"mode": "below", "threshold_bb": "lots"}, "whole number"),
    ({"mode": "always"}, "Choose off"),
])
def test_bad_input_is_refused_with_a_reason_and_changes_nothing(client, play_table, make_player,
                                                                  data, error):
    alice = make_player("alice")
    client.force_login(alice)
    AutoTopUp.objects.create(player=alice, table=play_table, mode="max")
    response = client.post(reverse("tables:auto_top_up", args=[play_table.pk]), data, **HTMX)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert AutoTopUp.objects.get(player=alice).mode == "max"


def test_strangers_and_wrong_methods_are_turned_away(client, play_table):
    url = reverse("tables:auto_top_up", args=[play_table.pk])
    assert client.post(url, {"mode": "max"}).status_code == 403
    assert client.get(url).status_code == 405
    assert client.post(reverse("tables:auto_top_up", args=[999999]), {}).status_code == 403
    assert not AutoTopUp.objects.exists()
