"""Celery tasks of the live tables: turn deadlines and the next hand. Idempotent: each calls
a service that re-checks the table under its lock and does nothing when it is too early or
the situation moved on (duplicates, late deliveries, the beat sweeper's extra runs)."""
from __future__ import annotations

import logging
from dataclasses import asdict

from celery import shared_task

from observability.logs import log_context
from tables import scheduling
from tables.models import Hand
from tables.services import hand_stats, starting, sweeps, timeouts, waitlist

logger = logging.getLogger(__name__)


@shared_task(name=scheduling.HAND_TIMEOUT_TASK)
def hand_timeout(*, hand_id: int, version: int) -> bool:
    """Act for the player to act when the deadline of the turn at `version` has passed."""
    with log_context(hand_id=hand_id):
        acted = timeouts.hand_timeout(hand_id=hand_id, version=version)
        if acted:
            table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
            logger.info("turn timed out: the server acted for the player",
                        extra={"table_id": table_id})
    return acted


@shared_task(name=scheduling.HAND_START_TASK)
def hand_start(*, table_id: int) -> int | None:
    """Start the table's next hand once its pause is over (no-op otherwise)."""
    with log_context(table_id=table_id):
        hand = starting.hand_start(table_id=table_id)
    return hand.pk if hand is not None else None


@shared_task(name=scheduling.HAND_STATS_TASK)
def hand_stats_count(*, hand_id: int) -> bool:
    """Add a finished hand to its players' statistics; a redelivery adds nothing (the hand is
    claimed once: services/hand_stats.py)."""
    with log_context(hand_id=hand_id):
        return hand_stats.hand_stats_count(hand_id=hand_id)


@shared_task(name="tables.sweep")
def sweep() -> dict[str, int]:
    """Beat, every second: catch what lost eta tasks missed (overdue turns, due hands) and
    remove players sitting out too long. See tables/services/sweeps.py."""
    return asdict(sweeps.sweep())


@shared_task(name=waitlist.OFFERS_EXPIRE_TASK)
def waitlist_offers_expire(*, table_id: int) -> int:
    """At a seat offer's end: move the waiting list on if the offer lapsed (no-op otherwise).
    Reads also do this, so a lost task only delays the list until someone looks."""
    return waitlist.offers_expire(table_id=table_id)
