"""Worked examples of the two commits of one action (tables/services/copies.py): under the
table lock, and on the process's copy of the table when nothing changed since. Both must give
the same hand, event for event; the copy must see every change made since it was kept — an
admin's edit of the table's timer, a timer re-armed, any step at the table, one committed while
the copy's commit waits.

PostgreSQL only: copies exist only there (row versions); on SQLite every action takes the lock,
and these tests would compare the locked path with itself."""
from __future__ import annotations

import datetime
import random
import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cashier.audit import ledger_audit
from tables import services
from tables.engine import HandState, legal_actions
from tables.models import Hand, HandEvent, Seat, TableConfig
from tables.services import chat, copies, table_sql
from tables.services.locks import table_lock
from tests.conftest import backend_pid, until_waiting_on_a_lock
from tests.tables.helpers import Racer, live, random_action

# An action committed on the copy is one statement; one under the lock takes more (the lock,
# the hand read, the write).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
TIMES = {"deadline", "countdown_at", "next_hand_at", "hand_id", "recent"}


def act(table_id: int, user_id: int, action: str, amount: int | None = None) -> int:
    """Act as the hand's current player; returns the SQL statements it took."""
    ts, _hand, _state = live(table_id)
    with CaptureQueriesContext(connection) as queries:
        services.act(table_id=table_id, user_id=user_id, action=action, amount=amount,
                     expected_version=ts.version)
    return len([q for q in queries.captured_queries if q["sql"] not in {"BEGIN", "COMMIT"}])


def to_act(table_id: int) -> tuple[int, HandState]:
    _ts, _hand, state = live(table_id)
    return int(state.players[state.to_act].player_id), state


def events_of(table: TableConfig) -> list[dict[str, Any]]:
    """The table's events without what differs between two tables (times, hand ids)."""
    return [{k: v for k, v in e.payload.items() if k not in TIMES}
            for e in HandEvent.objects.filter(table=table).order_by("version")]


def admin_timer_change(client: Any, table: TableConfig, action_seconds: int) -> None:
    """Change the table's `action_seconds` through its admin change form."""
    url = reverse("admin:tables_tableconfig_change", args=(table.pk,))
    form = client.get(url).context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else value
    data["action_seconds"] = action_seconds
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors


@pytest.fixture
def two_tables(make_table, make_player, sit, monkeypatch):
    """Two identical tables with the same three players and the same decks."""
    seed = {"next": "0" * 64}  # the first decks are committed as the players sit
    monkeypatch.setattr("tables.services.dealing.new_key", lambda: seed["next"])
    tables = [make_table(name=name, structure="NL", lower_stake=2, max_seats=6,
                         hand_pause_seconds=0) for name in ("Copy", "Lock")]
    players = [make_player(name) for name in ("alice", "bob", "carol")]
    for table in tables:
        for number, player in enumerate(players, start=1):
            sit(table, player, number)
    return tables, seed


def both_started_and_called(on_copy: TableConfig, locked: TableConfig) -> None:
    """Both tables start a hand and its first player calls: `on_copy` keeps its copy of the
    table, `locked` (copies off) took the same step under the lock."""
    for table in (on_copy, locked):
        services.hand_start(table_id=table.pk, force=True)
        user_id, _state = to_act(table.pk)
        with override_settings(ROOM_TABLE_COPIES=table is on_copy):
            act(table.pk, user_id, "call")
    assert on_copy.pk in copies._copies


def test_a_mid_hand_action_after_this_processs_own_is_one_statement(two_tables):
    (table, _other), _seed = two_tables
    services.hand_start(table_id=table.pk, force=True)
    counts = []
    while (hand := live(table.pk)[1]) is not None and hand.finished_at is None:
        user_id, state = to_act(table.pk)
        la = legal_actions(state)
        action = "show" if la.show else "check" if la.check else "call"
        counts.append(act(table.pk, user_id, action))
    # The hand's first action takes the lock and keeps the copy; the next ones, new streets
    # included, commit on it; the last settles the hand under the lock.
    first, *middle, last = counts
    assert len(middle) >= 4 and set(middle) == {1}
    assert first == 3
    assert last > max(middle)


