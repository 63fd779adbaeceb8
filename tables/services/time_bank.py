"""The time bank (a per-table option, off by default): a bank of seconds per player, used
automatically when his turn's countdown ends, before the timeout rule applies; topped up
every N hands he is dealt in, up to a cap.

The seeds' timer stays as it is: `action_seconds` of quiet time, then the visible
`countdown_seconds`. When that deadline passes and the player to act has seconds in his bank
(and it does not already run this turn), `hand_timeout` calls `bank_start` instead of acting
for him: the deadline moves on by the whole bank (`time_bank` event) and the timer re-arms.
When he acts while it runs, `bank_stop` (run by every engine step) keeps what he did not use
(whole seconds used, rounded up); when the bank runs out too, the timeout rule applies as
before and his bank is empty. Which seat's bank runs is marked on the Hand (`bank_seat`,
`bank_started_at`, `bank_seconds`), so an action with no bank running reads and writes no seat.

Every step here runs under the table lock, inside the one pipeline (decide → commit →
publish through `EventLog`)."""
from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tables.models import Hand, Seat, TableConfig
from tables.recent import iso
from tables.services.eventlog import EventLog
from tables.services.next_turn import countdown_at, timer_arm

if TYPE_CHECKING:
    from tables.services.locks import Locked


def bank_start(held: Locked, hand: Hand, seat: int, now: datetime.datetime) -> bool:
    """The turn's deadline has passed: if the table has a time bank and `seat` (the player to
    act) has seconds in his, and it does not run yet this turn, run it: the deadline moves to
    `now` + the bank, a `time_bank` event, the timer re-armed. True when it did (then the
    timeout rule does not apply yet). Needs the table lock."""
    table = held.table
    if not table.time_bank_on or hand.bank_seat is not None:
        return False
    seat_id = hand.seat_ids.get(str(seat))
    bank = Seat.objects.filter(pk=seat_id).values_list("time_bank", flat=True).first() or 0
    if bank <= 0:
        return False
    hand.bank_seat, hand.bank_started_at, hand.bank_seconds = seat, now, bank
    hand.deadline = now + datetime.timedelta(seconds=bank)
    log = EventLog(held, hand)
    log.add({"type": "time_bank", "seat": seat, "deadline": iso(hand.deadline),
             "countdown_at": iso(countdown_at(hand, table)), "seconds": bank})
    timer_arm(held, hand, now)
    log.flush()
    return True


def bank_stop(hand: Hand, log: EventLog, now: datetime.datetime) -> None:
    """The turn whose time bank runs is over (he acted, or the bank ran out and the server
    acts for him): his bank keeps what he did not use, whole seconds used rounded up (a
    `time_banks` event; the seat's row is written with the step's other writes). Clears the
    hand's mark. Nothing when no bank runs (an ordinary action reads and writes no seat).
    Needs the table lock."""
    if hand.bank_seat is None:
        return
    used = math.ceil(max((now - hand.bank_started_at).total_seconds(), 0.0))
    left = max(hand.bank_seconds - used, 0)
    seat = log.track(Seat.from_db(None, ["id"], [hand.seat_ids[str(hand.bank_seat)]]))
    seat.time_bank = left  # its only field the log has seen set: the one written
    log.add({"type": "time_banks", "banks": {str(hand.bank_seat): left}, "reason": "used"})
    hand.bank_seat, hand.bank_started_at, hand.bank_seconds = None, None, 0


def bank_count(table: TableConfig, dealt: Sequence[Seat]) -> dict[str, Any] | None:
    """A hand starts: each seat dealt in counts it, and every `time_bank_refill_hands` hands
    his bank gets `time_bank_refill_seconds` more, up to the cap. Changes the seats in memory
    (the caller's log writes them) and returns the `time_banks` event of the banks that
    changed (None when none did). Needs the table lock."""
    every, more = table.time_bank_refill_hands, table.time_bank_refill_seconds
    if not table.time_bank_on or not every or not more:
        return None
    changed: dict[str, int] = {}
    for s in dealt:
        s.time_bank_hands += 1
        if s.time_bank_hands < every:
            continue
        s.time_bank_hands = 0
        bank = max(min(s.time_bank + more, table.time_bank_cap_seconds), s.time_bank)
        if bank != s.time_bank:
            s.time_bank = changed[str(s.number)] = bank
    return {"type": "time_banks", "banks": changed, "reason": "refill"} if changed else None


def bank_seated(seat: Seat, table: TableConfig) -> dict[str, Any] | None:
    """A player sits down with the table's starting bank (set on `seat`, which the caller
    creates): the `time_banks` event that tells the pages, or None without a time bank."""
    seat.time_bank = table.time_bank_seconds if table.time_bank_on else 0
    if not seat.time_bank:
        return None
    return {"type": "time_banks", "banks": {str(seat.number): seat.time_bank},
            "reason": "seated"}
