"""Cancelling a tournament: everyone who paid gets his buy-in and fee back."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tables.errors import TableError
from tables.services.locks import tournament_lock
from tables.tournaments.models import Entry, EntryState, Tournament, TournamentState
from tables.tournaments.services.eventlog import TournamentLog
from tables.tournaments.services.registration import entry_refund


def refund_key(entry: Entry) -> str:
    """The cashier key of a cancellation's refund of one entry: fixed per entry, so a
    cancellation can never refund an entry twice."""
    return f"tournament-{entry.tournament_id}-cancel-entry-{entry.pk}"


def tournament_cancel(*, tournament_id: int, reason: str = "") -> Tournament:
    """Cancel the tournament and refund every entry not yet refunded (registered, playing or
    busted: no prize is paid before the end, so the pool ends empty). Cancelling a cancelled
    tournament changes nothing. Refusal: `tournament_over` (finished).
    Locks: the tournament row, then the cashier's, once per refunded entry (the ledger
    accounts in ascending id each time: the same order)."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if tournament.state == TournamentState.CANCELLED:
            return tournament
        if tournament.state == TournamentState.FINISHED:
            raise TableError("tournament_over", f"{tournament.name} has finished: it cannot "
                             "be cancelled.")
        refunded = 0
        for entry in Entry.objects.filter(tournament=tournament).exclude(
                state=EntryState.UNREGISTERED).order_by("pk"):
            entry_refund(tournament, entry, key=refund_key(entry))
            refunded += 1
        tournament.state, tournament.finished_at = TournamentState.CANCELLED, timezone.now()
        tournament.save(update_fields=["state", "finished_at"])
        log = TournamentLog(tournament)
        log.add({"type": "cancelled", "reason": reason, "refunded": refunded})
        log.flush()
    return tournament