def test_both_commits_give_the_same_hands_event_for_event(two_tables):
    (on_copy, locked), seed = two_tables
    rng, statements = random.Random(11), []
    for number in range(12):
        seed["next"] = f"{number:064x}"
        for table in (on_copy, locked):
            services.hand_start(table_id=table.pk, force=True)
        while (hand := live(on_copy.pk)[1]) is not None and hand.finished_at is None:
            user_id, state = to_act(on_copy.pk)
            action, amount = random_action(state, rng)
            statements.append(act(on_copy.pk, user_id, action, amount))
            with override_settings(ROOM_TABLE_COPIES=False):
                assert to_act(locked.pk)[0] == user_id
                act(locked.pk, user_id, action, amount)
        assert live(locked.pk)[1].finished_at is not None
    # most actions were committed on the copy: the comparison is of both commits
    assert statements.count(1) > len(statements) / 2
    assert events_of(on_copy) == events_of(locked)
    chips = [sorted(Seat.objects.filter(table=t).values_list("player_id", "chips"))
             for t in (on_copy, locked)]
    assert chips[0] == chips[1]
    report = ledger_audit()
    assert report.ok, report.summary()


def test_an_admin_timer_change_mid_hand_reaches_the_next_turn_under_both_commits(
        two_tables, admin_client):
    (on_copy, locked), _seed = two_tables
    both_started_and_called(on_copy, locked)
    for table in (on_copy, locked):
        admin_timer_change(admin_client, table, action_seconds=45)
        user_id, _state = to_act(table.pk)
        with override_settings(ROOM_TABLE_COPIES=table is on_copy):
            assert act(table.pk, user_id, "call") > 1  # the copy was stale: the lock
        hand = Hand.objects.get(pk=live(table.pk)[1].pk)
        assert hand.deadline - hand.turn_started_at == datetime.timedelta(
            seconds=45 + table.countdown_seconds)
    assert events_of(on_copy) == events_of(locked)


def test_a_timer_re_armed_since_the_copy_is_not_overwritten(two_tables, fake_timers):
    (table, _other), _seed = two_tables
    services.hand_start(table_id=table.pk, force=True)
    user_id, _state = to_act(table.pk)
    act(table.pk, user_id, "call")  # the copy is kept, with the hand's timer as it was
    hand = live(table.pk)[1]
    Hand.objects.filter(pk=hand.pk).update(timer_at=None)  # as if the task had been lost
    # A stale task finds the turn moved on and queues one for it: the hand's timer changes
    # (under the table lock) and no event is recorded.
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version - 1) is False
    rearmed = Hand.objects.get(pk=hand.pk).timer_at
    assert rearmed is not None
    user_id, state = to_act(table.pk)
    action = "check" if legal_actions(state).check else "call"
    assert act(table.pk, user_id, action) > 1  # the copy was stale: the lock
    assert Hand.objects.get(pk=hand.pk).timer_at >= rearmed


def test_a_refusal_on_the_copy_is_the_locked_paths_refusal(two_tables):
    (table, _other), _seed = two_tables
    services.hand_start(table_id=table.pk, force=True)
    user_id, _state = to_act(table.pk)
    act(table.pk, user_id, "call")
    waiting = next(p for p in live(table.pk)[2].players if int(p.player_id) != to_act(table.pk)[0])
    with pytest.raises(services.TableError) as refused:
        act(table.pk, int(waiting.player_id), "check")
    assert refused.value.code == "not_your_turn"
    user_id, _state = to_act(table.pk)
    act(table.pk, user_id, "call")  # the table is as it was: the hand goes on


