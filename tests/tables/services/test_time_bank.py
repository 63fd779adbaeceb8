"""Worked examples of the time bank (tables/services/time_bank.py): a per-table option, off by
default, that gives a player a bank of seconds used automatically when his countdown ends,
before the timeout rule; what he does not use he keeps; it is topped up every N hands he is
dealt in, up to a cap."""
from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import events, services
from tables.models import Hand, HandEvent, Seat, SeatStatus, TableConfig
from tables.services.sweeps import sweep
from tables.snapshots import table_snapshot
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bank_table(make_table):
    """No-limit 1/2 with a 30 s time bank, +10 s every 2 hands up to 40 s."""
    return make_table(name="Bank", lower_stake=2, hand_pause_seconds=0, time_bank_seconds=30,
                      time_bank_refill_seconds=10, time_bank_refill_hands=2,
                      time_bank_cap_seconds=40)


def seated(table: TableConfig, make_player, sit, names=("alice", "bob")) -> list:
    players = [make_player(name) for name in names]
    for n, player in enumerate(players, start=1):
        sit(table, player, n)
    return players


def expire(table_id: int) -> Hand:
    """The turn's deadline passed (an hour ago) and its timer fired: returns the hand as it
    was."""
    _ts, hand, _ = live(table_id)
    hour = datetime.timedelta(hours=1)
    Hand.objects.filter(pk=hand.pk).update(deadline=hand.deadline - hour,
                                           timer_at=hand.deadline - hour)
    return hand


def elapse(table_id: int, seconds: float) -> None:
    """`seconds` of the running time bank go by (its start and deadline move back)."""
    _ts, hand, _ = live(table_id)
    back = datetime.timedelta(seconds=seconds)
    Hand.objects.filter(pk=hand.pk).update(deadline=hand.deadline - back,
                                           bank_started_at=hand.bank_started_at - back)


def recorded(table_id: int, after: int = 0) -> list[dict]:
    """The public events after table version `after`, each checked against its definition."""
    out = []
    for row in HandEvent.objects.filter(table_id=table_id, version__gt=after).order_by("version"):
        payload = json.loads(json.dumps(row.payload))
        assert events.problems(payload) == [], payload
        out.append(payload)
    return out


def bank_of(table: TableConfig, user) -> int:
    return Seat.objects.get(table=table, player=user).time_bank


def test_a_player_sits_down_with_the_tables_bank(bank_table, make_player, sit):
    alice, _bob = seated(bank_table, make_player, sit)
    assert bank_of(bank_table, alice) == 30
    seated_events = [e for e in recorded(bank_table.pk) if e["type"] == "time_banks"]
    assert seated_events == [
        {"type": "time_banks", "banks": {"1": 30}, "reason": "seated"},
        {"type": "time_banks", "banks": {"2": 30}, "reason": "seated"}]


def test_the_bank_is_used_when_the_countdown_ends(bank_table, make_player, sit, fake_timers):
    alice, _bob = seated(bank_table, make_player, sit)
    services.hand_start(table_id=bank_table.pk, force=True)
    assert to_act_user(bank_table.pk) == alice.pk  # heads-up: the button (seat 1) acts first
    ts, _hand, _ = live(bank_table.pk)
    before = expire(bank_table.pk)
    started = timezone.now()
    assert services.hand_timeout(hand_id=before.pk, version=before.version) is False
    _ts, hand, _ = live(bank_table.pk)
    # nobody acted for her: her bank runs, the deadline moved on by all of it
    assert (hand.bank_seat, hand.bank_seconds, hand.version) == (1, 30, before.version)
    assert started <= hand.bank_started_at <= timezone.now()
    assert hand.deadline == hand.bank_started_at + datetime.timedelta(seconds=30)
    assert recorded(bank_table.pk, ts.version) == [{
        "type": "time_bank", "seat": 1, "seconds": 30, "deadline": hand.deadline.isoformat(),
        "countdown_at": hand.bank_started_at.isoformat()}]
    assert fake_timers.timeouts[-1] == {"hand_id": hand.pk, "version": hand.version,
                                        "deadline": hand.deadline}  # the timer re-armed
    assert Seat.objects.get(player=alice).status == SeatStatus.PLAYING
    assert to_act_user(bank_table.pk) == alice.pk
    # the snapshot shows it: the bank, that it runs, the countdown from its start
    snap = table_snapshot(table_id=bank_table.pk, user_id=None)
    assert [(s["time_bank"], s["time_bank_running"]) for s in snap["seats"]] == [
        (30, True), (30, False)]
    assert snap["hand"]["countdown_at"] == hand.bank_started_at.isoformat()
    assert snap["table"]["time_bank"] == {"seconds": 30, "refill_seconds": 10,
                                          "refill_hands": 2, "cap_seconds": 40}


