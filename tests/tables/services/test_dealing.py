"""Worked examples of the fair deal's service: who may contribute entropy, for which deck, and
how a contribution fixes the deal; a hand dealt before the private deal keeps its seed."""
from __future__ import annotations

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from tables import services
from tables.engine import HandState, fairness
from tables.engine.deck import commitment as seed_commitment
from tables.models import DeckEntropy, Hand, TableState
from tables.services import dealing
from tables.services.dealing import entropy_add
from tests.tables.decks import dealt, deck_key_fix
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "3c" * 32
ALICE, BOB = "a1" * 32, "b2" * 32


@pytest.fixture
def two_seated(play_table, make_player, sit, monkeypatch):
    deck_key_fix(monkeypatch, KEY)
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    return play_table, alice, bob


def test_the_first_seat_commits_the_tables_first_deck(two_seated):
    table, _alice, _bob = two_seated
    ts = TableState.objects.get(pk=table.pk)
    assert ts.next_commitment == fairness.committed(KEY).root and ts.next_deck_key == KEY


def test_seated_players_contribute_once_to_the_next_deck_and_fix_its_deal(two_seated,
                                                                         make_player,
                                                                         monkeypatch):
    table, alice, bob = two_seated
    root = TableState.objects.get(pk=table.pk).next_commitment
    add = lambda user, value, c=root: entropy_add(  # noqa: E731
        table_id=table.pk, user_id=user.pk, commitment=c, value=value)
    assert add(alice, ALICE)
    assert not add(alice, BOB)  # once per player and deck
    assert not add(make_player("carol"), BOB)  # not seated
    assert not add(bob, BOB, c="0" * 64)  # not the table's next deck
    with pytest.raises(ValueError):
        add(bob, "not hex")
    assert add(bob, BOB)
    deck_key_fix(monkeypatch, "4d" * 32)  # the deck committed at this deal, for the next
    hand = services.hand_start(table_id=table.pk, force=True)
    assert hand.commitment == root
    assert sorted(e["value"] for e in hand.entropy) == [ALICE, BOB]
    assert {e["seat"] for e in hand.entropy} == {1, 2}
    deck = dealt(KEY, (ALICE, BOB))
    first = hand.state["players"][0]
    assert first["hole"] == [deck[0], deck[2]]
    assert not DeckEntropy.objects.exists()  # taken with the deal
    # the next deck is committed at once, for the next contributions
    ts = TableState.objects.get(pk=table.pk)
    assert ts.next_commitment == fairness.committed("4d" * 32).root
    assert hand.deck_key == KEY


def test_a_hand_dealt_before_the_private_deal_publishes_its_seed(two_seated):
    """A hand running when the migration came keeps the old scheme to its end."""
    table, _alice, _bob = two_seated
    seed = "5e" * 32
    hand = services.hand_start(table_id=table.pk, force=True)
    from tables.engine import HandState, shuffled_deck, start_hand

    state = HandState.from_json(hand.state)
    old, _ = start_hand(state.rules, _seats_of(state), state.button, seed=seed)
    Hand.objects.filter(pk=hand.pk).update(state=old.to_json(), fairness=fairness.LEGACY,
                                           commitment=seed_commitment(seed), deck_key="")
    play_out(table.pk, passive=True)
    hand.refresh_from_db()
    assert hand.seed == seed and hand.finished_at is not None
    data = HttpClient().get(reverse("tables:hand_json", args=[hand.pk])).json()
    assert data["proof"] == {"scheme": "seed-v1", "commitment": seed_commitment(seed),
                             "seed": seed}
    assert fairness.verify_hand(data) == []
    assert data["result"]["board"] == [shuffled_deck(seed)[k] for k in (5, 6, 7, 9, 11)]


def test_a_hands_proof_and_a_players_openings_come_from_one_tree(two_seated, monkeypatch):
    """The hand's page asks once: the public proof (board and shown cards) and the viewer's own
    openings are cut from one Merkle tree, from the state the record already parsed."""
    table, alice, _bob = two_seated
    hand = services.hand_start(table_id=table.pk, force=True)
    services.act(table_id=table.pk, user_id=alice.pk, action="fold")  # nobody shows
    hand.refresh_from_db()
    built, build = [], fairness.committed
    monkeypatch.setattr(fairness, "committed", lambda key: built.append(key) or build(key))
    state = HandState.from_json(hand.state)
    proof = dealing.hand_proof(hand, state, 1)
    assert built == [KEY]
    n, me = len(state.players), [p.seat for p in state.players].index(1)
    assert [o["deal"] for o in proof.public["openings"]] == []  # no board, nothing shown
    assert [o["deal"] for o in proof.own_openings] == list(fairness.hole_deals(n, me))
    assert dealing.hand_proof(hand, state, None).own_openings == []


def _seats_of(state):
    from tables.engine import SeatIn

    return [SeatIn(seat=p.seat, player_id=p.player_id, stack=p.start_stack)
            for p in state.players]
