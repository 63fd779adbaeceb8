"""Worked examples: a player the server has to act for is sat out, as in every real room.

He plays the current hand to its end as it stands (folded, or timeout all-in), is not dealt the
next hands, owes a big blind when he misses one, comes back with `sit_in`, and is cashed out
by the sit-out limit if he never does."""
from __future__ import annotations

import datetime

import pytest

from cashier.audit import ledger_audit
from tables import services
from tables.models import HandEvent, Seat, SeatStatus
from tables.services.sweeps import sit_outs_expire
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


def time_out(table_id: int) -> int:
    """Let the turn's deadline pass and run the timer; returns the table version before."""
    ts, hand, _ = live(table_id)
    hand.deadline = hand.deadline - datetime.timedelta(hours=1)
    hand.save(update_fields=["deadline"])
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version)
    return ts.version


def events_after(table_id: int, version: int) -> list[dict]:
    return [e.payload for e in HandEvent.objects.filter(table_id=table_id, version__gt=version)
            .order_by("version")]


def dealt(table_id: int) -> list[int]:
    return sorted(p.seat for p in live(table_id)[2].players)


def seat_of(table, user) -> Seat:
    return Seat.objects.get(table=table, player=user)


def test_a_fold_on_timeout_sits_the_player_out_and_a_missed_big_blind_is_owed(
        play_table, make_player, sit):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(play_table, p, n)
    services.hand_start(table_id=play_table.pk, force=True)
    # alice has the button (she sat first) and acts first preflop, with nothing in the pot
    assert to_act_user(play_table.pk) == alice.pk
    before = time_out(play_table.pk)
    action, status = events_after(play_table.pk, before)[:2]
    assert (action["seat"], action["action"], action["timeout"]) == (1, "fold", True)
    assert status == {"type": "status", "seat": 1, "status": "sitting_out", "post_bb": False,
                      "missed_blinds": False, "sit_out_next_bb": False}
    seat = seat_of(play_table, alice)
    assert seat.status == SeatStatus.SITTING_OUT and seat.sat_out_at is not None
    play_out(play_table.pk, passive=True)
    # hand 2: bob and carol heads-up; alice's seat would have been the big blind: she owes it
    services.hand_start(table_id=play_table.pk, force=True)
    assert dealt(play_table.pk) == [2, 3]
    assert seat_of(play_table, alice).missed_blinds
    play_out(play_table.pk, passive=True)
    # she is back: she waits for the big blind, or posts one at once
    assert services.sit_in(table_id=play_table.pk, user_id=alice.pk).status == \
        SeatStatus.WAITING_BB
    services.post_big_blind_now(table_id=play_table.pk, user_id=alice.pk)
    services.hand_start(table_id=play_table.pk, force=True)
    assert dealt(play_table.pk) == [1, 2, 3]
    assert ledger_audit().ok


def test_a_timeout_all_in_plays_the_hand_out_then_sits_out(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    services.hand_start(table_id=play_table.pk, force=True)
    # heads-up alice has the button, posted the small blind and acts first: money in the pot
    before = time_out(play_table.pk)
    action, status = events_after(play_table.pk, before)[:2]
    assert (action["action"], status["type"], status["status"]) == (
        "timeout_allin", "status", "sitting_out")
    _ts, _hand, state = live(play_table.pk)
    assert not state.player(1).folded  # still in for the pot so far
    play_out(play_table.pk, passive=True)
    assert live(play_table.pk)[1].finished_at is not None
    # bob alone can not play: no hand until alice sits in (she missed no blind meanwhile)
    assert services.hand_start(table_id=play_table.pk, force=True) is None
    assert services.sit_in(table_id=play_table.pk, user_id=alice.pk).status == SeatStatus.PLAYING
    assert services.hand_start(table_id=play_table.pk, force=True) is not None
    assert dealt(play_table.pk) == [1, 2]


def test_the_modern_policy_checks_for_him_and_sits_him_out_too(make_table, make_player, sit):
    table = make_table(name="Modern", lower_stake=2, timeout_policy="modern",
                       hand_pause_seconds=0)
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(table, p, n)
    services.hand_start(table_id=table.pk, force=True)
    for user in (alice, bob):  # alice calls, bob (small blind) calls: carol may check
        services.act(table_id=table.pk, user_id=user.pk, action="call")
    before = time_out(table.pk)
    action, status = events_after(table.pk, before)[:2]
    assert (action["seat"], action["action"], action["timeout"]) == (3, "check", True)
    assert (status["seat"], status["status"]) == (3, "sitting_out")
    assert to_act_user(table.pk) == bob.pk  # the flop: carol is still in this hand


def test_coming_back_during_the_hand_keeps_him_in_the_next_one(play_table, make_player, sit):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(play_table, p, n)
    services.hand_start(table_id=play_table.pk, force=True)
    time_out(play_table.pk)  # alice folds on time
    services.sit_in(table_id=play_table.pk, user_id=alice.pk)  # ... and is back before the end
    play_out(play_table.pk, passive=True)
    services.hand_start(table_id=play_table.pk, force=True)
    assert dealt(play_table.pk) == [1, 2, 3]


def test_a_player_leaving_on_his_turn_is_not_timed_out_nor_sat_out(play_table, make_player, sit):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(play_table, p, n)
    services.hand_start(table_id=play_table.pk, force=True)
    before = live(play_table.pk)[0].version
    services.seat_leave(table_id=play_table.pk, user_id=alice.pk, idempotency_key="alice-off")
    leaving, fold, turn = events_after(play_table.pk, before)  # folded at once (leaving.py)
    assert (leaving["type"], fold["action"], "timeout" in fold, turn["seat"]) == (
        "leaving", "fold", False, 2)


def test_absent_longer_than_the_limit_is_cashed_out(make_table, make_player, sit):
    table = make_table(name="Idle", lower_stake=2, sit_out_limit_minutes=10,
                       hand_pause_seconds=0)
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(table, p, n)
    services.hand_start(table_id=table.pk, force=True)
    time_out(table.pk)  # alice folds on time and sits out
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=11)
    assert sit_outs_expire(table_id=table.pk, now=later) == 0  # not while her hand runs
    play_out(table.pk, passive=True)
    assert sit_outs_expire(table_id=table.pk, now=later) == 1
    assert not Seat.objects.filter(table=table, player=alice).exists()
    left = HandEvent.objects.filter(table=table, type="seat_left").get().payload
    assert (left["seat"], left["cashed_out"]) == (1, 200)  # she folded before putting anything in
    assert ledger_audit().ok
