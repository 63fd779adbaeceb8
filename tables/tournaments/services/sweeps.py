"""The tournaments' sweeper: catch up on what a lost start or clock task would have done.
Every action goes through the same idempotent services (they re-check under the tournament's
lock), so a sweep racing a task does nothing twice."""
from __future__ import annotations

import datetime
import logging

from django.db.models import Count, Q
from django.utils import timezone

from tables.tournaments.models import (
    STARTED,
    EntryState,
    Tournament,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services.clock import clock_now, tournament_clock
from tables.tournaments.services.starting import tournament_start

logger = logging.getLogger(__name__)


def tournaments_sweep(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """Start every full Sit & Go still registering; record every clock change not yet
    recorded. Returns how many of each it did."""
    now = now or timezone.now()
    report = {"started": 0, "clocks": 0}
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
    return report
