"""Rebuys and add-ons: buying tournament chips during play (the rules: engine/purchases.py).

A purchase is one transaction: the tournament's row first (lock order step 0, locks.py), the
clock brought up to date (the window is the level in force now), the rules asked, then the
cashier's move of the price from the wallet to the prize pool (its idempotency record and
ledger accounts), the `Purchase` row and the tournament's event. The client's request key is
both the purchase's key (a retry finds it and changes nothing) and the cashier's. A refusal
changes nothing. No table is locked: the chips wait on the purchase and join the stack at the
table's next hand start (`purchases_apply`, before that step ranks busts), never mid-hand.

*The stack a rebuy is judged by* is the entry's chips as its table last settled them (during
a hand: what it started the hand with; read without the table's lock, which a step holding
the cashier's rows may not take) plus its chips bought that have not reached the table. A
busted player (0 chips, not yet ranked) may rebuy until the step that ranks busts runs: his
table's next hand start in a Sit & Go, the next hand start at any of the event's tables in a
multi-table event (both hold the tournament's row, so the two never cross)."""
from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from cashier.errors import CashierError
from cashier.services import tournament_purchase
from tables.errors import TableError
from tables.models import Seat
from tables.services.eventlog import EventLog
from tables.services.locks import tournament_lock
from tables.tournaments.engine.purchases import (
    Holding,
    PurchaseRefused,
    verify_addon,
    verify_rebuy,
)
from tables.tournaments.models import (
    ACTIVE,
    OVER,
    STARTED,
    Entry,
    EntryState,
    Purchase,
    PurchaseKind,
    Tournament,
    TournamentState,
)
from tables.tournaments.services.clock import clock_catch_up, engine_structure
from tables.tournaments.services.eventlog import TournamentLog
from tables.tournaments.services.registration import field_now, key_check


def tournament_rebuy(*, tournament_id: int, user: Any, key: str) -> Purchase:
    """Buy the rebuy's chips for the rebuy price (wallet → prize pool), while the rebuy
    window is open, the entry has rebuys left and its stack is small enough.

    Refusals (`TableError` code): `not_in_tournament`, `no_rebuys`, `rebuys_closed`,
    `no_rebuys_left`, `stack_too_big`, `idempotency_conflict`, `missing_idempotency_key`, and
    the cashier's (`insufficient_funds`, `self_excluded`, ...). A retry of `key` returns the
    purchase. Locks: the tournament row, then the cashier's (idempotency record, accounts)."""
    return _buy(PurchaseKind.REBUY, tournament_id=tournament_id, user=user, key=key)


def tournament_addon(*, tournament_id: int, user: Any, key: str) -> Purchase:
    """Buy the add-on's chips for the add-on price (wallet → prize pool), once per entry,
    during the add-on break (engine/purchases.py `addon_break_after`).

    Refusals: `not_in_tournament`, `no_addon`, `addon_closed`, `addon_taken`,
    `idempotency_conflict`, `missing_idempotency_key`, and the cashier's. A retry of `key`
    returns the purchase. Locks: as `tournament_rebuy`."""
    return _buy(PurchaseKind.ADDON, tournament_id=tournament_id, user=user, key=key)


def _buy(kind: str, *, tournament_id: int, user: Any, key: str) -> Purchase:
    key_check(key)
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        done = _retry_of(Purchase.objects.filter(idempotency=key).select_related("entry")
                         .first(), tournament_id, user, kind)
        if done is not None:
            return done
        log = TournamentLog(tournament)
        if tournament.state in STARTED:
            clock_catch_up(tournament, log, timezone.now())
        entry = _live_entry(tournament, user)
        price, chips = purchase_terms_check(tournament, entry, kind)
        try:
            tournament_purchase(user=user, tournament_id=tournament.pk,
                                currency=tournament.currency, price=price, key=key)
        except CashierError as e:
            raise TableError(e.code, e.message) from None
        purchase = Purchase.objects.create(tournament=tournament, entry=entry, kind=kind,
                                           price=price, chips=chips, idempotency=key)
        event: dict[str, Any] = {"type": kind, "player": user.table_name,
                                 "player_id": user.pk, "entry": entry.number,
                                 "chips": chips, "price": price}
        if kind == PurchaseKind.REBUY:
            event["rebuys"] = _bought(entry).rebuys
        log.add({**event, "chips_bought": chips_bought(tournament), **field_now(tournament)})
        log.flush()
    return purchase


def _live_entry(tournament: Tournament, user: Any) -> Entry:
    entry = Entry.objects.filter(tournament=tournament, user=user, state__in=ACTIVE).first()
    if entry is None:
        raise TableError("not_in_tournament", f"You are not playing in {tournament.name}.")
    return entry


