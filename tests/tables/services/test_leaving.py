"""Worked examples of fold and leave (tables/services/leaving.py): a player who leaves during a
hand is folded on his turn — at once if it is his turn, else when the action reaches him — and
cashed out when the hand ends; nobody waits out his clock."""
from __future__ import annotations

import pytest

from cashier.audit import ledger_audit
from cashier.models import AccountKind, LedgerAccount
from tables import services
from tables.models import HandEvent, Seat
from tests.tables.helpers import live, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def events_after(table, version: int) -> list[tuple[str, int | None, str | None]]:
    """(type, seat, action) of the table's events after `version`."""
    return [(e.type, e.payload.get("seat"), e.payload.get("action")) for e in
            HandEvent.objects.filter(table=table, version__gt=version).order_by("version")]


def wallet(user) -> int:
    return LedgerAccount.objects.get(kind=AccountKind.WALLET, user=user).balance


@pytest.fixture
def three(play_table, make_player, sit):
    """Alice, Bob and Carol in seats 1-3 with 200 each, a hand dealt: button 1, small blind 2,
    big blind 3, Alice to act."""
    players = [make_player(n) for n in ("alice", "bob", "carol")]
    for number, player in enumerate(players, start=1):
        sit(play_table, player, number)
    services.hand_start(table_id=play_table.pk, force=True)
    return players


def leave(table, user, key: str = "leave-1") -> bool:
    return services.seat_leave(table_id=table.pk, user_id=user.pk, idempotency_key=key)


def test_leaving_on_his_turn_folds_at_once_and_cashes_out_at_the_hands_end(play_table, three):
    alice, _bob, _carol = three
    ts, hand, _state = live(play_table.pk)
    assert leave(play_table, alice) is False  # the hand goes on: he leaves when it ends
    assert events_after(play_table, ts.version) == [
        ("leaving", 1, None), ("action", 1, "fold"), ("turn", 2, None)]
    _ts, hand, state = live(play_table.pk)
    assert state.to_act_seat == 2 and hand.leavers == [1]
    fold = HandEvent.objects.get(table=play_table, type="action", payload__seat=1).payload
    assert "timeout" not in fold  # he folded; the server did not wait him out
    play_out(play_table.pk, passive=True)
    assert not Seat.objects.filter(table=play_table, player=alice).exists()
    left = HandEvent.objects.get(table=play_table, type="seat_left").payload
    assert (left["seat"], left["cashed_out"]) == (1, 200)  # he had put nothing in
    assert wallet(alice) == 10_000
    assert ledger_audit().ok


def test_leaving_before_his_turn_folds_him_when_the_action_reaches_him(play_table, three):
    alice, bob, carol = three
    ts, _hand, _state = live(play_table.pk)
    assert leave(play_table, carol) is False  # the big blind; Alice is to act
    assert events_after(play_table, ts.version) == [("leaving", 3, None)]
    state = live(play_table.pk)[2]
    assert not state.players[state.index_of(3)].folded  # not yet: it is not his turn
    services.act(table_id=play_table.pk, user_id=alice.pk, action="call")
    ts = live(play_table.pk)[0]
    services.act(table_id=play_table.pk, user_id=bob.pk, action="call")
    # Bob's call closes on Carol: she is folded in the same step, and the flop comes.
    assert events_after(play_table, ts.version)[:3] == [
        ("action", 2, "call"), ("action", 3, "fold"), ("board", None, None)]
    play_out(play_table.pk, passive=True)
    left = HandEvent.objects.get(table=play_table, type="seat_left").payload
    assert (left["seat"], left["cashed_out"]) == (3, 198)  # her big blind stayed in the pot
    assert wallet(carol) == 10_000 - 2
    assert ledger_audit().ok


def test_heads_up_his_fold_ends_the_hand_and_he_is_gone_at_once(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    services.hand_start(table_id=play_table.pk, force=True)  # Alice: button, small blind, to act
    assert leave(play_table, alice) is True
    assert not Seat.objects.filter(table=play_table, player=alice).exists()
    assert live(play_table.pk)[1].finished_at is not None
    assert wallet(alice) == 10_000 - 1  # her small blind
    assert Seat.objects.get(table=play_table, player=bob).chips == 201
    assert ledger_audit().ok


def test_leaving_twice_records_one_leave(play_table, three):
    _alice, bob, _carol = three
    assert leave(play_table, bob, "leave-1") is False
    assert leave(play_table, bob, "leave-1") is False  # a resend: the first answer
    assert leave(play_table, bob, "leave-2") is False  # asked again: nothing more to do
    assert HandEvent.objects.filter(table=play_table, type="leaving").count() == 1
    assert live(play_table.pk)[1].leavers == [2]


def test_a_leaver_is_not_dealt_the_next_hand(play_table, make_player, sit, three):
    alice, _bob, carol = three
    sit(play_table, make_player("dave"), 4)  # waits for the big blind
    leave(play_table, carol)
    play_out(play_table.pk, passive=True)
    services.hand_start(table_id=play_table.pk, force=True)
    _ts, hand, state = live(play_table.pk)
    assert 3 not in {p.seat for p in state.players}
    assert hand.leavers == []  # a new hand starts with nobody leaving
    assert services.seat_leave(table_id=play_table.pk, user_id=alice.pk,
                               idempotency_key="leave-a") is False
