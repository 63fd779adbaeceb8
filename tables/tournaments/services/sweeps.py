"""The tournaments' sweeper: catch up on what a lost start or clock task would have done.
Every action goes through the same idempotent services (they re-check under the tournament's
lock), so a sweep racing a task does nothing twice."""
from __future__ import annotations

import datetime
import logging

from django.db.models import Count, Q
from django.utils import timezone

from tables.models import TableConfig
from tables.tournaments.models import (
    STARTED,
    Entry,
    EntryState,
    Tournament,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services.clock import clock_now, tournament_clock
from tables.tournaments.services.starting import tournament_start
from tables.tournaments.services.tables import idle_tables, multi_table

logger = logging.getLogger(__name__)


def tournaments_sweep(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """Start every full Sit & Go still registering and every scheduled event at its start
    time (or cancel it short of its minimum field); record every clock change not yet
    recorded; settle the idle tables of multi-table events (a step a restart lost). Returns
    how many of each it did."""
    now = now or timezone.now()
    report = {"started": 0, "clocks": 0, "cancelled": 0, "settled": 0}
    due = Tournament.objects.filter(kind=TournamentKind.SCHEDULED,
                                    state=TournamentState.REGISTERING, starts_at__lte=now)
    for tournament in due.order_by("starts_at", "pk"):
        state = tournament_start(tournament_id=tournament.pk, now=now).state
        report["started" if state in STARTED else "cancelled"] += state != tournament.state
        logger.info("sweep: a scheduled tournament's start time", extra={
            "tournament": tournament.pk, "state": state})
    full = (Tournament.objects.filter(kind=TournamentKind.SIT_AND_GO,
                                      state=TournamentState.REGISTERING)
            .annotate(registered=Count("entries", filter=Q(
                entries__state=EntryState.REGISTERED))))
    for tournament in full:
        due = tournament.entries_cap and tournament.registered >= tournament.entries_cap
        if due and tournament_start(tournament_id=tournament.pk, now=now).state in STARTED:
            report["started"] += 1
            logger.info("sweep: started a full Sit & Go", extra={"tournament": tournament.pk})
    for tournament in Tournament.objects.filter(state__in=STARTED):
        clock = clock_now(tournament, now)
        on_break = tournament.state == TournamentState.ON_BREAK
        if (clock.level + 1, clock.on_break) != (tournament.level, on_break):
            tournament_clock(tournament_id=tournament.pk, now=now)
            report["clocks"] += 1
        if multi_table(tournament):
            report["settled"] += tables_settle(tournament)
    return report


def tables_settle(tournament: Tournament) -> int:
    """Run the step at the idle tables of a running multi-table event (no hand running, none
    timed): after a restart lost the step that ends a hand, or for late registrants waiting
    for a seat. The step re-checks everything under its locks. Returns the hands dealt."""
    idle = idle_tables(tournament)
    waiting = Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED).exists()
    if waiting and not idle:
        idle = list(TableConfig.objects.filter(tournament=tournament, seats__isnull=False)
                    .values_list("pk", flat=True).distinct()[:1])
    # (here: the hand start imports this package's hands.py)
    from tables.services.starting import hand_start
    dealt = 0
    for table_id in idle:
        dealt += hand_start(table_id=table_id) is not None
    return dealt