def copy_tries(result: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("room_copy_tries_total", {"result": result}) or 0.0


@pytest.mark.parametrize("holder_acts", [True, False], ids=["holder-acts", "holder-only-locks"])
def test_a_copy_commit_waiting_on_a_lock_holder_writes_nothing_and_runs_under_the_lock(
        two_tables, holder_acts):
    """Another process's step holds the table lock when this process commits on its copy.
    The copy's commit waits for it, then finds the table row changed and writes nothing; the
    action runs under the lock, from the table as the holder left it: refused if the holder
    took the same turn (another socket of the same player), else applied. Either way the table
    ends exactly as the other table does after the same two actions, taken one by one."""
    (on_copy, locked), _seed = two_tables
    both_started_and_called(on_copy, locked)
    ts, _hand, state = live(on_copy.pk)
    user_id = int(state.players[state.to_act].player_id)
    action = "check" if legal_actions(state).check else "call"
    take_turn = {"table_id": on_copy.pk, "user_id": user_id, "action": action,
                 "expected_version": ts.version}
    locking, go, copy_pid = threading.Event(), threading.Event(), []

    def holder() -> object:
        with transaction.atomic():
            table_lock(on_copy.pk)
            locking.set()
            assert go.wait(10)
            return services.act(**take_turn) if holder_acts else None

    def on_the_copy() -> object:
        assert locking.wait(10)
        copy_pid.append(backend_pid())
        return services.act(**take_turn)

    tries = {result: copy_tries(result) for result in ("committed", "locked")}
    first, second = Racer(holder), Racer(on_the_copy)
    first.start()
    second.start()
    try:
        until_waiting_on_a_lock(copy_pid)  # the copy's one statement, on the holder's lock
    finally:
        go.set()
    held, copied = first.outcome(), second.outcome()

    if holder_acts:
        assert isinstance(held, list) and held
        assert isinstance(copied, services.TableError) and copied.code == "stale_version"
    else:
        assert held is None
        assert isinstance(copied, list) and copied, copied
    with override_settings(ROOM_TABLE_COPIES=False):
        act(locked.pk, user_id, action)
    assert events_of(on_copy) == events_of(locked)
    versions = list(HandEvent.objects.filter(table=on_copy).order_by("version")
                    .values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))
    assert live(on_copy.pk)[0].version == versions[-1]
    assert to_act(on_copy.pk)[0] == to_act(locked.pk)[0] != user_id
    assert copy_tries("locked") - tries["locked"] == 1  # tried on the copy, then the lock
    assert copy_tries("committed") == tries["committed"]


# Preconditions (copies.py): each is code, each is tried here -------------------------------
def kept(table: TableConfig) -> Any:
    """A hand started and its first action taken under the lock: the process keeps its copy."""
    services.hand_start(table_id=table.pk, force=True)
    user_id, _state = to_act(table.pk)
    assert act(table.pk, user_id, "call") == 3
    return copies._copies[table.pk]


def next_turn(table: TableConfig) -> tuple[int, str]:
    user_id, state = to_act(table.pk)
    return user_id, "check" if legal_actions(state).check else "call"


def test_inside_an_outer_transaction_the_copy_is_not_used_and_nothing_is_sent_before_the_commit(
        two_tables, monkeypatch):
    (table, _other), _seed = two_tables
    kept(table)
    sent: list[list[dict]] = []
    monkeypatch.setattr("tables.services.effects.events_broadcast",
                        lambda *, table_id, items: sent.append(items))
    user_id, action = next_turn(table)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            services.act(table_id=table.pk, user_id=user_id, action=action)
        assert sent == []  # a rollback here would undo what clients had been sent
        assert len(queries) > 1  # the lock, not the copy's one statement
    assert len(sent) == 1 and sent[0][0]["event"]["type"] == "action"
    assert next_turn(table)[0] != user_id


def test_a_copys_commit_refuses_to_run_inside_a_transaction(two_tables):
    (table, _other), _seed = two_tables
    copy = kept(table)
    with transaction.atomic(), pytest.raises(table_sql.CommitInTransaction):
        table_sql.copy_commit(copy.state, ["version"], copy.hand, ["version"], [],
                         xmin=copy.xmin, config_xmin=copy.config_xmin, version=copy.version)


def test_a_copy_at_another_table_version_writes_nothing(two_tables):
    """The table's version is checked with the row versions: a copy whose version is not the
    table row's (a row version reused after wraparound, a copy gone wrong) runs the action
    under the lock."""
    (table, _other), _seed = two_tables
    copy = kept(table)
    copy.version -= 1
    user_id, action = next_turn(table)
    assert act(table.pk, user_id, action) > 1  # the copy's statement wrote nothing: the lock
    versions = list(HandEvent.objects.filter(table=table).order_by("version")
                    .values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))
    assert next_turn(table)[0] != user_id


