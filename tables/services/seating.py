"""Seating: sit down (buy in), leave (cash out), sit out / in, post or wait for the big blind,
top up. Each runs in one transaction that locks the table row first (see `locks.py`)."""
from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from cashier.errors import CashierError
from cashier.services import buy_in, idempotent_run, top_up_claimed
from tables.errors import TableError
from tables.models import Seat, SeatStatus, TableState
from tables.services.dealing import deck_commit_next
from tables.services.eventlog import EventLog, seat_taken_event, status_event
from tables.services.finishing import schedule_next_hand, seat_remove
from tables.services.leaving import hand_leave
from tables.services.locks import Locked, table_lock
from tables.services.sitout import seat_sit_out
from tables.services.stacks import money_refuse, money_terms
from tables.services.table_sql import seat_find
from tables.services.time_bank import bank_seated
from tables.services.waitlist import seat_claim


def _seat_of(ts: TableState, user_id: int) -> Seat:
    seat = seat_find(ts.pk, user_id)
    if seat is None:
        raise TableError("not_seated", "You are not seated at this table.")
    return seat


def _in_running_hand(ts: TableState, seat: Seat) -> bool:
    hand = ts.hand
    return (hand is not None and hand.finished_at is None
            and hand.seat_ids.get(str(seat.number)) == seat.pk)


