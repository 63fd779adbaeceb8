"""Worked examples of the hand lifecycle: blinds, button, settlement, summaries, side pots."""
from __future__ import annotations

import datetime
import functools
import random

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cashier.audit import ledger_audit
from cashier.errors import LedgerBroken
from cashier.models import HandSettlement, PendingTopUp, TopUpStatus
from cashier.services import wallet_account
from tables import services
from tables.engine import legal_actions
from tables.models import Hand, HandEvent, HandSummary, Seat
from tests.cashier.seats import settle_hand
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


def hand_events(hand_id: int) -> list[dict]:
    return [e.payload for e in HandEvent.objects.filter(hand_id=hand_id).order_by("version")]


def test_first_hand_button_is_first_seated_blinds_follow(play_table, make_player, sit):
    carol, alice, bob = make_player("carol"), make_player("alice"), make_player("bob")
    sit(play_table, carol, 5)
    sit(play_table, alice, 1)
    sit(play_table, bob, 3)
    hand = services.hand_start(table_id=play_table.pk, force=True)
    blinds = [(e["seat"], e["kind"], e["amount"]) for e in hand_events(hand.pk)
              if e["type"] == "posted_blind"]
    # carol sat first: button on 5, small blind left of it (1), big blind next (3)
    assert live(play_table.pk)[0].button_seat == 5
    assert blinds == [(1, "sb", 1), (3, "bb", 2)]
    # preflop action starts left of the big blind: the button
    assert to_act_user(play_table.pk) == carol.pk
    play_out(play_table.pk, passive=True)
    services.hand_start(table_id=play_table.pk, force=True)
    assert live(play_table.pk)[0].button_seat == 1  # moved clockwise


