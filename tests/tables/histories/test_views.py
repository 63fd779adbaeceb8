"""Finished hands played through the services: the hand page, its replayer data, My hands
(filters, pages, login) and the downloads (PokerStars text, PHH) with their privacy rules."""
from __future__ import annotations

import datetime
import tomllib
import warnings

import pytest
from django.urls import reverse
from pokerkit import notation

from tables import services
from tables.engine import HandState, phh
from tables.histories.record import load_record
from tables.models import Hand
from tests.tables.histories.playing import check_down_first_shows_others_muck, fold_preflop

pytestmark = pytest.mark.django_db(transaction=True)

@pytest.fixture
def players(play_table, make_player, sit, fixed_seed):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    return alice, bob, carol


def test_the_record_rebuilt_from_the_database_replays_to_the_saved_stacks(players, play_table):
    alice, bob, _ = players
    hand = check_down_first_shows_others_muck(play_table.pk)
    record = load_record(Hand.objects.select_related("table").get(pk=hand.pk))
    state = HandState.from_json(hand.state)
    assert record.names == {1: "alice", 2: "bob"}
    hh = phh.from_hand(record.state, record.events)  # every card known: the full truth
    assert phh.replay(hh).stacks == [p.stack for p in state.players]
    for viewer in (alice.pk, bob.pk, None):
        from tables.histories import phh_export

        text = phh_export.hand_text(record, viewer)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, final = iter(notation.HandHistory.loads(text))
        assert list(final.stacks) == [p.stack for p in state.players]


def test_downloads_carry_the_downloaders_cards_only(client, players, play_table):
    alice, bob, carol = players
    hand = fold_preflop(play_table.pk)  # alice (button) folds: her cards are never shown
    state = HandState.from_json(hand.state)
    alice_cards = " ".join(state.player(1).hole)
    bob_cards = " ".join(state.player(2).hole)
    url = reverse("tables:hand_download", args=[hand.pk, "pokerstars"])

    client.force_login(alice)
    text = client.get(url).content.decode()
    assert f"Dealt to alice [{alice_cards}]" in text and bob_cards not in text
    assert text.startswith(f"PokerStars Hand #{hand.pk}:  Hold'em No Limit (1/2) - ")

    client.force_login(bob)
    response = client.get(url)
    assert response["Content-Disposition"] == f'attachment; filename="hand-{hand.pk}.txt"'
    text = response.content.decode()
    assert f"Dealt to bob [{bob_cards}]" in text and alice_cards not in text
    phh_text = client.get(reverse("tables:hand_download", args=[hand.pk, "phh"])).content.decode()
    assert phh_text.count("????") == 1 and alice_cards.replace(" ", "") not in phh_text

    client.force_login(carol)  # not in the hand: nothing to download
    assert client.get(url).status_code == 404
    assert client.get(reverse("tables:hand_download", args=[hand.pk, "exe"])).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302


def test_mucked_hands_stay_hidden_from_the_others(client, players, play_table, monkeypatch):
    alice, bob, _ = players
    for n in range(1, 20):  # fixed decks until one where the first to show wins (a muck)
        monkeypatch.setattr("tables.services.dealing.new_key", lambda n=n: bytes([n]).hex() * 32)
        hand = check_down_first_shows_others_muck(play_table.pk)
        state = HandState.from_json(hand.state)
        if any(p.mucked for p in state.players):
            break
    mucker = next(p for p in state.players if p.mucked)
    shower = next(p for p in state.players if p.shown)
    other = alice if shower.player_id == str(alice.pk) else bob
    client.force_login(other)
    for fmt in ("pokerstars", "phh"):
        text = client.get(reverse("tables:hand_download", args=[hand.pk, fmt])).content.decode()
        assert "".join(mucker.hole) not in text.replace(" ", "")
        assert "".join(shower.hole) in text.replace(" ", "")
    page = client.get(reverse("tables:hand", args=[hand.pk])).content.decode()
    assert " ".join(mucker.hole) not in page and " ".join(shower.hole) in page


