"""Sitting a player out: one transition for the three ways it happens — he asks (`sit_out`),
the server had to act for him (`hand_timeout`), he busted with nothing coming (`hand_finish`)."""
from __future__ import annotations

import datetime
from typing import Any

from tables.models import Seat, SeatStatus
from tables.services.eventlog import status_event


def seat_sit_out(seat: Seat, now: datetime.datetime) -> dict[str, Any]:
    """Sit `seat` out from the next hand on (the hand running plays on as it stands): he is not
    dealt in, blinds he misses are owed, `sit_in` brings him back, the table's sit-out limit
    (`sat_out_at`) removes him, and a big blind he chose to post (or to sit out:
    seat_choices.py) is off. Returns the `status` event. The caller's EventLog writes the seat
    (tracked) with the event."""
    seat.status, seat.post_bb, seat.sat_out_at = SeatStatus.SITTING_OUT, False, now
    seat.sit_out_next_bb = False
    return status_event(seat)
