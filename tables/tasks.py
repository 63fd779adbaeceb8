"""Celery tasks of the live tables: turn deadlines and the next hand. Idempotent: each calls
a service that re-checks the table under its lock and does nothing when it is too early or
the situation moved on (duplicates, late deliveries, the beat sweeper's extra runs)."""
from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="tables.hand_timeout")
def hand_timeout(*, hand_id: int, version: int) -> bool:
    """Act for the player to act when the deadline of the turn at `version` has passed."""
    return services.hand_timeout(hand_id=hand_id, version=version)


@shared_task(name="tables.hand_start")
def hand_start(*, table_id: int) -> int | None:
    """Start the table's next hand once its pause is over (no-op otherwise)."""
    hand = services.hand_start(table_id=table_id)
    return hand.pk if hand is not None else None


@shared_task(name="tables.sweep")
def sweep() -> dict[str, int]:
    """Beat, every second: catch what lost eta tasks missed (overdue turns, due hands) and
    remove players sitting out too long. See tables/services/sweeps.py."""
    from dataclasses import asdict

    from tables.services.sweeps import sweep as run

    return asdict(run())