def purchase_terms_check(tournament: Tournament, entry: Entry, kind: str) -> tuple[int, int]:
    """The price and chips of `kind` for `entry` now, or the rules' refusal (`TableError`).
    Needs the tournament row locked and its clock up to date."""
    if tournament.state in OVER:
        raise TableError(f"{'rebuys' if kind == PurchaseKind.REBUY else 'addon'}_closed",
                         f"{tournament.name} is over.")
    terms, holding = tournament.purchase_terms, _bought(entry)
    level = tournament.level if tournament.state in STARTED else 0
    try:
        if kind == PurchaseKind.REBUY:
            verify_rebuy(terms, level=level, holding=holding)
            return tournament.rebuy_price, terms.rebuy_chips
        verify_addon(terms, engine_structure(tournament), level=level,
                     on_break=tournament.state == TournamentState.ON_BREAK, holding=holding)
        return tournament.addon_price, terms.addon_chips
    except PurchaseRefused as e:
        raise TableError(e.code, e.message) from None


def purchase_offer(tournament: Tournament, entry: Entry | None) -> dict[str, bool]:
    """Whether the page offers `entry` a rebuy and the add-on now (by the recorded clock)."""
    offer = {}
    for kind in PurchaseKind.values:
        try:
            if entry is None:
                raise TableError("not_in_tournament", "")
            purchase_terms_check(tournament, entry, kind)
            offer[kind] = True
        except TableError:
            offer[kind] = False
    return offer


def _bought(entry: Entry) -> Holding:
    """The entry as the rules see it: its stack (seat chips as last settled, or the entry's
    while it waits for a seat) plus chips bought not yet at the table, rebuys, add-on."""
    stack = entry.chips
    if entry.state == EntryState.PLAYING and entry.table_id is not None:
        seated = Seat.objects.filter(table_id=entry.table_id, player_id=entry.user_id
                                     ).values_list("chips", flat=True).first()
        stack = entry.chips if seated is None else seated
    purchases = list(entry.purchases.filter(refunded_at__isnull=True))
    return Holding(stack=stack + sum(p.chips for p in purchases if p.applied_at is None),
                   rebuys=sum(p.kind == PurchaseKind.REBUY for p in purchases),
                   addon=any(p.kind == PurchaseKind.ADDON for p in purchases))


def _retry_of(purchase: Purchase | None, tournament_id: int, user: Any,
              kind: str) -> Purchase | None:
    """The purchase a resent request already made (None: a new request); a key used for
    another player's, tournament's or kind's request is refused."""
    if purchase is not None and (purchase.tournament_id, purchase.entry.user_id,
                                 purchase.kind) != (tournament_id, user.pk, kind):
        raise TableError("idempotency_conflict", "This request key was already used for "
                         "another request; reload the page and try again.")
    return purchase


def chips_bought(tournament: Tournament) -> int:
    """Every chip bought by rebuys and add-ons (not refunded): chips in play are entries
    times the starting stack plus these."""
    return Purchase.objects.filter(tournament=tournament, refunded_at__isnull=True).aggregate(
        s=Sum("chips"))["s"] or 0


# At a hand start -----------------------------------------------------------------------------
def purchases_apply(tournament: Tournament, seats: list[Seat], log: EventLog,
                    now: datetime.datetime) -> None:
    """The chips bought by the players seated at a table between hands join their stacks
    (`stacks` at the table), before the step ranks busts: a busted player who rebought in
    time plays on. Needs the tournament's row and the table's (and its seats) locked."""
    by_player = {s.player_id: s for s in seats if s.pk is not None}
    pending = list(Purchase.objects.filter(
        tournament=tournament, applied_at__isnull=True, refunded_at__isnull=True,
        entry__state=EntryState.PLAYING, entry__user_id__in=by_player).select_related("entry"))
    if not pending:
        return
    for purchase in pending:
        by_player[purchase.entry.user_id].chips += purchase.chips
    Purchase.objects.filter(pk__in=[p.pk for p in pending]).update(applied_at=now)
    log.add({"type": "stacks", "stacks": {str(s.number): s.chips for s in by_player.values()}})


def purchases_take(tournament: Tournament, entry: Entry, now: datetime.datetime) -> int:
    """The chips an entry waiting for its seat bought (they come with it to the seat),
    marked applied. Needs the tournament's row locked."""
    pending = Purchase.objects.filter(tournament=tournament, entry=entry,
                                      applied_at__isnull=True, refunded_at__isnull=True)
    chips = pending.aggregate(s=Sum("chips"))["s"] or 0
    pending.update(applied_at=now)
    return chips
