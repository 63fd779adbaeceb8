"""Run it twice at a live table (tables/services/running.py, the offer's deadline in
steps.py and timeouts.py): both players all in preflop are asked; both say twice and the hand
ends with two boards, the pot split and the deal still proven; silence by the deadline is
"once"."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tables import services
from tables.engine import HandState, fairness
from tables.events import problems as events_problems
from tables.histories import pokerstars
from tables.histories.record import load_record
from tables.models import Hand, HandEvent
from tables.services.dealing import hand_proof
from tests.tables.helpers import live, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def all_in(make_table, make_player, sit):
    """Heads-up NL 1/2 offering run it twice: the button moves all in, the big blind calls."""
    table = make_table(name="Twice", structure="NL", lower_stake=2, max_seats=6,
                       run_it_twice_allowed=True, hand_pause_seconds=30)
    ann, ben = make_player("ann"), make_player("ben")
    sit(table, ann, 1)
    sit(table, ben, 2)
    services.hand_start(table_id=table.pk, force=True)
    first = to_act_user(table.pk)
    services.act(table_id=table.pk, user_id=first, action="raise", amount=200)
    services.act(table_id=table.pk, user_id=to_act_user(table.pk), action="call")
    return table, ann, ben


def kinds(hand) -> list[str]:
    return list(HandEvent.objects.filter(hand=hand).order_by("version")
                .values_list("type", flat=True))


def test_both_say_twice_two_boards_the_pot_split_and_the_deal_proven(all_in):
    table, ann, ben = all_in
    _ts, hand, state = live(table.pk)
    offer = HandEvent.objects.get(hand=hand, type="run_twice_offer").payload
    assert sorted(offer["seats"]) == [1, 2] and offer["deadline"]
    assert hand.deadline is not None and hand.finished_at is None and state.board == []
    services.hand_run_twice(table_id=table.pk, user_id=ann.pk, twice=True)
    assert live(table.pk)[1].finished_at is None  # waits for ben
    with pytest.raises(services.TableError) as refused:
        services.hand_run_twice(table_id=table.pk, user_id=ann.pk, twice=False)
    assert refused.value.code == "already_answered"
    services.hand_run_twice(table_id=table.pk, user_id=ben.pk, twice=True)
    hand = Hand.objects.get(pk=hand.pk)
    state = HandState.from_json(hand.state)
    assert hand.finished_at is not None and len(state.board) == len(state.board2) == 5
    assert set(state.board).isdisjoint(state.board2)  # all in preflop: nothing shared
    assert kinds(hand).count("second_board") == 3
    [pot] = state.result["pots"]
    assert [r["amount"] for r in pot["runs"]] == [200, 200]
    assert sum(p.stack for p in state.players) == 400
    # The fair deal: the second board's cards are opened publicly and verify.
    proof = hand_proof(hand, state, None)
    events = [e.payload for e in HandEvent.objects.filter(hand=hand).order_by("version")]
    page = {"commitment": hand.commitment, "events": events, "result": state.result,
            "proof": proof.public}
    assert len(fairness.seen_cards(page)) == 10 + 4  # two boards, both hands shown
    assert fairness.verify_hand(page) == []
    for row in HandEvent.objects.filter(hand=hand):  # each event as docs/protocol.md says
        assert events_problems(row.payload) == [], row.payload
    assert {"run_twice_offer", "run_twice_vote", "run_twice_decided", "second_board"} <= set(
        kinds(hand))
    # The hand's history from the database has both runs.
    text = pokerstars.hand_text(load_record(hand), ann.pk)
    assert "Hand was run twice" in text and "*** SECOND RIVER ***" in text


def test_nobody_answering_by_the_deadline_is_once(all_in):
    table, ann, _ben = all_in
    services.hand_run_twice(table_id=table.pk, user_id=ann.pk, twice=True)
    hand = live(table.pk)[1]
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - datetime.timedelta(1))
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version)
    hand = Hand.objects.get(pk=hand.pk)
    state = HandState.from_json(hand.state)
    assert hand.finished_at is not None and state.board2 is None and len(state.board) == 5
    decided = HandEvent.objects.get(hand=hand, type="run_twice_decided").payload
    assert decided["runs"] == 1


def test_only_players_of_the_hand_may_answer_and_only_when_asked(all_in, make_table,
                                                                 make_player):
    table, _ann, _ben = all_in
    with pytest.raises(services.TableError) as refused:
        services.hand_run_twice(table_id=table.pk, user_id=make_player("cat").pk, twice=True)
    assert refused.value.code == "not_in_hand"
