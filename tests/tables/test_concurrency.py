"""Concurrent requests on real database connections: the table lock serialises them, so of
several actions on the same version exactly one lands and the rest are refused unchanged."""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from cashier.audit import ledger_audit
from tables import services
from tables.errors import TableError
from tables.models import HandEvent
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


def race(calls: list) -> list[object]:
    """Run the calls in threads released at once; each result is a value or a TableError."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except TableError as e:
            results[i] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


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
    results = race(calls)
    landed = [r for r in results if isinstance(r, list)]
    refused = [r.code for r in results if isinstance(r, TableError)]
    assert len(landed) == 1
    assert set(refused) <= {"stale_version", "not_your_turn"} and len(refused) == 4
    assert HandEvent.objects.filter(table=play_table, type="action").count() == 1


def test_sitting_in_the_same_seat_at_once(play_table, make_player, sit):
    users = [make_player(n) for n in ("a", "b", "c")]
    results = race([
        lambda u=u: services.seat_take(table_id=play_table.pk, user=u, number=1, amount=200,
                                       idempotency_key=f"race-{u.pk}") for u in users])
    assert sum(1 for r in results if not isinstance(r, TableError)) == 1
    assert {r.code for r in results if isinstance(r, TableError)} == {"seat_taken"}
    assert ledger_audit().ok


def test_acts_and_seating_in_parallel_keep_the_ledger_balanced(play_table, make_player, sit):
    users = [make_player(n) for n in ("a", "b", "c")]
    for n, u in enumerate(users, start=1):
        sit(play_table, u, n)
    newcomer = make_player("d")
    services.hand_start(table_id=play_table.pk, force=True)
    ts, _hand, _ = live(play_table.pk)
    race([
        lambda: services.act(table_id=play_table.pk, user_id=to_act_user(play_table.pk),
                             action="call", expected_version=ts.version),
        lambda: services.seat_take(table_id=play_table.pk, user=newcomer, number=5, amount=200,
                                   idempotency_key="race-new"),
        lambda: services.top_up(table_id=play_table.pk, user_id=users[0].pk, amount=1,
                                idempotency_key="race-top"),
        lambda: services.sit_out(table_id=play_table.pk, user_id=users[1].pk),
    ])
    play_out(play_table.pk, passive=True)
    report = ledger_audit()
    assert report.ok, report.summary()
    versions = list(HandEvent.objects.filter(table=play_table).values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))  # gap-free, each version once


def test_a_leave_waiting_on_a_hand_start_sees_the_new_hand(play_table, make_player, sit):
    """A player who asks to leave while the table is busy dealing is in that hand once the lock
    is his: he leaves after it, and the hand settles with his seat still there. (The table row
    must be re-read after the wait, hand included; a stale read freed the seat mid-hand.)"""
    import time

    from django.db import transaction

    from cashier.audit import ledger_audit as audit
    from tables.models import Seat
    from tables.services.locks import table_lock

    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    dealing = threading.Event()

    def deal() -> object:
        with transaction.atomic():
            table_lock(play_table.pk)
            dealing.set()
            time.sleep(0.5)  # the leave below now waits on the table row
            return services.hand_start(table_id=play_table.pk, force=True)

    def leave() -> object:
        dealing.wait(10)
        return services.seat_leave(table_id=play_table.pk, user_id=alice.pk,
                                   idempotency_key="leave-alice")

    hand, left_now = race([deal, leave])

    assert hand is not None
    assert left_now is False  # she was dealt in: she leaves when the hand ends
    assert Seat.objects.get(table=play_table, player=alice).leave_after_hand
    play_out(play_table.pk)
    assert not Seat.objects.filter(table=play_table, player=alice).exists()
    assert audit().ok