def test_finished_hand_settles_through_the_ledger(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    rng, played = random.Random(7), 0
    while played < 10 and services.hand_start(table_id=play_table.pk, force=True):
        play_out(play_table.pk, rng=rng)
        played += 1
        chips = sum(Seat.objects.filter(table=play_table).values_list("chips", flat=True))
        assert chips == 400  # no rake at this table
        report = ledger_audit()
        assert report.ok, report.summary()
    assert HandSummary.objects.filter(table=play_table).count() == played >= 1


def test_a_hand_does_not_end_on_a_table_whose_stacks_disagree_with_its_escrow(
        play_table, make_player, sit):
    """Tables write their stacks, the cashier checks them at every settlement: a seat whose
    chips changed behind the ledger's back stops the hand's end, and nothing of it is kept."""
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    hand = services.hand_start(table_id=play_table.pk, force=True)
    Seat.objects.filter(table=play_table, player=bob).update(chips=F("chips") + 5)
    ts, _hand, _state = live(play_table.pk)
    with pytest.raises(LedgerBroken):
        services.act(table_id=play_table.pk, user_id=to_act_user(play_table.pk),
                     action="fold", expected_version=ts.version)
    hand.refresh_from_db()
    assert hand.finished_at is None and not HandSettlement.objects.exists()


def test_rake_goes_to_the_house_and_summary_counts_the_flop(make_table, make_player, sit):
    table = make_table(name="Raked", lower_stake=2, rake_percent="5.00", hand_pause_seconds=0)
    players = [make_player(n) for n in ("a", "b", "c")]
    for n, p in enumerate(players, start=1):
        sit(table, p, n)
    hand = services.hand_start(table_id=table.pk, force=True)
    play_out(table.pk, passive=True)  # everyone calls and checks down: 6 in the pot
    hand.refresh_from_db()
    assert hand.state["result"]["rake"] == 0  # 5 % of 6, floored to whole chips
    summary = HandSummary.objects.get(table=table)
    assert (summary.pot, summary.players_dealt, summary.players_saw_flop) == (6, 3, 3)
    assert hand.deck_key and hand.commitment and not hand.seed
    assert ledger_audit().ok


def test_side_pots_with_three_players_all_in(make_table, make_player, sit):
    table = make_table(name="Deep", lower_stake=2, min_buy_in_bb=40, max_buy_in_bb=150,
                       hand_pause_seconds=0)
    a, b, c = make_player("a"), make_player("b"), make_player("c")
    sit(table, a, 1, 100)
    sit(table, b, 2, 200)
    sit(table, c, 3, 300)
    services.hand_start(table_id=table.pk, force=True)
    while to_act_user(table.pk) is not None:
        ts, _hand, state = live(table.pk)
        la = legal_actions(state)  # everyone shoves, or calls when he cannot raise
        services.act(table_id=table.pk, user_id=to_act_user(table.pk),
                     action="raise" if la.raise_ else "call",
                     amount=la.max_to if la.raise_ else None, expected_version=ts.version)
    _ts, hand, state = live(table.pk)
    assert hand.finished_at is not None
    pots = state.result["pots"]
    assert [p["amount"] for p in pots] == [300, 200]  # main 3x100, side 2x100; c's 100 returned
    assert sorted(pots[0]["eligible"]) == [1, 2, 3] and sorted(pots[1]["eligible"]) == [2, 3]
    assert sum(Seat.objects.filter(table=table).values_list("chips", flat=True)) == 600
    assert ledger_audit().ok


def test_act_refuses_stale_version_and_wrong_player_without_change(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    services.hand_start(table_id=play_table.pk, force=True)
    ts, hand, _state = live(play_table.pk)
    actor = to_act_user(play_table.pk)
    other = alice.pk if actor == bob.pk else bob.pk
    with pytest.raises(services.TableError) as stale:
        services.act(table_id=play_table.pk, user_id=actor, action="call",
                     expected_version=ts.version - 1)
    assert stale.value.code == "stale_version"
    with pytest.raises(services.TableError) as turn:
        services.act(table_id=play_table.pk, user_id=other, action="call",
                     expected_version=ts.version)
    assert turn.value.code == "not_your_turn"
    with pytest.raises(services.TableError) as small:
        services.act(table_id=play_table.pk, user_id=actor, action="raise", amount=3,
                     expected_version=ts.version)
    assert small.value.code == "below_min_raise"
    ts2, hand2, _ = live(play_table.pk)
    assert (ts2.version, hand2.version, hand2.state) == (ts.version, hand.version, hand.state)


def test_table_events_do_not_make_an_act_stale_but_the_hand_moving_on_does(
        play_table, make_player, sit):
    alice, bob, carol, dave = (make_player(n) for n in ("alice", "bob", "carol", "dave"))
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(play_table, p, n, 180)
    services.hand_start(table_id=play_table.pk, force=True)
    seen = live(play_table.pk)[0].version  # alice (the button) sees her turn at this version
    assert to_act_user(play_table.pk) == alice.pk
    # meanwhile: dave sits down, carol will sit out from the next hand, bob tops up and
    # alice's socket reconnects (a bonus)
    sit(play_table, dave, 4)
    services.sit_out(table_id=play_table.pk, user_id=carol.pk)
    services.seat_top_up(table_id=play_table.pk, user_id=bob.pk, amount=10, idempotency_key="bob+10")
    assert services.hand_reconnect_bonus(table_id=play_table.pk, user_id=alice.pk,
                                         dropped_at=timezone.now())
    assert live(play_table.pk)[0].version == seen + 4
    # her call still lands: none of that changed the hand she decided on
    services.act(table_id=play_table.pk, user_id=alice.pk, action="call", expected_version=seen)
    # the same call again: the hand moved on since `seen`
    with pytest.raises(services.TableError) as again:
        services.act(table_id=play_table.pk, user_id=alice.pk, action="call",
                     expected_version=seen)
    assert again.value.code == "stale_version"
    # bob (small blind) decides on the version after alice's call; a version from the future
    # is refused too
    now = live(play_table.pk)[0].version
    with pytest.raises(services.TableError) as future:
        services.act(table_id=play_table.pk, user_id=bob.pk, action="call",
                     expected_version=now + 1)
    assert future.value.code == "stale_version"
    services.act(table_id=play_table.pk, user_id=bob.pk, action="call", expected_version=now)


def test_an_action_takes_few_queries(play_table, make_player, sit):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, p in enumerate((alice, bob, carol), start=1):
        sit(play_table, p, n)
    services.hand_start(table_id=play_table.pk, force=True)
    ts, _hand, _state = live(play_table.pk)
    actor = to_act_user(play_table.pk)
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=play_table.pk, user_id=actor, action="call",
                     expected_version=ts.version)
    # BEGIN, lock the table row (joined with its config), read its hand (after the lock, so it
    # is never stale), save the hand, insert the events, bump the table version, COMMIT
    assert len(queries) <= 7, [q["sql"][:120] for q in queries]


def test_timeout_folds_or_goes_timeout_all_in_with_a_daily_cap(make_table, make_player, sit):
    table = make_table(name="Slow", lower_stake=2, timeout_allin_daily_cap=1,
                       hand_pause_seconds=0)
    alice, bob = make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 2)

    def expire() -> tuple[int, int]:
        _ts, hand, _ = live(table.pk)
        hand.deadline = hand.deadline - datetime.timedelta(hours=1)
        hand.save(update_fields=["deadline"])
        return hand.pk, hand.version

    services.hand_start(table_id=table.pk, force=True)
    _ts, hand, _ = live(table.pk)
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version) is False  # not yet due
    hand_id, version = expire()
    first_actor = to_act_user(table.pk)
    assert services.hand_timeout(hand_id=hand_id, version=version) is True
    assert services.hand_timeout(hand_id=hand_id, version=version) is False  # duplicate: no-op
    first = next(e for e in hand_events(hand_id) if e["type"] == "action")
    assert first["action"] == "timeout_allin" and first["timeout"] is True  # had the small blind in
    capped = first_actor
    play_out(table.pk, passive=True)
    services.sit_in(table_id=table.pk, user_id=capped)  # a timeout sat him out: he is back
    services.hand_start(table_id=table.pk, force=True)
    while to_act_user(table.pk) != capped:  # heads-up the first to act alternates
        play_out(table.pk, passive=True)
        services.hand_start(table_id=table.pk, force=True)
    hand_id, version = expire()
    services.hand_timeout(hand_id=hand_id, version=version)
    second = next(e for e in hand_events(hand_id) if e["type"] == "action")
    assert second["action"] == "fold"  # the daily cap of 1 is used up


