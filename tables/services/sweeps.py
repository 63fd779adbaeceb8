"""The sweeper's services: catch up on what a lost Celery task would have done.

Turn deadlines and next hands are normally queued with an eta (tables/scheduling.py). A task can be
lost (a worker killed with its reserved eta tasks, a Redis flush); the database still knows what
is due, so a beat task calls `sweep` every second. Every action it takes goes through the same
idempotent services as the tasks (they re-check under the table lock), so a sweep that races a
task, or another sweep, does nothing twice.

It logs only when it acted (one line per thing done, with the table and hand ids) and counts
what it did in `room_sweep_acts_total`: a sweep that finds nothing to do says nothing."""
from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from cashier.errors import CashierError
from observability import metrics
from tables.models import Hand, Seat, SeatStatus, TableState
from tables.services.eventlog import EventLog
from tables.services.finishing import seat_remove
from tables.services.locks import table_lock
from tables.services.starting import hand_start
from tables.services.timeouts import hand_timeout

# The regular eta task normally fires at the deadline; the sweeper steps in only after this.
LATE = datetime.timedelta(seconds=1)
logger = logging.getLogger(__name__)


@dataclass
class SweepReport:
    timeouts: int = 0
    hands_started: int = 0
    sit_outs_removed: int = 0


def sweep(*, now: datetime.datetime | None = None) -> SweepReport:
    """Act on overdue turns, start due hands, remove players sitting out too long."""
    now = now or timezone.now()
    report = SweepReport()
    overdue = Hand.objects.filter(finished_at__isnull=True, deadline__lt=now - LATE)
    for hand_id, table_id, version in overdue.values_list("pk", "table_id", "version"):
        if hand_timeout(hand_id=hand_id, version=version):
            report.timeouts += 1
            _acted("timeouts", "acted for the player to act: the turn was overdue",
                   table_id=table_id, hand_id=hand_id)
    due = TableState.objects.filter(next_hand_at__lt=now - LATE, table__is_active=True)
    for table_id in due.values_list("pk", flat=True):
        hand = hand_start(table_id=table_id)
        if hand is not None:
            report.hands_started += 1
            _acted("hands_started", "dealt a hand that was due", table_id=table_id,
                   hand_id=hand.pk)
    expired = (Seat.objects.filter(status=SeatStatus.SITTING_OUT, sat_out_at__isnull=False,
                                   table__tournament__isnull=True)  # blinded off, never removed
               .values_list("table_id", flat=True).distinct())
    for table_id in expired:
        removed = sit_outs_expire(table_id=table_id, now=now)
        if removed:
            report.sit_outs_removed += removed
            _acted("sit_outs_removed", f"cashed out {removed} player(s) sitting out too long",
                   table_id=table_id, count=removed)
    return report


def _acted(what: str, message: str, *, table_id: int, hand_id: int | None = None,
           count: int = 1) -> None:
    """One log line and the metric for something the sweep did (a lost task's work)."""
    metrics.SWEEP_ACTS.labels(what).inc(count)
    logger.info("sweep: %s", message, extra={"table_id": table_id, "hand_id": hand_id})


def sit_outs_expire(*, table_id: int, now: datetime.datetime | None = None) -> int:
    """Remove and cash out players sitting out longer than the table's sit_out_limit_minutes
    (not while they are still in a running hand). Returns how many left.
    Locks: the table row, then the cashier's."""
    now = now or timezone.now()
    with transaction.atomic():
        held = table_lock(table_id)
        ts = held.state
        if ts.table.is_tournament:  # a tournament's absent players are blinded off instead
            return 0
        limit = datetime.timedelta(minutes=ts.table.sit_out_limit_minutes)
        in_hand = set(ts.hand.seat_ids.values()) if ts.hand_running else set()
        seats = (Seat.objects.filter(table_id=table_id, status=SeatStatus.SITTING_OUT,
                                     sat_out_at__lte=now - limit)
                 .exclude(pk__in=in_hand).order_by("pk"))
        log = EventLog(held)
        removed = 0
        for seat in seats:
            try:
                log.add(seat_remove(log, seat=seat, key=f"sit-out-expired:{seat.pk}:{seat.player_id}:{seat.sat_out_at:%s%f}"))
            except CashierError:  # never expected; the next sweep retries, others still go
                continue
            removed += 1
        log.flush()
        return removed