def test_a_copy_expires_with_its_hands_turn_deadline(two_tables):
    """Once the turn's deadline has passed the turn is the timeout task's: an action still
    racing it goes through the lock, never the copy (whose hand is as the copy saw it)."""
    (table, _other), _seed = two_tables
    copy = kept(table)
    past = timezone.now() - datetime.timedelta(seconds=1)
    Hand.objects.filter(pk=copy.hand.pk).update(deadline=past)  # time went by: nothing else
    copy.hand.deadline = past
    user_id, action = next_turn(table)
    assert act(table.pk, user_id, action) > 1
    assert table.pk in copies._copies  # kept again, from the locked step, with its new turn
    assert copies._copies[table.pk].hand.deadline > timezone.now()


# Fold and leave (leaving.py): the leavers' folds go through the same engine step ------------
def test_a_leave_makes_the_copy_stale_and_the_leaver_is_folded_on_both_commits(two_tables):
    """Carol (the big blind) leaves while Alice is to act. The copy kept before the leave is
    stale (the leave took the lock): Alice's call runs under the lock; Bob's call on the copy
    kept then reaches Carol, who is folded in that same step. Both tables agree."""
    (on_copy, locked), _seed = two_tables
    for table in (on_copy, locked):
        services.hand_start(table_id=table.pk, force=True)
        carol = Seat.objects.get(table=table, number=3).player_id
        services.seat_leave(table_id=table.pk, user_id=carol, idempotency_key=f"l{table.pk}")
        with override_settings(ROOM_TABLE_COPIES=table is on_copy):
            user_id, _state = to_act(table.pk)
            assert act(table.pk, user_id, "call") == 3  # the lock: then the copy is kept
            user_id, _state = to_act(table.pk)
            statements = act(table.pk, user_id, "call")
        assert statements == 1 if table is on_copy else statements > 1
        state = live(table.pk)[2]
        assert state.players[state.index_of(3)].folded and state.street == 1  # Carol folded: flop
    assert events_of(on_copy) == events_of(locked)


def test_a_chat_line_mid_hand_keeps_a_fresh_copy_and_the_next_action_commits_on_it(two_tables):
    """A chat line takes the table lock, so the copy the last action kept is stale; the chat
    keeps its own, and the next action commits on that (one statement), hand and events as
    under the lock."""
    (on_copy, locked), _seed = two_tables
    both_started_and_called(on_copy, locked)
    for table in (on_copy, locked):
        with override_settings(ROOM_TABLE_COPIES=table is on_copy):
            alice = Seat.objects.get(table=table, number=1).player_id
            chat.chat_say(table_id=table.pk, user_id=alice, text="nice hand")
            user_id, _state = to_act(table.pk)
            statements = act(table.pk, user_id, "call")
        assert statements == 1 if table is on_copy else statements > 1
    def alike(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Without the chat line's own id and time, which differ between the two tables."""
        return [{k: v for k, v in e.items() if k not in ("at", "id")} for e in events]

    assert alike(events_of(on_copy)) == alike(events_of(locked))


def test_a_leavers_fold_that_ends_the_hand_settles_under_the_lock(two_tables):
    """On the copy, Bob folds and the action reaches Carol, who left: her fold ends the hand,
    which the copy cannot settle (NotOnCopy, nothing written): the action runs under the lock,
    the hand is settled and Carol cashed out."""
    (on_copy, locked), _seed = two_tables
    locked_tries = copy_tries("locked")
    for table in (on_copy, locked):
        services.hand_start(table_id=table.pk, force=True)
        carol = Seat.objects.get(table=table, number=3).player_id
        services.seat_leave(table_id=table.pk, user_id=carol, idempotency_key=f"l{table.pk}")
        with override_settings(ROOM_TABLE_COPIES=table is on_copy):
            user_id, _state = to_act(table.pk)
            act(table.pk, user_id, "call")  # Alice, under the lock: the copy is kept
            user_id, _state = to_act(table.pk)
            assert act(table.pk, user_id, "fold") > 1  # Bob: Carol's fold ends the hand
        assert live(table.pk)[1].finished_at is not None
        assert not Seat.objects.filter(table=table, number=3).exists()
    assert copy_tries("locked") == locked_tries + 1  # the copy tried, and gave way
    assert events_of(on_copy) == events_of(locked)
    report = ledger_audit()
    assert report.ok, report.summary()
