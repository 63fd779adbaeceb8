"""Staff open a finished hand's whole deck only through the audited reveal: recorded first
(who, when, why), shown once; a running hand's deck never."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tables import services
from tables.engine import fairness
from tables.models import DeckReveal
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_reveal_is_recorded_and_shows_every_position_once(client, play_table, make_player,
                                                            sit, make_user):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    hand = services.hand_start(table_id=play_table.pk, force=True)
    staff = make_user(username="boss", is_staff=True, is_superuser=True)
    client.force_login(staff)
    url = reverse("admin:tables_deckreveal_add")
    running = client.post(url, {"hand": hand.pk, "reason": "dispute #12"})
    assert running.status_code == 200 and b"never revealed" in running.content
    assert not DeckReveal.objects.exists()
    play_out(play_table.pk, passive=True)
    hand.refresh_from_db()
    shown = client.post(url, {"hand": hand.pk, "reason": "dispute #12"})
    assert shown.status_code == 200
    record = DeckReveal.objects.get()
    assert (record.hand_id, record.staff_id, record.reason) == (hand.pk, staff.pk, "dispute #12")
    dealt = fairness.dealt_deck(fairness.committed(hand.deck_key),
                                [e["value"] for e in hand.entropy])
    page = shown.content.decode()
    assert all(f"<td>{card}</td>" in page for card in dealt)
    # the audit trail names who looked, never the cards
    listing = client.get(reverse("admin:tables_deckreveal_change", args=[record.pk])).content
    assert b"dispute #12" in listing and dealt[0].encode() + b"</td>" not in listing


def test_a_reveal_needs_a_reason(client, make_user, play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    hand = services.hand_start(table_id=play_table.pk, force=True)
    play_out(play_table.pk, passive=True)
    client.force_login(make_user(username="boss", is_staff=True, is_superuser=True))
    answer = client.post(reverse("admin:tables_deckreveal_add"), {"hand": hand.pk, "reason": ""})
    assert answer.status_code == 200 and not DeckReveal.objects.exists()
