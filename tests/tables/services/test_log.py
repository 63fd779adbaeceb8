"""EventLog's deferred writes: what a step changed of the rows it read is written with its
events — the fields it changed and no others, one UPDATE per row however many parts of the
step changed it (PostgreSQL applies only one of two changes to the same row within one
statement) — without the step naming a field (tables/services/tracking.py)."""
from __future__ import annotations

import pytest
from django.db import transaction

from tables.models import HandSummary, Seat, SeatStatus, TableState
from tables.services.eventlog import EventLog
from tables.services.locks import table_lock
from tests.tables.helpers import sql_sent

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_changes_of_one_seat_are_both_written(play_table, make_player, sit):
    seat = sit(play_table, make_player("ann"), 1)
    with transaction.atomic():
        held = table_lock(play_table.pk)
        log = EventLog(held)
        # the time bank's view of the row: its id only, its bank set since
        bank = log.track(Seat.from_db(None, ["id"], [seat.pk]))
        bank.time_bank = 17
        busted = log.track(Seat.objects.get(pk=seat.pk))  # the busted player's copy
        busted.status = SeatStatus.SITTING_OUT
        log.insert(HandSummary(table=play_table, finished_at=held.table.created_at, pot=10,
                               players_dealt=2, players_saw_flop=0))
        log.add({"type": "status", "seat": 1, "status": "sitting_out", "post_bb": False,
                 "missed_blinds": False})
        with sql_sent() as sent:
            log.flush()
    fresh = Seat.objects.get(pk=seat.pk)
    assert (fresh.time_bank, fresh.status) == (17, SeatStatus.SITTING_OUT)
    assert HandSummary.objects.filter(table=play_table, pot=10).count() == 1
    seat_updates = [part for sql in sent for part in sql.split("UPDATE ")[1:]
                    if part.startswith('"tables_seat"')]
    assert len(seat_updates) == 1, sent  # one UPDATE for the row, both fields in it


def test_only_the_changed_fields_are_written(play_table, make_player, sit):
    """A field the step did not change is not written: a concurrent writer of another field of
    the row (none may exist for seats, but the log must not depend on it) keeps its value."""
    seat = sit(play_table, make_player("ann"), 1)
    with transaction.atomic():
        held = table_lock(play_table.pk)
        log = EventLog(held)
        mine = log.track(Seat.objects.get(pk=seat.pk))
        mine.leave_after_hand = True
        Seat.objects.filter(pk=seat.pk).update(chips=1)  # written by someone else meanwhile
        with sql_sent() as sent:
            log.flush()
    fresh = Seat.objects.get(pk=seat.pk)
    assert (fresh.leave_after_hand, fresh.chips) == (True, 1)
    assert not any('"chips"' in sql for sql in sent), sent


def test_a_step_that_changes_nothing_writes_nothing(play_table, make_player, sit):
    sit(play_table, make_player("ann"), 1)
    with transaction.atomic():
        held = table_lock(play_table.pk)
        log = EventLog(held)
        log.track(Seat.objects.get(table=play_table))
        with sql_sent() as sent:
            log.flush()
    assert sent == []


def test_the_table_rows_fields_follow_the_events_and_the_step(play_table, make_player, sit):
    sit(play_table, make_player("ann"), 1)
    before = TableState.objects.get(pk=play_table.pk)
    with transaction.atomic():
        held = table_lock(play_table.pk)
        log = EventLog(held)
        held.state.button_seat = 1  # changed by the step, named nowhere
        log.add({"type": "leaving", "seat": 1})
        log.flush()
        # a second flush in the same step writes only what changed since the first
        with sql_sent() as sent:
            log.flush()
        assert sent == []
    after = TableState.objects.get(pk=play_table.pk)
    assert (after.version, after.button_seat) == (before.version + 1, 1)


def test_rows_with_the_same_changes_share_one_update_and_keep_their_values(
        play_table, make_player, sit):
    """Seats whose same fields changed go out in one UPDATE (a CASE on the id per field):
    each keeps its own values, of every type (a time, a number, a choice, a flag)."""
    seats = [sit(play_table, make_player(name), n) for n, name in enumerate(("a", "b", "c"), 1)]
    now = play_table.created_at
    with transaction.atomic():
        held = table_lock(play_table.pk)
        log = EventLog(held)
        tracked = [log.track(Seat.objects.get(pk=s.pk)) for s in seats]
        for k, seat in enumerate(tracked):
            seat.status, seat.missed_blinds = SeatStatus.SITTING_OUT, True
            seat.sat_out_at = now.replace(microsecond=k)
            seat.chips += 10 * (k + 1)
        with sql_sent() as sent:
            log.flush()
    for k, seat in enumerate(seats):
        fresh = Seat.objects.get(pk=seat.pk)
        assert (fresh.status, fresh.missed_blinds, fresh.sat_out_at, fresh.chips) == (
            SeatStatus.SITTING_OUT, True, now.replace(microsecond=k),
            seat.chips + 10 * (k + 1))
    seat_updates = [part for sql in sent for part in sql.split("UPDATE ")[1:]
                    if part.startswith('"tables_seat"')]
    assert len(seat_updates) == 1, sent


def test_stack_changes_move_read_seats_in_memory_and_others_by_statement(
        play_table, make_player, sit):
    """The cashier's StackChanges: a seat the step read (tracked) is written with its other
    changes; a seat it did not read gets the chips added in the database."""
    from cashier.services import StackChanges

    read, unread = (sit(play_table, make_player(name), n) for n, name in ((1, "a"), (2, "b")))
    with transaction.atomic():
        held = table_lock(play_table.pk)
        log = EventLog(held)
        seat = log.track(Seat.objects.get(pk=read.pk))
        log.stacks(StackChanges({read.pk: 7, unread.pk: -5}))
        assert seat.chips == read.chips + 7
        log.flush()
    assert Seat.objects.get(pk=read.pk).chips == read.chips + 7
    assert Seat.objects.get(pk=unread.pk).chips == unread.chips - 5
