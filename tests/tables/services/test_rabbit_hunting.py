"""Worked examples of the rabbit hunt (tables/services/rabbit_hunting.py): a hand folded to one
player before the river, a player dealt in asks, and the whole table sees the board that would
have come — proven against the deck's commitment, with the hand's result and history as they
were."""
from __future__ import annotations

import pytest

from tables import services
from tables.engine import HandState, fairness
from tables.events import problems
from tables.histories.record import load_record
from tables.models import Hand, HandEvent
from tables.snapshots import table_snapshot
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def rabbit_table(make_table):
    """Heads-up no-limit 1/2 that offers the rabbit hunt, with a 30 s pause between hands."""
    return make_table(name="Warren", structure="NL", lower_stake=2, max_seats=6,
                      hand_pause_seconds=30, rabbit_hunt_allowed=True)


def fold_out(table, users, sit) -> tuple[Hand, int]:
    """Seat the users, deal a hand and fold it preflop: (the hand, who folded)."""
    for number, user in enumerate(users, start=1):
        sit(table, user, number)
    services.hand_start(table_id=table.pk, force=True)
    folder = to_act_user(table.pk)
    ts, hand, _ = live(table.pk)
    services.act(table_id=table.pk, user_id=folder, action="fold", expected_version=ts.version)
    return Hand.objects.get(pk=hand.pk), folder


def test_the_folder_hunts_the_rabbit_and_everybody_sees_the_five_cards(
        rabbit_table, make_player, sit):
    """Ann folds her button preflop. She asks: the five board cards the deck held for this hand
    are turned up for the table, each proven at its committed position; the hand still has no
    board, the same result, and its history does not mention the rabbit."""
    ann, ben = make_player("ann"), make_player("ben")
    hand, folder = fold_out(rabbit_table, [ann, ben], sit)
    before = dict(hand.state)
    event = services.rabbit_hunt(table_id=rabbit_table.pk, user_id=folder, hand_id=hand.pk)
    state = HandState.from_json(hand.state)
    n = len(state.players)
    dealt = fairness.dealt_deck(fairness.committed(hand.deck_key),
                                [e["value"] for e in hand.entropy])
    assert event["cards"] == [dealt[k] for k in fairness.board_deals(n, 5)]
    assert event["board"] == [] and event["hand_id"] == hand.pk
    assert event["seat"] == state.players[[p.player_id for p in state.players]
                                          .index(str(folder))].seat
    assert problems(event) == []
    order = fairness.deal_order(hand.commitment, [e["value"] for e in hand.entropy])
    assert [o["deal"] for o in event["openings"]] == fairness.board_deals(n, 5)
    assert all(fairness.opening_problems(hand.commitment, order, o) == []
               for o in event["openings"])
    last = HandEvent.objects.filter(table=rabbit_table).latest("version")
    assert (last.type, last.hand_id, last.payload, last.private_payload) == (
        "rabbit_hunt", hand.pk, event, None)  # one public copy: the table sees it
    assert Hand.objects.get(pk=hand.pk).state == before  # the hand is unchanged
    record = load_record(Hand.objects.get(pk=hand.pk))
    assert record.state.board == [] and "rabbit_hunt" not in {e["type"] for e in record.events}
    seen = table_snapshot(table_id=rabbit_table.pk, user_id=None)
    assert seen["hand"]["rabbit"] == event["cards"] and seen["hand"]["board"] == []
    assert seen["table"]["rabbit_hunt"] is True


def test_the_winner_may_ask_on_the_turn_and_sees_only_the_river(
        rabbit_table, make_player, sit):
    ann, ben = make_player("ann"), make_player("ben")
    for number, user in enumerate((ann, ben), start=1):
        sit(rabbit_table, user, number)
    services.hand_start(table_id=rabbit_table.pk, force=True)
    while len(live(rabbit_table.pk)[2].board) < 4:  # check and call to the turn
        ts, _hand, state = live(rabbit_table.pk)
        action = "call" if state.current_bet > state.players[state.to_act].bet else "check"
        services.act(table_id=rabbit_table.pk, user_id=to_act_user(rabbit_table.pk),
                     action=action, expected_version=ts.version)
    bettor = to_act_user(rabbit_table.pk)
    ts, hand, _ = live(rabbit_table.pk)
    services.act(table_id=rabbit_table.pk, user_id=bettor, action="bet", amount=4,
                 expected_version=ts.version)
    ts, _, _ = live(rabbit_table.pk)
    services.act(table_id=rabbit_table.pk, user_id=to_act_user(rabbit_table.pk),
                 action="fold", expected_version=ts.version)
    hand = Hand.objects.get(pk=hand.pk)
    event = services.rabbit_hunt(table_id=rabbit_table.pk, user_id=bettor, hand_id=hand.pk)
    dealt = fairness.dealt_deck(fairness.committed(hand.deck_key),
                                [e["value"] for e in hand.entropy])
    assert len(event["board"]) == 4 and event["cards"] == [dealt[fairness.board_deals(2, 5)[4]]]
    assert [o["deal"] for o in event["openings"]] == fairness.board_deals(2, 5)[4:]


def refusal(**kwargs) -> str:
    with pytest.raises(services.TableError) as refused:
        services.rabbit_hunt(**kwargs)
    return refused.value.code


def test_each_refusal_names_the_problem(rabbit_table, make_table, make_player, sit):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    for number, user in enumerate((ann, ben), start=1):
        sit(rabbit_table, user, number)
    services.hand_start(table_id=rabbit_table.pk, force=True)
    _ts, running, _ = live(rabbit_table.pk)
    ids = {"table_id": rabbit_table.pk, "hand_id": running.pk}
    assert refusal(**ids, user_id=ann.pk) == "hand_not_over"
    ts = live(rabbit_table.pk)[0]
    services.act(table_id=rabbit_table.pk, user_id=to_act_user(rabbit_table.pk),
                 action="fold", expected_version=ts.version)
    assert refusal(**ids, user_id=cat.pk) == "not_dealt_in"  # a spectator
    assert refusal(table_id=rabbit_table.pk, hand_id=running.pk + 99,
                   user_id=ann.pk) == "no_hand"
    services.rabbit_hunt(**ids, user_id=ann.pk)
    assert refusal(**ids, user_id=ben.pk) == "already_shown"  # once a hand
    services.hand_start(table_id=rabbit_table.pk, force=True)
    assert refusal(**ids, user_id=ann.pk) == "too_late"  # the next hand was dealt
    play_out(rabbit_table.pk, passive=True)  # checked down to the river
    _ts, river, _ = live(rabbit_table.pk)
    assert refusal(table_id=rabbit_table.pk, hand_id=river.pk, user_id=ann.pk) == \
        "board_complete"
    plain = make_table(name="Burrow", structure="NL", lower_stake=2)  # the option is off
    hand, folder = fold_out(plain, [ann, ben], sit)
    assert refusal(table_id=plain.pk, hand_id=hand.pk, user_id=folder) == "not_allowed"
    assert table_snapshot(table_id=plain.pk, user_id=None)["hand"]["rabbit"] is None