def test_acting_while_the_bank_runs_keeps_the_rest(bank_table, make_player, sit, fake_timers):
    alice, bob = seated(bank_table, make_player, sit)
    services.hand_start(table_id=bank_table.pk, force=True)
    before = expire(bank_table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)
    ts, _hand, _ = live(bank_table.pk)
    elapse(bank_table.pk, 7.2)  # 7.2 s of it used: 8 whole seconds
    # a time_bank event does not make her action stale: it did not move the hand
    services.act(table_id=bank_table.pk, user_id=alice.pk, action="call",
                 expected_version=ts.version - 1)
    assert bank_of(bank_table, alice) == 22 and bank_of(bank_table, bob) == 30
    after = recorded(bank_table.pk, ts.version)
    assert after[0] == {"type": "time_banks", "banks": {"1": 22}, "reason": "used"}
    assert [e["type"] for e in after[1:]] == ["action", "turn"]
    _ts, hand, _ = live(bank_table.pk)
    assert (hand.bank_seat, hand.bank_started_at, hand.bank_seconds) == (None, None, 0)
    # bob's turn is an ordinary one: quiet time and countdown, no bank running
    assert hand.deadline - hand.turn_started_at == datetime.timedelta(
        seconds=bank_table.action_seconds + bank_table.countdown_seconds)
    snap = table_snapshot(table_id=bank_table.pk, user_id=None)
    assert [(s["time_bank"], s["time_bank_running"]) for s in snap["seats"]] == [
        (22, False), (30, False)]
    # next time she runs out of time she has 22 s
    services.act(table_id=bank_table.pk, user_id=bob.pk, action="check")  # the flop
    services.act(table_id=bank_table.pk, user_id=bob.pk, action="check")
    assert to_act_user(bank_table.pk) == alice.pk
    before = expire(bank_table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)
    assert live(bank_table.pk)[1].bank_seconds == 22


def test_an_empty_bank_lets_the_timeout_rule_apply(make_table, make_player, sit, fake_timers):
    bank_table = make_table(name="Empty", lower_stake=2, hand_pause_seconds=0,
                            time_bank_seconds=30, time_bank_cap_seconds=30)  # no refill
    alice, _bob = seated(bank_table, make_player, sit)
    services.hand_start(table_id=bank_table.pk, force=True)
    before = expire(bank_table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)
    ts, hand, _ = live(bank_table.pk)
    elapse(bank_table.pk, 31)  # the bank ran out too
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version) is True
    after = recorded(bank_table.pk, ts.version)
    # the seeds' rule: she has the small blind in, so timeout all-in; sat out; bank empty
    assert [(e["type"], e.get("action")) for e in after[:3]] == [
        ("action", "timeout_allin"), ("status", None), ("time_banks", None)]
    assert after[2] == {"type": "time_banks", "banks": {"1": 0}, "reason": "used"}
    assert bank_of(bank_table, alice) == 0
    assert Seat.objects.get(player=alice).status == SeatStatus.SITTING_OUT
    play_out(bank_table.pk, passive=True)
    # with nothing in her bank, the next timeout applies the rule at once
    services.sit_in(table_id=bank_table.pk, user_id=alice.pk)
    services.hand_start(table_id=bank_table.pk, force=True)
    while to_act_user(bank_table.pk) != alice.pk:
        services.act(table_id=bank_table.pk, user_id=to_act_user(bank_table.pk), action="call")
    ts, _hand, _ = live(bank_table.pk)
    before = expire(bank_table.pk)
    assert services.hand_timeout(hand_id=before.pk, version=before.version) is True
    assert [e["type"] for e in recorded(bank_table.pk, ts.version)][:2] == ["action", "status"]


