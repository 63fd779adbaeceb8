"""EventLog's deferred writes: rows a step changes are written with its events, one UPDATE per
row however many parts of the step changed it (PostgreSQL applies only one of two changes to
the same row within one statement)."""
from __future__ import annotations

import pytest
from django.db import transaction

from tables.models import HandSummary, Seat, SeatStatus
from tables.services.locks import table_lock
from tables.services.log import EventLog

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_changes_of_one_seat_are_both_written(play_table, make_player, sit):
    seat = sit(play_table, make_player("ann"), 1)
    with transaction.atomic():
        ts = table_lock(play_table.pk)
        log = EventLog(ts)
        bank = Seat(pk=seat.pk, time_bank=17)  # the time bank's copy of the row
        log.save(bank, ["time_bank"])
        seat.status = SeatStatus.SITTING_OUT  # the busted player's copy
        log.save(seat, ["status"])
        log.insert(HandSummary(table=play_table, finished_at=ts.table.created_at, pot=10,
                               players_dealt=2, players_saw_flop=0))
        log.add({"type": "status", "seat": 1, "status": "sitting_out", "post_bb": False,
                 "missed_blinds": False})
        log.flush()
    fresh = Seat.objects.get(pk=seat.pk)
    assert (fresh.time_bank, fresh.status) == (17, SeatStatus.SITTING_OUT)
    assert HandSummary.objects.filter(table=play_table, pot=10).count() == 1