def _once(*, key: str, operation: str, params: dict[str, Any],
          apply: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a money-moving table request at most once per client-made key (the cashier's
    idempotency record): a resend, e.g. after a reconnect, gets the first outcome and changes
    nothing. A refused request leaves no record, so it may be sent again: the whole request
    rolls back (no savepoint: the service's transaction is the unit). Needs the table lock
    (taken first: then the record, as in every cashier operation)."""
    try:
        return idempotent_run(key=key, operation=operation, params=params, apply=apply,
                              savepoint=False)
    except CashierError as e:
        raise TableError(e.code, e.message) from None


def _game_running(ts: TableState, *, besides: int | None = None) -> bool:
    """A hand running, or hands dealt before and two or more players able to play: newcomers
    owe a big blind. Before a table's first hand everybody is dealt in free."""
    if ts.hand_running:
        return True
    if not ts.hands_dealt:
        return False
    able = Seat.objects.filter(table_id=ts.pk, status=SeatStatus.PLAYING, chips__gt=0)
    if besides is not None:
        able = able.exclude(pk=besides)
    return able.count() >= 2


def next_hand_maybe(held: Locked) -> None:
    """Between hands, with two or more players who could be dealt in and no start queued yet:
    time the next hand after the table's pause. Needs the table lock."""
    ts = held.state
    if ts.hand_running or ts.next_hand_at is not None:
        return
    ready = (
        Seat.objects.filter(table_id=ts.pk, leave_after_hand=False)
        .exclude(status=SeatStatus.SITTING_OUT)
        .filter(Q(chips__gt=0) | Q(top_ups__status="pending")).distinct().count()
    )
    if ready < 2:
        return
    ts.next_hand_at = timezone.now() + datetime.timedelta(seconds=ts.table.hand_pause_seconds)
    EventLog(held).flush()  # the table row's `next_hand_at`, no event
    schedule_next_hand(ts, held.effects)


def seat_take(*, table_id: int, user: Any, number: int, amount: int,
              idempotency_key: str, post_bb: bool = False) -> Seat:
    """Sit `user` in seat `number` with a buy-in of `amount` (wallet → table escrow), once per
    `idempotency_key` (a resend returns his seat and changes nothing).

    Allowed while a hand runs: the player joins a later hand. Joining a running game he waits
    for the big blind (`waiting_bb`) unless he posts one: `post_bb` now, or later
    (`post_big_blind_now`). Where nobody owes one, `post_bb` changes nothing.
    Refusals: `bad_seat`, `seat_taken`, `already_seated`, `table_closed` and the cashier's codes.
    Locks: the table row, then the cashier's (idempotency, accounts)."""
    with transaction.atomic():
        held = table_lock(table_id)

        def apply() -> dict[str, Any]:
            return {"seat_id": _seat_take(held, user=user, number=number, amount=amount,
                                          idempotency_key=idempotency_key,
                                          post_bb=post_bb).pk}

        done = _once(key=idempotency_key, operation="seat_take", apply=apply,
                     params={"table": table_id, "user": user.pk, "seat": number, "amount": amount,
                             "post_bb": post_bb})
        seat = Seat.objects.filter(pk=done["seat_id"]).first()
        if seat is None:  # sat and left since: the resend must not sit him again
            raise TableError("not_seated", "That request was done before; you have left since.")
        return seat


def _seat_take(held: Locked, *, user: Any, number: int, amount: int,
               idempotency_key: str, post_bb: bool) -> Seat:
    ts, table = held.state, held.table
    money_refuse(table)
    if not table.is_active:
        raise TableError("table_closed", "This table is closed.")
    if not isinstance(number, int) or not 1 <= number <= table.max_seats:
        raise TableError("bad_seat", f"Seats at this table are 1 to {table.max_seats}.")
    taken = dict(Seat.objects.filter(table=table).values_list("player_id", "number"))
    if user.pk in taken:
        raise TableError("already_seated", f"You already sit in seat {taken[user.pk]}.")
    if number in taken.values():
        raise TableError("seat_taken", f"Seat {number} is taken.")
    seat_claim(table=table, user_id=user.pk, number=number)  # `seat_reserved` for others
    owes = _game_running(ts)
    status = SeatStatus.WAITING_BB if owes and not post_bb else SeatStatus.PLAYING
    try:
        with transaction.atomic():
            seat = Seat(table=table, number=number, player=user, status=status,
                        post_bb=owes and post_bb)
            bank = bank_seated(seat, table)  # the table's starting time bank, if it has one
            seat.save(force_insert=True)
    except IntegrityError:
        raise TableError("seat_taken", f"Seat {number} is taken.") from None
    try:
        _, changes = buy_in(terms=money_terms(table), seat_id=seat.pk, player_id=user.pk,
                            on_table=0, amount=amount,
                            idempotency_key=f"{idempotency_key}:buy_in")
    except CashierError as e:
        raise TableError(e.code, e.message) from None
    log = EventLog(held)
    log.track(seat)
    log.stacks(changes)  # the chips bought, written with the events
    opens = not ts.next_commitment
    if opens:  # the table's first deck, committed before anyone contributes
        deck_commit_next(ts)
    log.add(seat_taken_event(seat, next_commitment=ts.next_commitment if opens else ""))
    if seat.post_bb:  # he posts a big blind in the next hand: his status says so
        log.add(status_event(seat))
    if bank is not None:
        log.add(bank)
    log.flush()
    next_hand_maybe(held)
    return seat


def seat_leave(*, table_id: int, user_id: int, idempotency_key: str) -> bool:
    """Cash out and free the seat; during a hand the player is in, after that hand ends (he
    is marked `leaving`, is not dealt again, and his hand is folded on his turn, at once if it
    is his turn now: leaving.py). Returns True when he left now. Once per
    `idempotency_key`: a resend returns the first answer and changes nothing.
    Locks: the table row, then the cashier's (idempotency, accounts, top-ups)."""
    with transaction.atomic():
        held = table_lock(table_id)

        def apply() -> dict[str, Any]:
            return {"left_now": _seat_leave(held, user_id=user_id, key=idempotency_key)}

        return _once(key=idempotency_key, operation="seat_leave", apply=apply,
                     params={"table": table_id, "user": user_id})["left_now"]


def _seat_leave(held: Locked, *, user_id: int, key: str) -> bool:
    money_refuse(held.table)
    log = EventLog(held)
    seat = log.track(_seat_of(held.state, user_id))
    if _in_running_hand(held.state, seat):  # folded now or on his turn, out at the hand's end
        return hand_leave(log, hand=held.state.hand, seat=seat)
    try:
        log.add(seat_remove(log, seat=seat, key=f"{key}:cash_out"))
    except CashierError as e:
        raise TableError(e.code, e.message) from None
    log.flush()
    return True


def _status_set(table_id: int, user_id: int, change: Any) -> Seat:
    """Change the player's seat (`change` refuses or sets its fields) and record its `status`
    event. Locks: the table row."""
    with transaction.atomic():
        held = table_lock(table_id)
        log = EventLog(held)
        seat = log.track(_seat_of(held.state, user_id))
        change(seat)
        log.add(status_event(seat))
        log.flush()
        next_hand_maybe(held)
        return seat


def sit_out(*, table_id: int, user_id: int) -> Seat:
    """Skip hands from the next one on (the current one plays on). Locks: the table row."""
    def change(seat: Seat) -> None:
        if seat.status == SeatStatus.SITTING_OUT:
            raise TableError("already_sitting_out", "You are already sitting out.")
        seat_sit_out(seat, timezone.now())
    return _status_set(table_id, user_id, change)


def sit_in(*, table_id: int, user_id: int) -> Seat:
    """Play again. A player who missed a blind waits for the big blind (or posts one with
    `post_big_blind_now`). Locks: the table row."""
    def change(seat: Seat) -> None:
        if seat.status != SeatStatus.SITTING_OUT:
            raise TableError("not_sitting_out", "You are not sitting out.")
        seat.status = SeatStatus.WAITING_BB if seat.missed_blinds else SeatStatus.PLAYING
        seat.sat_out_at = None
    return _status_set(table_id, user_id, change)


def post_big_blind_now(*, table_id: int, user_id: int) -> Seat:
    """A player waiting for the big blind posts a live extra big blind in the next hand
    instead. Refusal: `nothing_owed`. Locks: the table row."""
    def change(seat: Seat) -> None:
        if seat.status != SeatStatus.WAITING_BB:
            raise TableError("nothing_owed", "You do not owe a big blind: just play.")
        seat.status, seat.post_bb = SeatStatus.PLAYING, True
    return _status_set(table_id, user_id, change)


def wait_for_big_blind(*, table_id: int, user_id: int) -> Seat:
    """Undo `post_big_blind_now`: wait for the big blind position. Refusal: `nothing_owed`.
    Locks: the table row."""
    def change(seat: Seat) -> None:
        if not seat.post_bb and seat.status != SeatStatus.WAITING_BB:
            raise TableError("nothing_owed", "You do not owe a big blind.")
        seat.status, seat.post_bb = SeatStatus.WAITING_BB, False
    return _status_set(table_id, user_id, change)


def seat_top_up(*, table_id: int, user_id: int, amount: int, idempotency_key: str) -> int:
    """Buy more chips; they join the stack when the next hand starts (a busted player who was
    sat out plays again). Returns the amount. Once per `idempotency_key`: a resend returns the
    first answer and changes nothing.
    Refusals: the cashier's codes. Locks: the table row, then the cashier's."""
    with transaction.atomic():
        held = table_lock(table_id)

        def apply() -> dict[str, Any]:
            return {"amount": _seat_top_up(held, user_id=user_id, amount=amount)}

        return _once(key=idempotency_key, operation="seat_top_up", apply=apply,
                     params={"table": table_id, "user": user_id, "amount": amount})["amount"]


def _seat_top_up(held: Locked, *, user_id: int, amount: int) -> int:
    money_refuse(held.table)
    seat = _seat_of(held.state, user_id)
    try:  # claimed by `_once`
        row = top_up_claimed(terms=money_terms(held.table), seat_id=seat.pk,
                             player_id=seat.player_id, on_table=seat.chips + seat.pending,
                             amount=amount)
    except CashierError as e:
        raise TableError(e.code, e.message) from None
    log = EventLog(held)
    log.add({"type": "top_up", "seat": seat.number, "amount": row.amount, "pending": True})
    back = back_in_if_busted(seat)
    if back is not None:
        log.add(back)
    log.flush()
    next_hand_maybe(held)
    return row.amount


def back_in_if_busted(seat: Seat) -> dict[str, Any] | None:
    """A busted player (sat out at 0 chips) plays again once chips are coming to him: he is
    dealt in (or waits for the big blind if he owes one). Returns his `status` event, or None
    when he was not busted. Needs the table lock."""
    if seat.status != SeatStatus.SITTING_OUT or seat.chips != 0:
        return None
    seat.status = SeatStatus.WAITING_BB if seat.missed_blinds else SeatStatus.PLAYING
    seat.sat_out_at = None
    seat.save(update_fields=["status", "sat_out_at"])
    return status_event(seat)
