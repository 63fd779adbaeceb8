"""Worked examples of what a snapshot says about the hand: who posted the blinds, the dealing
order, and the recent hands (commitment and a one-line summary; never a deck secret)."""
from __future__ import annotations

import pytest

from tables import services
from tables.events import snapshot_problems
from tables.services.chat import chat_say
from tables.snapshots import table_snapshot
from tests.tables.decks import dealt, deck_key_fix
from tests.tables.helpers import play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "00" * 31 + "45"  # a fixed deal, so the showdown below is always the same


@pytest.fixture
def fixed_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    deck_key_fix(monkeypatch, KEY)


def test_three_handed_blinds_and_dealing_order(play_table, make_player, sit):
    carol, alice, bob = make_player("carol"), make_player("alice"), make_player("bob")
    sit(play_table, carol, 5)
    sit(play_table, alice, 1)
    sit(play_table, bob, 3)
    assert table_snapshot(table_id=play_table.pk, user_id=None)["hand"] is None
    services.hand_start(table_id=play_table.pk, force=True)
    hand = table_snapshot(table_id=play_table.pk, user_id=None)["hand"]
    # carol sat first: the button is on 5; cards go clockwise from its left, the button last
    assert hand["deal_order"] == [1, 3, 5]
    assert hand["blinds"] == {"sb": 1, "bb": 3, "straddle": None}
    assert len(hand["commitment"]) == 64 and "seed" not in hand


def test_heads_up_the_button_posts_the_small_blind_and_gets_the_second_card(
        play_table, make_player, sit):
    ann, ben = make_player("ann"), make_player("ben")
    sit(play_table, ann, 2)
    sit(play_table, ben, 4)
    services.hand_start(table_id=play_table.pk, force=True)
    hand = table_snapshot(table_id=play_table.pk, user_id=ben.pk)["hand"]
    assert hand["deal_order"] == [4, 2]
    assert hand["blinds"] == {"sb": 2, "bb": 4, "straddle": None}


def test_recent_hands_carry_commitment_and_summary(play_table, make_player, sit, fixed_deck):
    ann, ben = make_player("ann"), make_player("ben")
    sit(play_table, ann, 1)
    sit(play_table, ben, 2)
    first = services.hand_start(table_id=play_table.pk, force=True)
    # hand 1: ann (button, small blind) folds; ben gets his uncalled 1 back and collects a
    # pot of 2 without a showdown
    services.act(table_id=play_table.pk, user_id=ann.pk, action="fold")
    second = services.hand_start(table_id=play_table.pk, force=True)
    running = table_snapshot(table_id=play_table.pk, user_id=ann.pk)
    assert [h["id"] for h in running["recent_hands"]] == [first.pk]  # not the running one
    # hand 2: ben has the button now; both check it down and his pair of Aces wins
    assert to_act_user(play_table.pk) == ben.pk
    play_out(play_table.pk, passive=True)
    snap = table_snapshot(table_id=play_table.pk, user_id=None)
    newest, older = snap["recent_hands"]
    assert (newest["id"], older["id"]) == (second.pk, first.pk)
    assert older["summary"] == "ben wins 2"
    assert newest["summary"] == "ben wins 4 with a pair of Aces"
    assert [row["commitment"] for row in (newest, older)] == [second.commitment,
                                                               first.commitment]
    assert KEY not in str(snap)
    assert snap["hand"]["result"]["board"] == [dealt(KEY)[k] for k in (5, 6, 7, 9, 11)]


def test_a_snapshot_has_exactly_the_declared_shape(make_table, make_player, sit, fixed_deck):
    """Every key of a real snapshot is declared (tables/events.py `Snapshot`) and every declared
    key is there, at every level, with values of the declared types: a spectator's before the
    first hand, a player's on his turn (time bank, chat, a hand finished before) and after the
    showdown."""
    table = make_table(name="Elm", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0, time_bank_seconds=30,
                       time_bank_cap_seconds=60)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)
    snaps = [table_snapshot(table_id=table.pk, user_id=None)]
    chat_say(table_id=table.pk, user_id=ann.pk, text="good luck")
    services.hand_start(table_id=table.pk, force=True)
    services.act(table_id=table.pk, user_id=ann.pk, action="fold")
    services.hand_start(table_id=table.pk, force=True)
    on_turn = table_snapshot(table_id=table.pk, user_id=to_act_user(table.pk))
    snaps += [on_turn, table_snapshot(table_id=table.pk, user_id=None)]
    play_out(table.pk, passive=True)
    snaps.append(table_snapshot(table_id=table.pk, user_id=ann.pk))
    # the optional parts are there to be checked
    assert snaps[0]["hand"] is None and on_turn["you"]["legal"] is not None
    assert on_turn["table"]["time_bank"] and on_turn["chat"] and on_turn["recent_hands"]
    assert snaps[-1]["hand"]["is_over"] and snaps[-1]["hand"]["result"]
    for snap in snaps:
        assert snapshot_problems(snap) == [], snap


def test_summary_of_a_split_pot_and_real_money(make_table, make_player, sit):
    from tables.recent import hand_summary

    table = make_table(name="Dollars", currency="REAL", lower_stake=100)
    result = {"pots": [{"amount": 1050, "eligible": [1, 2, 3], "winners": [1, 3],
                        "shares": [[1, 525], [3, 525]],
                        "hands": [[1, "a straight, Nine high"], [3, "a straight, Nine high"]]},
                       {"amount": 200, "eligible": [2, 3], "winners": [3], "shares": [[3, 200]]}]}
    assert hand_summary(result, {1: "ann", 2: "ben", 3: "cat"}, table) == (
        "cat wins $7.25 with a straight, Nine high, ann wins $5.25 with a straight, Nine high")