def test_hand_page_lists_players_positions_actions_and_folds_the_proof(client, players, play_table):
    alice, _bob, _ = players
    hand = fold_preflop(play_table.pk)
    client.force_login(alice)
    html = client.get(reverse("tables:hand", args=[hand.pk])).content.decode()
    assert "BTN/SB" in html and ">BB<" in html
    assert "alice posts small blind 1" in html and "alice folds" in html
    assert "pot 3" in html  # 1 + 2 in the middle after the fold
    assert '<details class="hand-proof-box">' in html and hand.commitment in html
    assert 'src="/static/js/replayer.js"' in html and "<script>" not in html  # CSP: no inline
    data = client.get(reverse("tables:hand_json", args=[hand.pk])).json()
    steps = data["replay"]["steps"]
    assert [s["text"] for s in steps][1:4] == [
        "alice posts small blind 1", "bob posts big blind 2",
        f"Dealt to alice [{' '.join(HandState.from_json(hand.state).player(1).hole)}]",
    ]
    final = {s["name"]: s["stack"] for s in steps[-1]["frame"]["seats"]}
    assert final == {"alice": 199, "bob": 201}  # bob won alice's small blind
    # The last frame is the result, not an emptied pot: the pot (bob's uncalled 1 went back to
    # him, so 2) and who won it.
    assert (steps[-1]["kind"], steps[-1]["pot"], steps[-1]["pot_label"]) == ("win", 2, "2")
    assert {s["name"]: s["won"] for s in steps[-1]["frame"]["seats"]} == {"alice": 0, "bob": 2}
    # Nobody showed: a spectator's replay has no hole cards at all.
    client.logout()
    replay = client.get(reverse("tables:hand_json", args=[hand.pk])).json()["replay"]
    assert all(s["cards"] is None for step in replay["steps"] for s in step["frame"]["seats"])
    assert not any(step["text"].startswith("Dealt to") for step in replay["steps"])


def test_hands_in_progress_are_not_listed_or_downloadable(client, players, play_table):
    alice, _, _ = players
    hand = services.hand_start(table_id=play_table.pk, force=True)
    client.force_login(alice)
    assert client.get(reverse("tables:hand_download", args=[hand.pk, "phh"])).status_code == 404
    page = client.get(reverse("tables:my_hands"))
    assert page.status_code == 200 and page.context["count"] == 0


def test_my_hands_needs_a_login(client):
    for url in (reverse("tables:my_hands"),
                reverse("tables:my_hands_download", args=["pokerstars"])):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_my_hands_filters_by_table_date_and_outcome(client, players, play_table, make_table, sit):
    alice, bob, _ = players
    other = make_table(name="Elm", structure="NL", lower_stake=2, hand_pause_seconds=0)
    sit(other, alice, 1)
    sit(other, bob, 2)
    first = fold_preflop(play_table.pk)  # alice is the button: she folds and loses 1
    second = fold_preflop(play_table.pk)  # bob is the button now: he folds, alice wins 1
    elsewhere = fold_preflop(other.pk)
    Hand.objects.filter(pk=first.pk).update(
        started_at=datetime.datetime(2026, 1, 5, 12, tzinfo=datetime.UTC))
    client.force_login(alice)

    def listed(**query) -> list[int]:
        response = client.get(reverse("tables:my_hands"), query)
        assert response.status_code == 200
        return [row["hand"].pk for row in response.context["rows"]]

    assert listed() == [elsewhere.pk, second.pk, first.pk]
    assert listed(table=play_table.pk) == [second.pk, first.pk]
    assert listed(until="2026-01-31") == [first.pk]
    assert listed(since="2026-02-01") == [elsewhere.pk, second.pk]
    assert listed(outcome="won") == [second.pk]
    assert listed(outcome="lost") == [elsewhere.pk, first.pk]
    bad = client.get(reverse("tables:my_hands"), {"since": "2026-03-01", "until": "2026-02-01"})
    assert bad.status_code == 400

    # The download is the filtered selection, oldest first, in one file.
    url = reverse("tables:my_hands_download", args=["phh"])
    response = client.get(url, {"table": play_table.pk})
    assert response["Content-Disposition"] == 'attachment; filename="my-hands.phhs"'
    hands = tomllib.loads(response.content.decode())
    assert [hands[k]["hand"] for k in ("1", "2")] == [first.pk, second.pk]
    text = client.get(reverse("tables:my_hands_download", args=["pokerstars"]),
                      {"outcome": "won"}).content.decode()
    assert text.count("PokerStars Hand #") == 1 and f"Hand #{second.pk}:" in text
    assert client.get(url, {"since": "junk"}).status_code == 400


def test_my_hands_pages_hold_twenty_five_hands(client, players, play_table):
    alice, _, _ = players
    for _ in range(26):
        fold_preflop(play_table.pk)
    client.force_login(alice)
    first = client.get(reverse("tables:my_hands"))
    assert len(first.context["rows"]) == 25 and first.context["count"] == 26
    second = client.get(reverse("tables:my_hands"), {"page": 2})
    assert len(second.context["rows"]) == 1
