"""Live table services (`<noun>_<verb>(*, ...)`); each locks the table row first (locks.py)
and goes decide → commit → publish (steps.py, effects.py)."""
from __future__ import annotations

from tables.errors import TableError
from tables.services.acting import act
from tables.services.locks import table_lock
from tables.services.presence import presence_join, presence_leave
from tables.services.rabbit_hunting import rabbit_hunt
from tables.services.running import hand_run_twice
from tables.services.seat_choices import sit_out_next_bb
from tables.services.seating import (
    post_big_blind_now,
    seat_leave,
    seat_take,
    seat_top_up,
    sit_in,
    sit_out,
    wait_for_big_blind,
)
from tables.services.showing import hand_show, seat_always_show, seat_straddle
from tables.services.starting import hand_start
from tables.services.timeouts import hand_reconnect_bonus, hand_timeout

__all__ = [
    "TableError", "act", "hand_reconnect_bonus", "hand_run_twice", "hand_show", "hand_start",
    "hand_timeout", "post_big_blind_now", "presence_join", "presence_leave", "rabbit_hunt",
    "seat_always_show", "seat_leave", "seat_straddle", "seat_take", "seat_top_up", "sit_in",
    "sit_out", "sit_out_next_bb", "table_lock",
    "wait_for_big_blind",
]
