"""Tournament templates and tournaments for tests (the cashier's tests use them too: a prize
pool belongs to a tournament row)."""
from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from cashier.money import Currency
from tables.tournaments.models import (
    Level,
    PayoutTier,
    Tournament,
    TournamentKind,
    TournamentTemplate,
)
from tables.tournaments.services import tournament_create

# A six-player Sit & Go: one paid place up to 4 entries, two from 5.
SNG_PAYOUTS = [(1, 4, [10_000]), (5, 6, [6_500, 3_500])]


def template_make(*, name: str | None = None, levels: int = 3,
                  payouts: list[tuple[int, int, list[int]]] | None = None,
                  **fields: Any) -> TournamentTemplate:
    """A play-money Sit & Go for six, 1,000 + 100, 1,500 chips, by default."""
    fields.setdefault("kind", TournamentKind.SIT_AND_GO)
    fields.setdefault("currency", Currency.PLAY)
    fields.setdefault("buy_in", 1_000)
    fields.setdefault("fee", 100)
    fields.setdefault("starting_stack", 1_500)
    fields.setdefault("seats_per_table", 6)
    if fields["kind"] == TournamentKind.SIT_AND_GO:
        fields.setdefault("entries_cap", 6)
    template = TournamentTemplate(
        name=name or f"Template {TournamentTemplate.objects.count() + 1}", **fields)
    template.full_clean()
    template.save()
    for order in range(1, levels + 1):
        Level.objects.create(template=template, order=order, small_blind=10 * order,
                             big_blind=20 * order, minutes=5)
    for low, high, places in SNG_PAYOUTS if payouts is None else payouts:
        PayoutTier.objects.create(template=template, min_entries=low, max_entries=high,
                                  places=places)
    return template


def tournament_make(*, registering: bool = True, **fields: Any) -> Tournament:
    """A tournament of a new template (`fields` for the template), registering."""
    template = template_make(**fields)
    starts_at = (timezone.now() + datetime.timedelta(hours=1)
                 if template.kind == TournamentKind.SCHEDULED else None)
    return tournament_create(template=template, starts_at=starts_at, registering=registering)
