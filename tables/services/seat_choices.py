"""Sit out next big blind: a player who means to stop soon plays on until the big blind would
come to him, and is then sat out instead of posting it (he owes it on return, as anyone who
missed a blind). The choice is the seat's `sit_out_next_bb`; the hand's start carries it out
(`bb_sitters_out`). Waiting for the big blind or posting one at once is seating.py's."""
from __future__ import annotations

import datetime
from collections.abc import Callable

from django.db import transaction

from tables.engine import blind_seats
from tables.errors import TableError
from tables.models import Seat, SeatStatus
from tables.services.eventlog import EventLog, status_event
from tables.services.locks import table_lock
from tables.services.sitout import seat_sit_out
from tables.services.table_sql import seat_find

Picked = tuple[int, list[Seat]] | None  # (button, seats dealt in), starting.py


def sit_out_next_bb(*, table_id: int, user_id: int, on: bool) -> Seat:
    """Set (or clear) the player's "sit out next big blind"; recorded as his `status` event.
    Refusals: `tournament_table` (a tournament deals everyone), `not_seated`, `not_playing`
    (setting it while sitting out or waiting for the big blind: he posts none anyway).
    Locks: the table row."""
    with transaction.atomic():
        held = table_lock(table_id)
        if held.table.is_tournament:
            raise TableError("tournament_table", "At a tournament table the blinds are posted "
                             "for everyone, present or not: sit out instead.")
        found = seat_find(table_id, user_id)
        if found is None:
            raise TableError("not_seated", "You are not seated at this table.")
        log = EventLog(held)
        seat = log.track(found)
        if on and seat.status != SeatStatus.PLAYING:
            raise TableError("not_playing", "You are not playing (sitting out or waiting for "
                             "the big blind): there is no big blind to sit out.")
        if seat.sit_out_next_bb != on:
            seat.sit_out_next_bb = on
            log.add(status_event(seat))
            log.flush()
        return seat


def bb_sitters_out(deal: Callable[[], Picked], log: EventLog, now: datetime.datetime) -> Picked:
    """The seats to deal (`deal`: who deals and who is dealt in, starting.py) once every
    player who chose to sit out next big blind and would post it this hand is sat out
    (`seat_sit_out`, his `status` event in `log`: he owes the blind he missed); after each one,
    `deal` decides again. Needs the table lock and the seats locked (tracked by `log`)."""
    picked = deal()
    while picked is not None:
        button, dealt = picked
        bb = blind_seats(button, [s.number for s in dealt])[1]
        sitter = next((s for s in dealt if s.number == bb and s.sit_out_next_bb), None)
        if sitter is None:
            return picked
        log.add(seat_sit_out(sitter, now))
        picked = deal()
    return picked
