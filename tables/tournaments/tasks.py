"""Celery tasks of tournaments: the clock at each level's or break's change, and the beat
sweeper that catches what a lost task or a lost start missed. Idempotent: each calls a
service that re-checks under the tournament's lock."""
from __future__ import annotations

from celery import shared_task

from tables import scheduling
from tables.tournaments.services.clock import tournament_clock
from tables.tournaments.services.sweeps import tournaments_sweep


@shared_task(name=scheduling.TOURNAMENT_CLOCK_TASK)
def clock(*, tournament_id: int) -> int:
    """Record the level or break now in force; returns the level."""
    return tournament_clock(tournament_id=tournament_id).level


@shared_task(name="tournaments.sweep")
def sweep() -> dict[str, int]:
    """Beat: start full Sit & Gos a lost start left waiting, catch clocks a lost task left
    behind."""
    return tournaments_sweep()
