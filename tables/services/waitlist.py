"""Waiting lists for full tables: join, leave, seat offers and their expiry.

A player joins the list of a table with no seat he could take. When a seat opens
(`seat_opened`, called by `seat_remove` under the table lock) it is offered to the first
candidate and held for him for `WAITLIST_OFFER_SECONDS`: others trying that seat are refused
`seat_reserved` (`seat_claim`, called by `seat_take`). He takes it with the normal buy-in; when
the offer lapses, he leaves the list and the seat goes to the next candidate.

Candidates, PokerStars' "active waiting list" (https://www.pokerstars.com/poker/learn/news/
how-pokerstars-waiting-lists-just-changed/): players actively playing (seated, not sitting
out) at another table of the same game and stakes come first. PokerStars makes only those
eligible and draws among them weighted by waiting time; in a small room that would leave seats
empty, so here the others follow, and within each group the order is first come, first served.
`WAITLIST_ACTIVE_FIRST = False` gives a plain first-come list.

The database is the whole state. Offers expire through a Celery task queued with an eta
(`offer_expire_schedule`) and, in case that task is lost (a restart, a flushed Redis),
lazily: every read that could act on the list (`seat_claim`, `waitlist_status`, the task)
first expires lapsed offers and hands out free seats (`offers_refresh`).

Locks: every function that writes takes (or needs) the table row lock first (`locks.py`)."""
from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from pokerroom.celery import app as celery_app
from tables.errors import TableError
from tables.models import Seat, SeatStatus, TableConfig, WaitingListEntry
from tables.services.locks import table_lock
from tables.services.stacks import money_refuse

logger = logging.getLogger(__name__)
OFFERS_EXPIRE_TASK = "tables.waitlist_offers_expire"  # tables/tasks.py


def offer_seconds() -> int:
    return int(getattr(settings, "WAITLIST_OFFER_SECONDS", 60))


@dataclass(frozen=True)
class WaitingStatus:
    """What one player sees of one table's waiting list."""

    waiting: bool
    position: int | None = None  # 1-based, counting everybody ahead in the list
    length: int = 0
    offered_seat: int | None = None
    offer_expires_at: datetime.datetime | None = None
    seated: bool = False
    can_join: bool = False  # no seat he could take now, and not on the list yet

    @property
    def offer_seconds_left(self) -> int:
        if self.offer_expires_at is None:
            return 0
        return max(0, int((self.offer_expires_at - timezone.now()).total_seconds()))


# Reading ------------------------------------------------------------------------------------
def _live(now: datetime.datetime) -> Q:
    """Entries holding an offer that has not lapsed."""
    return Q(offered_seat__isnull=False, offer_expires_at__gt=now)


def _free_seats(table: TableConfig, now: datetime.datetime,
                also_taken: tuple[int, ...] = ()) -> list[int]:
    """Seat numbers nobody sits in and no live offer holds."""
    taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    held = set(WaitingListEntry.objects.filter(_live(now), table=table)
               .values_list("offered_seat", flat=True))
    return [n for n in range(1, table.max_seats + 1)
            if n not in taken and n not in held and n not in also_taken]


def _active_elsewhere(table: TableConfig, player_ids: list[int]) -> set[int]:
    """Players seated and not sitting out at another open table of the same game and stakes."""
    return set(
        Seat.objects.filter(
            player_id__in=player_ids, table__is_active=True, table__structure=table.structure,
            table__currency=table.currency, table__lower_stake=table.lower_stake,
            table__upper_stake=table.upper_stake,
        ).exclude(table=table).exclude(status=SeatStatus.SITTING_OUT)
        .values_list("player_id", flat=True)
    )


def candidates(table: TableConfig) -> list[WaitingListEntry]:
    """Entries without an offer in the order seats are offered (see the module docstring)."""
    entries = list(WaitingListEntry.objects.filter(table=table, offered_seat__isnull=True)
                   .order_by("joined_at", "pk"))
    if not getattr(settings, "WAITLIST_ACTIVE_FIRST", True) or not entries:
        return entries
    active = _active_elsewhere(table, [e.player_id for e in entries])
    return sorted(entries, key=lambda e: e.player_id not in active)  # stable: keeps the order


def _refresh_due(table_id: int, now: datetime.datetime) -> bool:
    """Cheap lock-free check: a lapsed offer, or waiting players and a seat nobody holds."""
    entries = WaitingListEntry.objects.filter(table_id=table_id)
    if entries.filter(offer_expires_at__lte=now).exists():
        return True
    if not entries.filter(offered_seat__isnull=True).exists():
        return False
    table = TableConfig.objects.get(pk=table_id)
    return bool(_free_seats(table, now))


def waitlist_status(*, table_id: int, user_id: int | None,
                    now: datetime.datetime | None = None) -> WaitingStatus:
    """The player's place on the table's list (moving the list on first if it is due)."""
    now = now or timezone.now()
    if _refresh_due(table_id, now):
        offers_refresh_now(table_id=table_id, now=now)
    entries = list(WaitingListEntry.objects.filter(table_id=table_id).order_by("joined_at", "pk"))
    if user_id is None:
        return WaitingStatus(waiting=False, length=len(entries))
    mine = next((e for e in entries if e.player_id == user_id), None)
    if mine is None:
        seated = Seat.objects.filter(table_id=table_id, player_id=user_id).exists()
        table = TableConfig.objects.get(pk=table_id)
        can_join = not seated and table.is_active and not _free_seats(table, now)
        return WaitingStatus(waiting=False, length=len(entries), seated=seated, can_join=can_join)
    live = mine.offered_seat is not None and mine.offer_expires_at > now
    return WaitingStatus(
        waiting=True, position=entries.index(mine) + 1, length=len(entries),
        offered_seat=mine.offered_seat if live else None,
        offer_expires_at=mine.offer_expires_at if live else None,
    )