def test_a_fold_on_timeout_after_the_bank(make_table, make_player, sit, fake_timers):
    table = make_table(name="Fold", lower_stake=2, hand_pause_seconds=0, time_bank_seconds=5,
                       time_bank_cap_seconds=5)
    alice, _bob, _carol = seated(table, make_player, sit, ("alice", "bob", "carol"))
    services.hand_start(table_id=table.pk, force=True)
    assert to_act_user(table.pk) == alice.pk  # the button, nothing in the pot
    before = expire(table.pk)
    assert services.hand_timeout(hand_id=before.pk, version=before.version) is False
    ts, hand, _ = live(table.pk)
    elapse(table.pk, 6)
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version) is True
    action = recorded(table.pk, ts.version)[0]
    assert (action["seat"], action["action"], action["timeout"]) == (1, "fold", True)
    assert bank_of(table, alice) == 0


def test_duplicate_and_late_timer_tasks_change_nothing(bank_table, make_player, sit,
                                                      fake_timers):
    alice, _bob = seated(bank_table, make_player, sit)
    services.hand_start(table_id=bank_table.pk, force=True)
    before = expire(bank_table.pk)
    assert services.hand_timeout(hand_id=before.pk, version=before.version) is False
    ts, hand, _ = live(bank_table.pk)
    queued = len(fake_timers.timeouts)
    # the same task again (a duplicate), the beat sweeper: the bank runs, nothing is due
    assert services.hand_timeout(hand_id=before.pk, version=before.version) is False
    assert sweep().timeouts == 0
    ts2, again, _ = live(bank_table.pk)
    assert (ts2.version, again.deadline, again.bank_started_at) == (
        ts.version, hand.deadline, hand.bank_started_at)
    assert len(fake_timers.timeouts) == queued
    # she acts; the task queued for the bank's end comes late and finds the turn moved on
    services.act(table_id=bank_table.pk, user_id=alice.pk, action="call")
    ts3, _hand, _ = live(bank_table.pk)
    Hand.objects.filter(pk=hand.pk).update(timer_at=timezone.now())  # (it has just fired)
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version) is False
    assert live(bank_table.pk)[0].version == ts3.version
    assert bank_of(bank_table, alice) == 29  # the bank ran for a moment: 1 s


def test_banks_are_topped_up_every_n_hands_up_to_the_cap(make_table, make_player, sit,
                                                        fake_timers):
    table = make_table(name="Refill", lower_stake=2, hand_pause_seconds=0, time_bank_seconds=10,
                       time_bank_refill_seconds=5, time_bank_refill_hands=2,
                       time_bank_cap_seconds=12)
    alice, bob = seated(table, make_player, sit)

    def next_hand() -> list[dict]:
        version = live(table.pk)[0].version
        services.hand_start(table_id=table.pk, force=True)
        return [e for e in recorded(table.pk, version) if e["type"] == "time_banks"]

    assert next_hand() == []  # hand 1: each has one hand counted
    before = expire(table.pk)  # alice uses 8 s of her bank
    services.hand_timeout(hand_id=before.pk, version=before.version)
    elapse(table.pk, 7.5)
    services.act(table_id=table.pk, user_id=alice.pk, action="call")
    assert bank_of(table, alice) == 2
    play_out(table.pk, passive=True)
    # hand 2: both get 5 s more, bob only up to the cap
    assert next_hand() == [{"type": "time_banks", "banks": {"1": 7, "2": 12},
                            "reason": "refill"}]
    play_out(table.pk, passive=True)
    assert next_hand() == []  # hand 3
    play_out(table.pk, passive=True)
    # hand 4: alice up to the cap; bob is at the cap already: not listed
    assert next_hand() == [{"type": "time_banks", "banks": {"1": 12}, "reason": "refill"}]
    assert (bank_of(table, alice), bank_of(table, bob)) == (12, 12)
    assert Seat.objects.get(player=alice).time_bank_hands == 0
    # the event comes right after hand_start (and the statuses), before the blinds
    kinds = [e["type"] for e in recorded(table.pk, live(table.pk)[0].version - 20)]
    start = len(kinds) - 1 - kinds[::-1].index("hand_start")
    assert kinds[start + 1] == "time_banks" and kinds[start + 2] == "posted_blind"