def test_reconnect_bonus_once_per_turn(play_table, make_player, sit, fake_timers):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    services.hand_start(table_id=play_table.pk, force=True)
    actor = to_act_user(play_table.pk)
    other = alice.pk if actor == bob.pk else bob.pk
    _ts, hand, _ = live(play_table.pk)
    dropped = timezone.now()  # every socket of his closed just now, during the turn
    assert not services.hand_reconnect_bonus(table_id=play_table.pk, user_id=other,
                                             dropped_at=dropped)
    assert services.hand_reconnect_bonus(table_id=play_table.pk, user_id=actor,
                                         dropped_at=dropped)
    assert not services.hand_reconnect_bonus(table_id=play_table.pk, user_id=actor,
                                             dropped_at=dropped)
    _ts, later, _ = live(play_table.pk)
    assert later.deadline - hand.deadline == datetime.timedelta(seconds=20)
    # the task queued for the first deadline stays: when it fires, the turn is not over yet ...
    assert [t["deadline"] for t in fake_timers.timeouts] == [hand.deadline]
    Hand.objects.filter(pk=hand.pk).update(timer_at=timezone.now())  # (it has just fired)
    assert services.hand_timeout(hand_id=hand.pk, version=later.version) is False
    # ... so it re-arms for the extended deadline
    assert [t["deadline"] for t in fake_timers.timeouts] == [hand.deadline, later.deadline]


def test_no_reconnect_bonus_without_a_drop_during_the_turn_or_after_the_deadline(
        play_table, make_player, sit, fake_timers):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    services.hand_start(table_id=play_table.pk, force=True)
    actor = to_act_user(play_table.pk)
    _ts, hand, _ = live(play_table.pk)
    bonus = functools.partial(services.hand_reconnect_bonus, table_id=play_table.pk,
                              user_id=actor)
    assert not bonus(dropped_at=None)  # a second tab: another socket of his stayed open
    assert not bonus(dropped_at=hand.turn_started_at - datetime.timedelta(seconds=1))  # before
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    assert not bonus(dropped_at=timezone.now() - datetime.timedelta(seconds=2))  # too late
    assert not Hand.objects.get(pk=hand.pk).bonus_used


