"""The end of a hand: settle it through the cashier in the same transaction as its final
state, record its summary, free leavers, sit out the busted, time the next hand."""
from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from cashier.errors import CashierError
from cashier.services import cash_out
from observability import metrics
from tables.engine import HandState, fairness
from tables.models import Hand, HandSummary, Seat, SeatStatus, TableState
from tables.recent import iso, recent_entry
from tables.services import waitlist
from tables.services.eventlog import EventLog
from tables.services.locks import seats_lock
from tables.services.sitout import seat_sit_out
from tables.services.stacks import hand_settle, money_terms

if TYPE_CHECKING:
    from tables.services.effects import Effects


def hand_finish(hand: Hand, state: HandState, log: EventLog, now: datetime.datetime) -> None:
    """Settle the finished hand: stacks and rake through the cashier (a tournament table's
    stacks without it: stacks.py `hand_settle`), a HandSummary for the
    lobby, `hand_end` completed (its line in the recent hands), `stacks`, leavers cashed out,
    the busted sat out, the next hand timed, its players' statistics queued. The cashier returns the stacks' changes; the
    log writes them with the step. Needs the table lock; locks the table's seats."""
    ts, effects = log.state, log.held.effects
    table = ts.table
    result = state.result or {}
    seats = seats_lock(log.held)  # the stacks the cashier checks the escrow against
    deltas = {hand.seat_ids[str(p.seat)]: p.stack - p.start_stack for p in state.players}
    try:
        changes = hand_settle(table, hand_id=hand.pk, hand_number=hand.number, deltas=deltas,
                              rake=int(result.get("rake", 0)),
                              stacks={s.pk: s.chips for s in seats})
    except CashierError as e:  # a bug, never a player's fault: do not lose the hand silently
        raise RuntimeError(f"settling hand {hand.pk} failed: {e.code}: {e.message}") from e
    log.stacks(changes)
    hand.finished_at, hand.deadline = now, None
    if hand.fairness == fairness.LEGACY:  # dealt before the private fair deal: as it was,
        hand.seed = state.seed or ""  # its seed is published
    effects.count(metrics.HANDS_FINISHED.inc)
    effects.hand_stats(hand.pk)  # the players' statistics, counted in a worker
    log.insert(HandSummary(
        table=table, finished_at=now, pot=sum(p.total for p in state.players),
        players_dealt=len(state.players), players_saw_flop=hand.players_saw_flop,
    ))
    ts.next_hand_at = now + datetime.timedelta(seconds=table.hand_pause_seconds)
    end = log.last("hand_end")  # the engine's hand_end is last: complete it
    if end is not None:
        names = {s.number: s.player.table_name for s in seats
                 if hand.seat_ids.get(str(s.number)) == s.pk}
        end.update({"hand_id": hand.pk, "next_hand_at": iso(ts.next_hand_at),
                    "recent": recent_entry(hand, names, table)})
    log.add({"type": "stacks", "stacks": {str(p.seat): p.stack for p in state.players}})
    for seat in seats:
        if seat.leave_after_hand:
            log.add(seat_remove(log, seat=seat, key=f"leave:{seat.pk}:{hand.pk}"))
    busted = {hand.seat_ids[str(p.seat)] for p in state.players if p.stack == 0}
    for seat in seats:  # out of chips and nothing coming: sit out (a top-up brings him back);
        if (not table.is_tournament and seat.pk in busted  # a tournament's busts: its next start and not seat.leave_after_hand and not seat.pending
                and seat.status != SeatStatus.SITTING_OUT):
            log.add(seat_sit_out(seat, now))
    log.flush()
    schedule_next_hand(ts, effects)


def seat_remove(log: EventLog, *, seat: Seat, key: str) -> dict[str, Any]:
    """Cash the seat out and free it; returns the `seat_left` event. Needs the table lock."""
    out, changes = cash_out(terms=money_terms(log.held.table), seat_id=seat.pk,
                            player_id=seat.player_id, chips=seat.chips, idempotency_key=key)
    log.track(seat)
    log.stacks(changes)  # its stack goes to 0 ...
    number, player_id = seat.number, seat.player_id
    log.delete(seat)  # ... and the seat with it
    waitlist.seat_opened(table_id=seat.table_id)  # offered to the first waiting, if any
    return {"type": "seat_left", "seat": number, "player_id": player_id, "cashed_out": out.amount}


def schedule_next_hand(ts: TableState, effects: Effects) -> None:
    """After the commit, deal the next hand at `next_hand_at` (if set)."""
    if ts.next_hand_at is not None:
        effects.next_hand(ts.next_hand_at)
