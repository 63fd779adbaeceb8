"""Recording tournament events: the tournament's next versions, `TournamentEvent` rows, and
their broadcast on the tournament's group after the commit — as a table step records its
events (tables/services/eventlog.py), with nothing private: every tournament event is public."""
from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from observability import metrics
from tables.groups import group_events_broadcast, tournament_group
from tables.tournaments.models import Tournament, TournamentEvent

logger = logging.getLogger(__name__)


class TournamentLog:
    """Collects one service call's events; `flush` numbers them with the tournament's next
    versions, stores them with the new version and queues their broadcast for the commit.
    Needs the tournament's row locked (`tables.services.locks.tournament_lock`)."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.events: list[dict[str, Any]] = []

    def add(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def flush(self) -> list[dict[str, Any]]:
        """Store the events and the tournament's new version (only that field of its row: a
        step saves what else it changed itself). Returns the versioned events."""
        tournament, rows, sent = self.tournament, [], []
        for event in self.events:
            tournament.version += 1
            rows.append(TournamentEvent(tournament=tournament, version=tournament.version,
                                        type=event["type"], payload=event))
            sent.append({"version": tournament.version, "event": event})
        self.events = []
        if not rows:
            return sent
        TournamentEvent.objects.bulk_create(rows)
        Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
        transaction.on_commit(lambda: _broadcast(tournament.pk, sent))
        return sent


def _broadcast(tournament_id: int, items: list[dict[str, Any]]) -> None:
    """After the commit: a lost broadcast is a gap clients fill from the database, so a
    failure is logged and counted, never raised (the step is committed)."""
    try:
        group_events_broadcast(group=tournament_group(tournament_id), items=items)
    except Exception:
        logger.exception("tournament %s: broadcast after commit failed", tournament_id)
        metrics.EFFECT_FAILURES.labels("tournament broadcast").inc()
