"""Cancelling a tournament: everyone who paid gets his buy-in and fee back."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from cashier.errors import CashierError
from cashier.services import tournament_purchase_refund, tournament_refund
from tables.errors import TableError
from tables.services.locks import tournament_lock
from tables.tournaments.models import Entry, EntryState, Purchase, Tournament, TournamentState
from tables.tournaments.services.eventlog import TournamentLog


def entry_refund(tournament: Tournament, entry: Entry, *, key: str) -> None:
    """Give the entry's buy-in and fee back (the cashier) and mark it refunded. Needs the
    tournament row locked."""
    try:
        tournament_refund(user=entry.user_id, tournament_id=tournament.pk,
                          currency=tournament.currency, buy_in=tournament.buy_in,
                          fee=tournament.fee, key=key)
    except CashierError as e:
        raise TableError(e.code, e.message) from None
    entry.state, entry.refund_key, entry.refunded_at = EntryState.UNREGISTERED, key, timezone.now()
    entry.chips, entry.table, entry.seat = 0, None, None
    entry.save(update_fields=["state", "refund_key", "refunded_at", "chips", "table", "seat"])


def purchase_refund(tournament: Tournament, purchase: Purchase) -> None:
    """Give a rebuy's or an add-on's price back (the cashier), with a key fixed per purchase
    so it is never refunded twice, and mark it refunded. Needs the tournament row locked."""
    key = f"tournament-{tournament.pk}-cancel-purchase-{purchase.pk}"
    try:
        tournament_purchase_refund(user=purchase.entry.user_id, tournament_id=tournament.pk,
                                   currency=tournament.currency, price=purchase.price, key=key)
    except CashierError as e:
        raise TableError(e.code, e.message) from None
    purchase.refund_key, purchase.refunded_at = key, timezone.now()
    purchase.save(update_fields=["refund_key", "refunded_at"])


def refund_key(entry: Entry) -> str:
    """The cashier key of a cancellation's refund of one entry: fixed per entry, so a
    cancellation can never refund an entry twice."""
    return f"tournament-{entry.tournament_id}-cancel-entry-{entry.pk}"


def tournament_cancel(*, tournament_id: int, reason: str = "") -> Tournament:
    """Cancel the tournament and refund every entry not yet refunded (registered, playing or
    busted) and every rebuy and add-on: no prize is paid before the end, so the pool ends
    empty. Cancelling a cancelled tournament changes nothing. Refusal: `tournament_over`
    (finished). Locks: the tournament row, then the cashier's, once per refunded purchase
    and entry (the ledger accounts in ascending id each time: the same order)."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if tournament.state == TournamentState.CANCELLED:
            return tournament
        if tournament.state == TournamentState.FINISHED:
            raise TableError("tournament_over", f"{tournament.name} has finished: it cannot "
                             "be cancelled.")
        refunded = 0
        for purchase in Purchase.objects.filter(tournament=tournament, refunded_at__isnull=True
                                                ).select_related("entry").order_by("pk"):
            purchase_refund(tournament, purchase)
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
