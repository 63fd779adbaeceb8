"""The demo Sit & Go templates (`seed_demo`, `manage.py bots --sng N`): play money, fast
levels so bots finish in minutes, the room's default payouts (engine/payouts.py)."""
from __future__ import annotations

from django.db import transaction

from cashier.money import Currency
from tables.tournaments.engine.payouts import DEFAULT_PAYOUTS
from tables.tournaments.models import Level, PayoutTier, TournamentKind, TournamentTemplate

# (small blind, big blind, ante, big-blind ante) for one-minute levels.
DEMO_LEVELS = [(10, 20, 0, False), (15, 30, 0, False), (25, 50, 0, False),
               (50, 100, 100, True), (100, 200, 200, True), (200, 400, 400, True),
               (400, 800, 800, True)]


def demo_template(players: int = 6) -> TournamentTemplate:
    """The demo Sit & Go for `players` (2 to 10) on one table: 100 + 10 play chips, 1,000
    tournament chips; made on first use (idempotent)."""
    if not 2 <= players <= 10:
        raise ValueError("a demo Sit & Go has 2 to 10 players")
    name = f"Demo Sit & Go ({players} players)"
    with transaction.atomic():
        template = TournamentTemplate.objects.filter(name=name).first()
        if template is not None:
            return template
        template = TournamentTemplate(
            name=name, kind=TournamentKind.SIT_AND_GO, currency=Currency.PLAY, buy_in=100,
            fee=10, starting_stack=1_000, seats_per_table=players, entries_cap=players,
            action_seconds=10, countdown_seconds=10, hand_pause_seconds=1)
        template.full_clean()
        template.save()
        for order, (small, big, ante, bb_ante) in enumerate(DEMO_LEVELS, start=1):
            Level.objects.create(template=template, order=order, small_blind=small,
                                 big_blind=big, ante=ante, big_blind_ante=bb_ante, minutes=1)
        for band in DEFAULT_PAYOUTS:
            if band.min_field > players:
                break
            PayoutTier.objects.create(template=template, min_entries=band.min_field,
                                      max_entries=band.max_field or 10_000,
                                      places=list(band.percents_bp))
    return template
