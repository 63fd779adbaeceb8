"""Registering for a tournament and unregistering before its start.

Each is one transaction: the tournament's row first (lock order step 0, locks.py), then the
cashier's entry or refund (its idempotency record and ledger accounts), then the entry row
and the tournament's event. The client's request key is both the entry's key (a retry finds
the entry and changes nothing) and the cashier's. A refusal changes nothing."""
from __future__ import annotations

from typing import Any

from django.db import transaction

from cashier.errors import CashierError
from cashier.services import tournament_enter
from tables.errors import TableError
from tables.services.locks import tournament_lock
from tables.tournaments.models import ACTIVE, STARTED, Entry, EntryState, Tournament
from tables.tournaments.selectors import payouts_of, prize_pool_of, purchased_of
from tables.tournaments.services.cancelling import entry_refund
from tables.tournaments.services.eventlog import TournamentLog
from tables.tournaments.services.starting import sit_and_go_full, start_when_full


def tournament_register(*, tournament_id: int, user: Any, key: str) -> Entry:
    """Enter `user` in the tournament: the buy-in to its prize pool and the fee to the house
    (the cashier), a full starting stack on the new entry. After a bust, while registration
    is open and the template allows it, this is a re-entry (entry number 2, 3, ...).

    Refusals (`TableError` code): `registration_closed`, `already_registered`, `no_reentry`,
    `tournament_full`, `idempotency_conflict`, and the cashier's (`self_excluded`,
    `insufficient_funds`, `currency_mismatch`, ...). A retry of `key` returns the entry.
    Locks: the tournament row, then the cashier's (idempotency record, ledger accounts)."""
    key_check(key)
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        done = _retry_of(Entry.objects.filter(idempotency=key).first(), tournament_id, user)
        if done is not None:
            return done
        number = _entry_number(tournament, user)
        try:
            tournament_enter(user=user, tournament_id=tournament.pk,
                             currency=tournament.currency, buy_in=tournament.buy_in,
                             fee=tournament.fee, key=key)
        except CashierError as e:
            raise TableError(e.code, e.message) from None
        entry = Entry.objects.create(
            tournament=tournament, user=user, number=number, state=EntryState.REGISTERED,
            chips=tournament.structure["starting_stack"], idempotency=key)
        log = TournamentLog(tournament)
        log.add({"type": "registered", "player": user.table_name, "player_id": user.pk,
                 "entry": number,
                 **field_now(tournament)})
        log.flush()
        if sit_and_go_full(tournament):  # the last seat: the Sit & Go starts
            tournament_id = tournament.pk
            transaction.on_commit(lambda: start_when_full(tournament_id))
    return entry


def key_check(key: str) -> None:
    """The client's request key, which the entry and the cashier both keep (as the cashier
    does: refused before anything, when empty or too long)."""
    if not key or len(key) > 200:
        raise TableError("missing_idempotency_key", "The request has no valid idempotency key.")


def _entry_number(tournament: Tournament, user: Any) -> int:
    """The number the player's next entry gets, or the refusal. Needs the tournament row."""
    if not tournament.registration_open:
        raise TableError("registration_closed", f"Registration for {tournament.name} is "
                         f"closed ({tournament.get_state_display().lower()}).")
    entries = list(Entry.objects.filter(tournament=tournament, user=user))
    if any(entry.state in ACTIVE for entry in entries):
        raise TableError("already_registered", f"You are already in {tournament.name}.")
    busted = sum(entry.state == EntryState.BUSTED for entry in entries)
    if busted > tournament.max_reentries:
        raise TableError("no_reentry", "No more re-entries: this tournament allows "
                         f"{tournament.max_reentries}." if tournament.max_reentries
                         else "This tournament is a freezeout: no re-entry.")
    cap = tournament.entries_cap
    if cap is not None and Entry.objects.filter(tournament=tournament,
                                                state__in=ACTIVE).count() >= cap:
        raise TableError("tournament_full", f"{tournament.name} is full ({cap} entries).")
    return max((entry.number for entry in entries), default=0) + 1


def field_now(tournament: Tournament) -> dict[str, Any]:
    """The field, the prize pool and its payouts so far, for the events: entries paid and not
    refunded, rebuys and add-ons (the pool as the page shows it: the guarantee while it is
    more)."""
    paid = Entry.objects.filter(tournament=tournament).exclude(
        state=EntryState.UNREGISTERED).count()
    players = Entry.objects.filter(tournament=tournament, state__in=ACTIVE).count()
    pool = prize_pool_of(tournament, paid, purchased_of(tournament))
    return {"entries": paid, "players": players, "prize_pool": pool,
            "payouts": [{"place": n, "share": bp, "prize": amount} for n, bp, amount
                        in payouts_of(tournament, entries=paid, pool=pool)]}


def tournament_unregister(*, tournament_id: int, user: Any, key: str) -> Entry:
    """Take the player out before the start: his buy-in and fee back to his wallet (the
    cashier), the entry `unregistered`. A retry of `key` returns the entry.

    Refusals: `not_registered`, `tournament_started` (no refund once play began),
    `idempotency_conflict`, and the cashier's.
    Locks: the tournament row, then the cashier's (idempotency record, ledger accounts)."""
    key_check(key)
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        done = _retry_of(Entry.objects.filter(refund_key=key).first(), tournament_id, user)
        if done is not None:
            return done
        entry = Entry.objects.filter(tournament=tournament, user=user,
                                     state=EntryState.REGISTERED).first()
        if tournament.state in STARTED:
            raise TableError("tournament_started", f"{tournament.name} has started: "
                                 "unregistering is no longer possible.")
        if entry is None:
            raise TableError("not_registered", f"You are not registered in {tournament.name}.")
        entry_refund(tournament, entry, key=key)
        log = TournamentLog(tournament)
        log.add({"type": "unregistered", "player": user.table_name, "player_id": user.pk,
                 "entry": entry.number,
                 **field_now(tournament)})
        log.flush()
    return entry


def _retry_of(entry: Entry | None, tournament_id: int, user: Any) -> Entry | None:
    """The entry a resent request already made (None: a new request); a key that was used
    for another player's or tournament's request is refused."""
    if entry is not None and (entry.tournament_id, entry.user_id) != (tournament_id, user.pk):
        raise TableError("idempotency_conflict", "This request key was already used for "
                         "another request; reload the page and try again.")
    return entry