# Writing (under the table lock) -------------------------------------------------------------
def offers_refresh(*, table: TableConfig, now: datetime.datetime | None = None,
                   also_taken: tuple[int, ...] = ()) -> list[WaitingListEntry]:
    """Drop lapsed offers (their players leave the list), then offer each free seat to the
    next candidate. Returns the new offers; their expiry tasks are queued on commit.
    Needs the table lock."""
    now = now or timezone.now()
    lapsed = WaitingListEntry.objects.filter(table=table, offer_expires_at__lte=now)
    for entry in lapsed:
        logger.info("table %s: seat %s offer to player %s lapsed", table.pk, entry.offered_seat,
                    entry.player_id)
    lapsed.delete()
    free = _free_seats(table, now, also_taken)
    if not free:
        return []
    expires = now + datetime.timedelta(seconds=offer_seconds())
    offered = []
    for number, entry in zip(free, candidates(table), strict=False):
        entry.offered_seat, entry.offer_expires_at = number, expires
        entry.save(update_fields=["offered_seat", "offer_expires_at"])
        offered.append(entry)
    for entry in offered:
        transaction.on_commit(lambda e=entry: offer_expire_schedule(
            table_id=e.table_id, at=e.offer_expires_at))
    return offered


def offers_refresh_now(*, table_id: int, now: datetime.datetime | None = None
                       ) -> list[WaitingListEntry]:
    """`offers_refresh` in its own transaction. Locks: the table row."""
    with transaction.atomic():
        return offers_refresh(table=table_lock(table_id).table, now=now)


def seat_opened(*, table_id: int) -> None:
    """A seat was just freed (called by `seat_remove`): offer it to the waiting list at once,
    so nobody can sit in it between the commit and the offer. Needs the table lock."""
    if WaitingListEntry.objects.filter(table_id=table_id).exists():
        offers_refresh(table=TableConfig.objects.get(pk=table_id))


def seat_claim(*, table: TableConfig, user_id: int, number: int,
               now: datetime.datetime | None = None) -> None:
    """Called by `seat_take` before it seats `user_id` in `number`: refuse `seat_reserved`
    when a live offer holds that seat for someone else; otherwise the player leaves the list
    (he is seated; an offer he held for another seat goes to the next candidate).
    Needs the table lock; runs in the caller's transaction, so a failed buy-in undoes it."""
    now = now or timezone.now()
    entries = WaitingListEntry.objects.filter(table=table)
    if not entries.exists():
        return
    offers_refresh(table=table, now=now)
    holder = entries.filter(_live(now), offered_seat=number).exclude(player_id=user_id).first()
    if holder is not None:
        left = max(1, int((holder.offer_expires_at - now).total_seconds()))
        raise TableError("seat_reserved", f"Seat {number} is held for a player from the waiting "
                         f"list for {left} more seconds.")
    if entries.filter(player_id=user_id).delete()[0]:
        offers_refresh(table=table, now=now, also_taken=(number,))


def waitlist_join(*, table_id: int, user: Any, now: datetime.datetime | None = None
                  ) -> WaitingListEntry:
    """Put `user` on the table's waiting list (at the end).
    Refusals: `table_closed`, `already_seated`, `already_waiting`, `table_not_full`.
    Locks: the table row."""
    now = now or timezone.now()
    with transaction.atomic():
        table = table_lock(table_id).table
        money_refuse(table)
        if not table.is_active:
            raise TableError("table_closed", "This table is closed.")
        offers_refresh(table=table, now=now)
        if Seat.objects.filter(table=table, player_id=user.pk).exists():
            raise TableError("already_seated", "You already sit at this table.")
        if WaitingListEntry.objects.filter(table=table, player_id=user.pk).exists():
            raise TableError("already_waiting", "You are already on this table's waiting list.")
        free = _free_seats(table, now)
        if free:
            raise TableError("table_not_full", f"Seat {free[0]} is free: sit down instead.")
        return WaitingListEntry.objects.create(table=table, player=user, joined_at=now)


def waitlist_leave(*, table_id: int, user_id: int, now: datetime.datetime | None = None) -> None:
    """Take `user_id` off the table's list; a seat held for him goes to the next candidate.
    Refusal: `not_waiting`. Locks: the table row."""
    with transaction.atomic():
        table = table_lock(table_id).table
        if not WaitingListEntry.objects.filter(table=table, player_id=user_id).delete()[0]:
            raise TableError("not_waiting", "You are not on this table's waiting list.")
        offers_refresh(table=table, now=now)


def offers_expire(*, table_id: int, now: datetime.datetime | None = None) -> int:
    """The expiry task's work: move the list on if an offer lapsed. Idempotent (a duplicate or
    early task finds nothing lapsed). Returns the number of new offers."""
    now = now or timezone.now()
    if not _refresh_due(table_id, now):
        return 0
    return len(offers_refresh_now(table_id=table_id, now=now))


def offer_expire_schedule(*, table_id: int, at: datetime.datetime) -> None:
    """Queue the expiry task at the offer's end (on commit). Losing it only delays the list
    until the next read (see the module docstring)."""
    try:  # by name: tables/tasks.py imports this module (no import circle)
        celery_app.send_task(OFFERS_EXPIRE_TASK, kwargs={"table_id": table_id},
                             eta=at + datetime.timedelta(milliseconds=200))
    except Exception:  # the broker is down: the lazy checks still move the list on
        logger.exception("table %s: queueing the waiting-list expiry failed", table_id)