def test_one_timer_is_queued_per_hand_while_it_fires_first(play_table, make_player, sit,
                                                           fake_timers):
    """Deadlines only move later: the timer queued for the first turn fires before any later
    turn's deadline, so turns after it queue nothing until it has fired and re-armed."""
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    for n, user in enumerate((alice, bob, carol), start=1):
        sit(play_table, user, n)
    services.hand_start(table_id=play_table.pk, force=True)
    _ts, first, _ = live(play_table.pk)
    services.act(table_id=play_table.pk, user_id=to_act_user(play_table.pk), action="call")
    services.act(table_id=play_table.pk, user_id=to_act_user(play_table.pk), action="call")
    _ts, hand, _ = live(play_table.pk)
    assert hand.version > first.version and hand.deadline > first.deadline
    assert [(t["version"], t["deadline"]) for t in fake_timers.timeouts] == [
        (first.version, first.deadline)]
    # the queued task fires at the first deadline: the turn moved on, so it re-arms once
    Hand.objects.filter(pk=hand.pk).update(timer_at=timezone.now())
    assert services.hand_timeout(hand_id=hand.pk, version=first.version) is False
    assert services.hand_timeout(hand_id=hand.pk, version=first.version) is False  # a copy
    assert [(t["version"], t["deadline"]) for t in fake_timers.timeouts] == [
        (first.version, first.deadline), (hand.version, hand.deadline)]
    assert live(play_table.pk)[1].version == hand.version  # nobody was acted for


def test_top_ups_join_the_stacks_as_the_hand_starts_in_one_write(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1, 80)
    sit(play_table, bob, 2, 80)
    services.seat_top_up(table_id=play_table.pk, user_id=alice.pk, amount=120, idempotency_key="a+120")

    with CaptureQueriesContext(connection) as queries:
        hand = services.hand_start(table_id=play_table.pk, force=True)

    if connection.vendor == "postgresql":
        # BEGIN, lock the table row, read its last hand, read and lock the seats (with their
        # pending top-ups and standing orders), insert the hand, then one write for the rest:
        # the stacks, the top-ups applied, the hand's state, its events and the table row
        assert len(queries) <= 7, [q["sql"][:120] for q in queries]
    stacks = [e["stacks"] for e in hand_events(hand.pk) if e["type"] == "stacks"]
    assert stacks == [{"1": 200, "2": 80}]  # the event says so before the blinds go in
    assert {p["seat"]: p["start_stack"] for p in hand.state["players"]} == {1: 200, 2: 80}
    top_up = PendingTopUp.objects.get()
    assert (top_up.status, top_up.applied_amount) == (TopUpStatus.APPLIED, 120)
    assert services.hand_start(table_id=play_table.pk, force=True) is None  # one at a time
    assert ledger_audit().ok


def test_a_top_up_that_no_longer_fits_takes_what_fits_and_refunds_the_rest(
        play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    seat = sit(play_table, alice, 1, 80)
    other = sit(play_table, bob, 2, 200)
    services.seat_top_up(table_id=play_table.pk, user_id=alice.pk, amount=120, idempotency_key="a+120")
    # she wins 50 before the next hand: 130 + 120 would be above the maximum of 200
    settle_hand(table=play_table, hand_id="won", deltas={seat.pk: 50, other.pk: -50}, rake=0)
    wallet_before = wallet_account(user=alice, currency=play_table.currency).balance

    hand = services.hand_start(table_id=play_table.pk, force=True)

    assert {p["seat"]: p["start_stack"] for p in hand.state["players"]} == {1: 200, 2: 150}
    top_up = PendingTopUp.objects.get()
    assert (top_up.status, top_up.applied_amount) == (TopUpStatus.APPLIED, 70)
    assert wallet_account(user=alice, currency=play_table.currency).balance == wallet_before + 50
    assert [e["stacks"] for e in hand_events(hand.pk) if e["type"] == "stacks"] == [
        {"1": 200, "2": 150}]
    assert ledger_audit().ok
