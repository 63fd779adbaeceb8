"""Concurrent requests on real database connections: the table lock serialises them, so of
several actions on the same version exactly one lands and the rest are refused unchanged.

Each race is forced, not hoped for: a transaction holds the table lock while the racing calls
start, and lets go only once every one of them is seen waiting for it. On PostgreSQL a call
waits on the table row's lock (seen in pg_stat_activity). SQLite has no row locks: a step's
transaction begins with BEGIN IMMEDIATE, which waits for the write lock the holder took, so
a call is seen waiting once it sends that BEGIN. Every call's outcome is asserted: a thread
that crashed is a failure, never a success."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction

from cashier.audit import ledger_audit
from tables import services
from tables.errors import TableError
from tables.models import HandEvent, Seat
from tables.services.locks import table_lock
from tests.conftest import backend_pid, until_waiting_on_a_lock
from tests.tables.helpers import Racer, live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


class LockWaits:
    """Which racing threads wait on the transaction that holds the table lock."""

    def __init__(self) -> None:
        self.pids: list[int] = []  # PostgreSQL: the racers' backends
        self.begun: list[int] = []  # SQLite: racers that sent BEGIN IMMEDIATE

    @contextmanager
    def watched(self) -> Iterator[None]:
        """Around a racing call, in its thread."""
        if connection.vendor == "postgresql":
            self.pids.append(backend_pid())
            yield
            return

        def seen(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
            if sql.startswith("BEGIN"):
                self.begun.append(threading.get_ident())
            return execute(sql, *args)

        with connection.execute_wrapper(seen):
            yield

    def until(self, count: int, timeout: float = 10.0) -> None:
        """Until `count` racers wait on the holder."""
        if connection.vendor == "postgresql":
            until_waiting_on_a_lock(self.pids, count, timeout)
            return
        deadline = time.monotonic() + timeout
        while len(self.begun) < count:
            assert time.monotonic() < deadline, f"{len(self.begun)} of {count} racers began"
            time.sleep(0.02)


def race(table_id: int, calls: list[Callable[[], object]]) -> list[object]:
    """Run the calls in threads that all wait on the table lock, then release it: each
    outcome is a value or whatever the call raised."""
    waits = LockWaits()

    def watched(call: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            with waits.watched():
                return call()
        return run

    racers = [Racer(watched(call)) for call in calls]
    with transaction.atomic():
        table_lock(table_id)
        for racer in racers:
            racer.start()
        waits.until(len(racers))
    return [racer.outcome() for racer in racers]


def refusal(outcome: object) -> str | None:
    return outcome.code if isinstance(outcome, TableError) else None


def test_same_version_from_everyone_at_once_lands_once(play_table, make_player, sit):
    users = [make_player(n) for n in ("a", "b", "c", "d")]
    for n, u in enumerate(users, start=1):
        sit(play_table, u, n)
    services.hand_start(table_id=play_table.pk, force=True)
    ts, _hand, _ = live(play_table.pk)
    actor = to_act_user(play_table.pk)
    calls = [lambda u=u: services.act(table_id=play_table.pk, user_id=u.pk, action="call",
                                      expected_version=ts.version) for u in users]
    calls.append(lambda: services.act(table_id=play_table.pk, user_id=actor, action="call",
                                      expected_version=ts.version))  # the same act twice
    results = race(play_table.pk, calls)
    landed = [r for r in results if isinstance(r, list)]
    refused = [refusal(r) for r in results if not isinstance(r, list)]
    assert len(landed) == 1, results
    assert len(refused) == 4 and set(refused) <= {"stale_version", "not_your_turn"}, results
    assert HandEvent.objects.filter(table=play_table, type="action").count() == 1


def test_sitting_in_the_same_seat_at_once(play_table, make_player, sit):
    users = [make_player(n) for n in ("a", "b", "c")]
    results = race(play_table.pk, [
        lambda u=u: services.seat_take(table_id=play_table.pk, user=u, number=1, amount=200,
                                       idempotency_key=f"race-{u.pk}") for u in users])
    seated = [r for r in results if isinstance(r, Seat)]
    assert len(seated) == 1, results
    assert [refusal(r) for r in results if r not in seated] == ["seat_taken"] * 2, results
    assert Seat.objects.get(table=play_table, number=1).player_id == seated[0].player_id
    assert ledger_audit().ok


def test_acts_and_seating_in_parallel_keep_the_ledger_balanced(play_table, make_player, sit):
    users = [make_player(n) for n in ("a", "b", "c")]
    for n, u in enumerate(users, start=1):
        sit(play_table, u, n, 150)  # below the table's maximum of 200: room for a top-up
    newcomer = make_player("d")
    services.hand_start(table_id=play_table.pk, force=True)
    ts, _hand, _ = live(play_table.pk)
    actor = to_act_user(play_table.pk)
    acted, sat, topped, sat_out = race(play_table.pk, [
        lambda: services.act(table_id=play_table.pk, user_id=actor, action="call",
                             expected_version=ts.version),
        lambda: services.seat_take(table_id=play_table.pk, user=newcomer, number=5, amount=200,
                                   idempotency_key="race-new"),
        lambda: services.seat_top_up(table_id=play_table.pk, user_id=users[0].pk, amount=20,
                                idempotency_key="race-top"),
        lambda: services.sit_out(table_id=play_table.pk, user_id=users[1].pk),
    ])
    # None moves the hand but the act, so each lands whatever order the lock gave them.
    assert isinstance(acted, list) and acted, acted
    assert isinstance(sat, Seat) and (sat.number, sat.player_id) == (5, newcomer.pk), sat
    assert topped == 20, topped
    assert isinstance(sat_out, Seat) and sat_out.player_id == users[1].pk, sat_out
    play_out(play_table.pk, passive=True)
    report = ledger_audit()
    assert report.ok, report.summary()
    versions = list(HandEvent.objects.filter(table=play_table).values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))  # gap-free, each version once


def test_a_leave_waiting_on_a_hand_start_sees_the_new_hand(play_table, make_player, sit):
    """A player who asks to leave while the table is busy dealing is in that hand once the lock
    is his: not on his turn, he leaves after it, and the hand settles with his seat still there. (The table row
    must be re-read after the wait, hand included; a stale read freed the seat mid-hand.)"""
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    waits = LockWaits()
    dealing, go = threading.Event(), threading.Event()

    def deal() -> object:
        with transaction.atomic():
            table_lock(play_table.pk)
            dealing.set()
            assert go.wait(10)  # the leave below now waits on the table lock
            return services.hand_start(table_id=play_table.pk, force=True)

    def leave() -> object:
        assert dealing.wait(10)
        with waits.watched():
            return services.seat_leave(table_id=play_table.pk, user_id=bob.pk,
                                       idempotency_key="leave-bob")

    dealer, leaver = Racer(deal), Racer(leave)
    dealer.start()
    leaver.start()
    try:
        waits.until(1)
    finally:
        go.set()
    hand, left_now = dealer.outcome(), leaver.outcome()

    assert hand is not None and not isinstance(hand, BaseException), hand
    assert left_now is False  # dealt in, alice to act: he leaves when the hand ends
    assert Seat.objects.get(table=play_table, player=bob).leave_after_hand
    play_out(play_table.pk)
    assert not Seat.objects.filter(table=play_table, player=bob).exists()
    assert ledger_audit().ok