def test_without_the_option_a_table_behaves_as_before(play_table, make_player, sit,
                                                     fake_timers):
    assert play_table.time_bank_seconds == 0 and play_table.time_bank_label() == ""
    alice, _bob = seated(play_table, make_player, sit)
    assert bank_of(play_table, alice) == 0
    Seat.objects.filter(player=alice).update(time_bank=30)  # a bank left from before: unused
    services.hand_start(table_id=play_table.pk, force=True)
    ts, _hand, _ = live(play_table.pk)
    before = expire(play_table.pk)
    assert services.hand_timeout(hand_id=before.pk, version=before.version) is True
    assert recorded(play_table.pk, ts.version)[0]["action"] == "timeout_allin"
    assert not HandEvent.objects.filter(type__in=("time_bank", "time_banks")).exists()
    assert table_snapshot(table_id=play_table.pk, user_id=None)["table"]["time_bank"] is None


@pytest.mark.parametrize("bank", [False, True])
def test_an_action_without_a_running_bank_takes_no_more_queries(make_table, make_player, sit,
                                                                bank):
    table = make_table(name="Count", lower_stake=2, hand_pause_seconds=0,
                       time_bank_seconds=30 if bank else 0, time_bank_cap_seconds=30)
    seated(table, make_player, sit, ("alice", "bob", "carol"))
    services.hand_start(table_id=table.pk, force=True)
    ts, _hand, _state = live(table.pk)
    actor = to_act_user(table.pk)
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table.pk, user_id=actor, action="call",
                     expected_version=ts.version)
    assert len(queries) <= 7, [q["sql"][:90] for q in queries]  # as test_hands says


def test_an_action_while_the_bank_runs_writes_the_seat_with_the_rest(
        bank_table, make_player, sit, fake_timers):
    alice, _bob = seated(bank_table, make_player, sit)
    services.hand_start(table_id=bank_table.pk, force=True)
    before = expire(bank_table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=bank_table.pk, user_id=alice.pk, action="call")
    limit = 7 if connection.vendor == "postgresql" else 8  # one round trip on PostgreSQL
    assert len(queries) <= limit, [q["sql"][:120] for q in queries]


