"""Creating a tournament from a template: the structure is copied, so later edits of the
template change nothing the event plays by."""
from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from tables.errors import TableError
from tables.tournaments.models import (
    Tournament,
    TournamentKind,
    TournamentState,
    TournamentTemplate,
    places_error,
)
from tables.tournaments.services.eventlog import TournamentLog


def tournament_create(*, template: TournamentTemplate,
                      starts_at: datetime.datetime | None = None,
                      registering: bool = True) -> Tournament:
    """A new tournament of `template`, registering at once (`registering=False`: announced
    only). A scheduled event needs `starts_at`; a Sit & Go has none (it starts when full).

    Refusals: `invalid_template` (inactive, no levels, or a payout that does not add up),
    `no_start_time`. Records the `created` event."""
    if not template.is_active:
        raise TableError("invalid_template", f"The template “{template}” is not active.")
    if template.kind == TournamentKind.SCHEDULED and starts_at is None:
        raise TableError("no_start_time", "A scheduled tournament needs a start time.")
    try:
        template.full_clean()
    except ValidationError as error:
        raise TableError("invalid_template", "; ".join(error.messages)) from None
    structure = template.structure_snapshot()
    if not any(not level["is_break"] for level in structure["levels"]):
        raise TableError("invalid_template", f"The template “{template}” has no levels.")
    if not structure["payouts"] or any(places_error(tier["places"])
                                       for tier in structure["payouts"]):
        raise TableError("invalid_template", f"The template “{template}” has no valid payout.")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            template=template, name=template.name, kind=template.kind,
            currency=template.currency, buy_in=template.buy_in, fee=template.fee,
            structure=structure,
            starts_at=starts_at if template.kind == TournamentKind.SCHEDULED else None,
            state=TournamentState.REGISTERING if registering else TournamentState.ANNOUNCED,
        )
        log = TournamentLog(tournament)
        log.add({"type": "created", "state": tournament.state, "name": tournament.name,
                 "starts_at": starts_at.isoformat() if tournament.starts_at else None})
        log.flush()
    return tournament
