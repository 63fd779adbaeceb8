"""The player pop-up's endpoints (tables/player_views.py): a viewer's own notes and his own
statistics only — another player's notes never appear in any answer — and bad input refused
with a reason."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tables import services
from tables.models import PlayerNote
from tables.services.hand_stats import hand_stats_count
from tests.tables.helpers import live, play_out

pytestmark = pytest.mark.django_db


def card(client, player) -> dict:
    response = client.get(reverse("tables:player_card", args=[player.pk]))
    assert response.status_code == 200
    return response.json()


def save(client, player, **data):
    return client.post(reverse("tables:player_note", args=[player.pk]), data)


def test_a_note_saved_from_the_pop_up_comes_back_on_it(client, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    client.force_login(ann)

    response = save(client, ben, tag="red", text="Shoves any ace")

    assert response.status_code == 200
    assert response.json()["note"] == {"tag": "red", "tag_label": "Red", "text": "Shoves any ace"}
    shown = card(client, ben)
    assert shown["name"] == ben.table_name and shown["you"] is False
    assert shown["avatar"] == ben.avatar_key  # drawn beside his name
    assert shown["note"]["text"] == "Shoves any ace"
    assert shown["stats"] == {"hands": 0, "vpip": None, "pfr": None, "three_bet": None,
                              "aggression": None}
    assert {"value": "red", "label": "Red"} in shown["tags"]


def test_other_players_notes_never_appear(client, make_user):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    PlayerNote.objects.create(owner=ann, subject=cy, tag="red", text="ann's secret read")
    PlayerNote.objects.create(owner=cy, subject=ben, tag="blue", text="cy's secret read")
    client.force_login(ben)

    assert card(client, cy)["note"] == {"tag": "", "tag_label": "No tag", "text": ""}
    assert card(client, ann)["note"]["text"] == ""
    listed = client.get(reverse("tables:player_notes"), {"ids": f"{ann.pk},{cy.pk},{ben.pk}"})
    assert listed.status_code == 200 and listed.json() == {"notes": {}}
    assert card(client, ben)["you"] is True and card(client, ben)["note"] is None
    for url in (reverse("tables:player_card", args=[cy.pk]), reverse("tables:player_notes")
                + f"?ids={ann.pk},{cy.pk}"):
        assert "secret" not in client.get(url).content.decode()


def test_the_table_list_gives_the_viewers_tags_by_player(client, make_user):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    client.force_login(ann)
    save(client, ben, tag="green", text="")
    save(client, cy, tag="", text="tight")

    notes = client.get(reverse("tables:player_notes"), {"ids": f"{ben.pk},{cy.pk}"}).json()

    assert notes == {"notes": {
        str(ben.pk): {"tag": "green", "tag_label": "Green", "text": ""},
        str(cy.pk): {"tag": "", "tag_label": "No tag", "text": "tight"}}}


def test_bad_input_is_refused_with_its_reason(client, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    client.force_login(ann)
    cases = [
        (save(client, ben, tag="pink", text="x"), 400, "bad_tag"),
        (save(client, ben, tag="", text="x" * 1001), 400, "note_too_long"),
        (save(client, ann, tag="red", text="me"), 400, "own_note"),
        (client.post(reverse("tables:player_note", args=[ben.pk + 99]), {"tag": "red"}), 404,
         "no_player"),
        (client.get(reverse("tables:player_card", args=[ben.pk + 99])), 404, "no_player"),
        (client.get(reverse("tables:player_notes"), {"ids": "1,two"}), 400, "bad_ids"),
        (client.get(reverse("tables:player_notes"), {"ids": ",".join(map(str, range(1, 30)))}),
         400, "too_many_ids"),
    ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["error"]) == (status, code)
        assert response.json()["message"]
    assert not PlayerNote.objects.exists()


def test_login_is_required(client, make_user):
    ben = make_user("ben")
    for response in (client.get(reverse("tables:player_card", args=[ben.pk])),
                     save(client, ben, tag="red", text="x"),
                     client.get(reverse("tables:player_notes"), {"ids": str(ben.pk)})):
        assert response.status_code == 401
        assert response.json()["error"] == "login_required"


def test_stats_count_only_the_hands_the_viewer_was_dealt_into(client, play_table, make_player,
                                                              sit, fake_timers):
    ann, ben, eve = make_player("ann"), make_player("ben"), make_player("eve")
    sit(play_table, ann, 1)
    sit(play_table, ben, 2)
    for _ in range(2):
        services.hand_start(table_id=play_table.pk, force=True)
        play_out(play_table.pk, passive=True)
        _ts, hand, _state = live(play_table.pk)
        hand_stats_count(hand_id=hand.pk)

    client.force_login(ann)
    assert card(client, ben)["stats"]["hands"] == 2
    assert card(client, ben)["stats"]["vpip"] is not None
    client.force_login(eve)  # watched nothing, dealt into nothing
    assert card(client, ben)["stats"] == {"hands": 0, "vpip": None, "pfr": None,
                                          "three_bet": None, "aggression": None}