def test_the_admin_form_checks_the_options():
    from tables.forms import TableConfigForm

    base = {
        "name": "Form", "structure": "NL", "currency": "PLAY", "max_seats": 6,
        "is_active": "on", "big_blind": "2", "small_blind_rule":
        "exact_half", "small_blind": "", "ante": "", "min_buy_in": "80", "max_buy_in": "200",
        "ratholing_window_minutes": 60, "rake_percent": "0", "rake_cap": "",
        "rake_cap_by_players": "", "action_seconds": 10, "countdown_seconds": 20,
        "timeout_policy": "seeds", "timeout_allin_daily_cap": 2, "sit_out_limit_minutes": 10,
        "hand_pause_seconds": 3,
    }
    plain = TableConfigForm(base, instance=TableConfig())
    assert plain.is_valid(), plain.errors  # the options left out: the bank stays off
    assert plain.instance.time_bank_seconds == 0 and plain.instance.time_bank_refill_hands == 10
    blank = TableConfigForm({**base, "time_bank_seconds": "", "time_bank_refill_hands": ""},
                            instance=TableConfig())
    assert blank.is_valid(), blank.errors
    assert (blank.instance.time_bank_seconds, blank.instance.time_bank_refill_hands) == (0, 10)
    low_cap = TableConfigForm({**base, "time_bank_seconds": 30, "time_bank_cap_seconds": 20},
                              instance=TableConfig())
    assert not low_cap.is_valid()
    assert "cannot be below the starting time bank" in low_cap.errors["time_bank_cap_seconds"][0]
    negative = TableConfigForm({**base, "time_bank_refill_seconds": -5}, instance=TableConfig())
    assert "time_bank_refill_seconds" in negative.errors
    no_hands = TableConfigForm({**base, "time_bank_seconds": 30, "time_bank_cap_seconds": 60,
                                "time_bank_refill_seconds": 10, "time_bank_refill_hands": 0},
                               instance=TableConfig())
    assert "time_bank_refill_hands" in no_hands.errors
    good = TableConfigForm({**base, "time_bank_seconds": 30, "time_bank_cap_seconds": 60,
                            "time_bank_refill_seconds": 10, "time_bank_refill_hands": 10},
                           instance=TableConfig())
    assert good.is_valid(), good.errors
    assert good.instance.time_bank_label() == "Time bank: 30 s (+10 s every 10 hands, max 60 s)"


def _bank_view(snap: dict) -> dict:
    hand = snap["hand"] or {}
    return {"seats": {s["seat"]: (s["time_bank"], s["time_bank_running"]) for s in snap["seats"]},
            "deadline": hand.get("deadline"), "countdown_at": hand.get("countdown_at"),
            "to_act": hand.get("to_act")}


def _apply(view: dict, event: dict) -> None:
    """A client's reducer for the time bank's fields (as static/js/table/state.js)."""
    kind, seats = event["type"], view["seats"]
    if kind == "seat_taken":
        seats[event["seat"]] = (0, False)
    elif kind == "seat_left":
        seats.pop(event["seat"], None)
    elif kind in ("turn", "deadline_extended", "time_bank"):
        view.update(deadline=event["deadline"], countdown_at=event["countdown_at"],
                    to_act=event["seat"])
        if kind == "turn":
            view["seats"] = {n: (bank, False) for n, (bank, _) in seats.items()}
        if kind == "time_bank":
            seats[event["seat"]] = (event["seconds"], True)
    elif kind == "time_banks":
        for n, seconds in event["banks"].items():
            seats[int(n)] = (seconds, False)
    elif kind in ("action", "hand_end"):
        view.update(deadline=None, countdown_at=None, to_act=None)
        view["seats"] = {n: (bank, False) for n, (bank, _) in seats.items()}


def test_the_events_are_enough_to_follow_the_banks(make_table, make_player, sit, fake_timers):
    """Applying the events to an old snapshot gives the banks a fresh snapshot shows."""
    table = make_table(name="Follow", lower_stake=2, hand_pause_seconds=0, time_bank_seconds=10,
                       time_bank_refill_seconds=4, time_bank_refill_hands=1,
                       time_bank_cap_seconds=12)
    snap = table_snapshot(table_id=table.pk, user_id=None)
    view, version = _bank_view(snap), snap["version"]

    def check() -> None:
        nonlocal version
        for row in HandEvent.objects.filter(table=table, version__gt=version).order_by("version"):
            _apply(view, row.payload)
            version = row.version
        assert view == _bank_view(table_snapshot(table_id=table.pk, user_id=None))

    alice, bob, _carol = seated(table, make_player, sit, ("alice", "bob", "carol"))
    check()
    services.hand_start(table_id=table.pk, force=True)
    check()
    before = expire(table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)  # alice's bank runs
    check()
    elapse(table.pk, 2.5)
    services.act(table_id=table.pk, user_id=alice.pk, action="call")
    check()
    before = expire(table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)  # bob's bank runs
    elapse(table.pk, 13)
    services.hand_timeout(hand_id=before.pk, version=before.version)  # ... and runs out
    check()
    play_out(table.pk, passive=True)
    check()
    services.hand_start(table_id=table.pk, force=True)  # every hand: +4 s up to 12 s
    check()
    # the first hand topped 10 up to the cap (12); alice used 3 s of hers and got 4 back; bob
    # used all of his and, timed out, sits out: not dealt in, no refill
    assert (view["seats"][1][0], view["seats"][2][0], view["seats"][3][0]) == (12, 0, 12)
    services.seat_leave(table_id=table.pk, user_id=bob.pk, idempotency_key="follow-bob")
    play_out(table.pk, passive=True)
    check()


def test_the_lobby_and_the_table_page_state_the_time_bank(client, make_table, make_user):
    from django.urls import reverse

    bank = make_table(name="With bank", time_bank_seconds=30, time_bank_refill_seconds=10,
                      time_bank_refill_hands=10, time_bank_cap_seconds=60)
    plain = make_table(name="Without")
    line = "Time bank: 30 s (+10 s every 10 hands, max 60 s)"
    client.force_login(make_user(username="viewer"))
    assert line in client.get(reverse("lobby")).content.decode()
    assert line in client.get(reverse("tables:table", args=[bank.pk])).content.decode()
    assert "Time bank" not in client.get(reverse("tables:table", args=[plain.pk])).content.decode()


def test_the_table_admin_has_the_options_with_help(admin_client):
    from django.urls import reverse

    page = admin_client.get(reverse("admin:tables_tableconfig_add")).content.decode()
    assert "Time bank" in page and 'name="time_bank_cap_seconds"' in page
    assert "0 = no time bank" in page
    data = {
        "name": "Admin bank", "structure": "NL", "currency": "PLAY", "max_seats": 6,
        "is_active": "on", "big_blind": "2", "small_blind_rule":
        "exact_half", "small_blind": "", "ante": "", "min_buy_in": "80", "max_buy_in": "200",
        "ratholing_window_minutes": 60, "rake_percent": "0", "rake_cap": "",
        "rake_cap_by_players": "", "action_seconds": 10, "countdown_seconds": 20,
        "timeout_policy": "seeds", "timeout_allin_daily_cap": 2, "sit_out_limit_minutes": 10,
        "hand_pause_seconds": 3, "time_bank_seconds": 30, "time_bank_refill_seconds": 10,
        "time_bank_refill_hands": 10, "time_bank_cap_seconds": 60,
    }
    response = admin_client.post(reverse("admin:tables_tableconfig_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = TableConfig.objects.get(name="Admin bank")
    assert table.time_bank_label() == "Time bank: 30 s (+10 s every 10 hands, max 60 s)"


@pytest.mark.parametrize("how", ["she folds", "her bank runs out"])
def test_a_hand_that_ends_while_the_bank_runs_clears_the_mark(bank_table, make_player, sit,
                                                               fake_timers, how):
    """The hand's end writes what the step changed, the bank's mark included: a finished hand
    names no seat whose bank runs (the hand's end used to write a field list of its own that
    left `bank_seat` set)."""
    alice, _bob = seated(bank_table, make_player, sit)
    services.hand_start(table_id=bank_table.pk, force=True)
    before = expire(bank_table.pk)
    services.hand_timeout(hand_id=before.pk, version=before.version)  # her bank runs
    elapse(bank_table.pk, 5)
    if how == "she folds":
        services.act(table_id=bank_table.pk, user_id=alice.pk, action="fold")
    else:
        elapse(bank_table.pk, 30)  # all of it: the bank's deadline has passed
        assert services.hand_timeout(hand_id=before.pk, version=before.version) is True
    hand = Hand.objects.get(pk=before.pk)
    assert hand.finished_at is not None  # heads-up: her fold ended the hand
    assert (hand.bank_seat, hand.bank_started_at, hand.bank_seconds) == (None, None, 0)
    assert bank_of(bank_table, alice) == (24 if how == "she folds" else 0)
