"""Starting a hand: who is dealt in, the button, blinds, a fresh committed deck."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from cashier.services import top_ups_join
from observability import metrics
from tables.engine import SeatIn, blind_seats, next_button, start_hand
from tables.models import Hand, Seat, SeatStatus, TableState
from tables.services.auto_topup import auto_top_ups_request
from tables.services.dealing import deck_deal
from tables.services.eventlog import EventLog, status_event
from tables.services.locks import (
    TournamentNotHeld,
    seats_lock,
    table_lock,
    table_tournament_lock,
    tournament_held,
)
from tables.services.seat_choices import bb_sitters_out
from tables.services.stacks import money_terms
from tables.services.steps import engine_step
from tables.services.time_bank import bank_count
from tables.tournaments.services.hands import TournamentDeal, tournament_hand_prepare
from tables.tournaments.services.tables import multi_table, tournament_tables_lock


def _dealt_seats(ts: TableState, seats: list[Seat]) -> tuple[int, list[Seat]] | None:
    """(button, seats dealt in) for the next hand, or None when fewer than two can play.

    Players who owe a big blind (`waiting_bb`) are dealt in when the big blind reaches them, or
    at once when they chose to post it (`post_bb`). A table where fewer than two players are
    playing is not a running game: everyone eligible is dealt in free."""
    eligible = [s for s in seats if s.chips > 0 and s.status != SeatStatus.SITTING_OUT
                and not s.leave_after_hand]
    playing = [s for s in eligible if s.status == SeatStatus.PLAYING]
    if len(playing) < 2:
        playing, waiting = eligible, []
    else:
        waiting = [s for s in eligible if s.status == SeatStatus.WAITING_BB]
    if len(playing) < 2:
        return None
    if ts.button_seat is None:
        order = [s.number for s in sorted(playing, key=lambda s: (s.created_at, s.pk))]
    else:
        order = sorted(s.number for s in playing)
    button = next_button(ts.button_seat, order)
    dealt = list(playing)
    for w in sorted(waiting, key=lambda s: s.number):
        numbers = sorted([s.number for s in playing] + [w.number])
        if blind_seats(button, numbers)[1] == w.number:
            dealt.append(w)
            break
    return button, sorted(dealt, key=lambda s: s.number)


def hand_start(*, table_id: int, force: bool = False) -> Hand | None:
    """Deal the next hand if none runs, the pause is over (or `force`) and two can play.

    Carries out standing top-up orders, then every pending top-up joins its stack; moves the
    button, posts blinds (and extra live big blinds), deals the deck committed for it in the
    order the players' entropy fixes (dealing.py), commits the next hand's deck, and
    marks sitting-out players who miss a blind (a `status` event each: clients learn who owes
    a blind from the events). Seats dealt in count the hand for their time bank's refill
    (`time_banks` event when a bank grew). The seats' changes, the top-ups applied, the hand,
    its events and the table row are written together (`EventLog.flush`).

    A tournament's table (tables/tournaments/services/hands.py) first takes the last hand's
    busts and brings the tournament's clock up to date; it deals everyone with chips, sitting
    out or not (an absent player is blinded off), the dead button's blinds and the level's
    antes, and has no top-ups.
    A scheduled (multi-table) tournament's table runs the tournament's step over all its
    tables (tables/tournaments/services/tables.py): it locks every table of the tournament,
    ascending id, after the tournament's row (the lock order's exception, locks.py).
    Locks: a tournament table's tournament row, the table row, then the seats (standing orders
    take the cashier's in between; a tournament's end pays its prizes after the seats)."""
    try:
        return _hand_start(table_id=table_id, force=force)
    except TournamentNotHeld:  # first seen here: again, its tournament's row first
        return _hand_start(table_id=table_id, force=force)


def _hand_start(*, table_id: int, force: bool) -> Hand | None:
    with transaction.atomic():
        tournament = table_tournament_lock(table_id)  # a tournament's table: its row first
        tables = (tournament_tables_lock(tournament, table_id) if multi_table(tournament)
                  else None)  # a multi-table tournament's step holds all its tables
        held = table_lock(table_id) if tables is None else tables[table_id]
        tournament_held(held, tournament)
        ts, table = held.state, held.table
        now = timezone.now()
        if ts.hand_running or not table.is_active:
            return None
        if not force and ts.next_hand_at is not None and ts.next_hand_at > now:
            return None
        log = EventLog(held)
        seats = seats_lock(held)
        plan: TournamentDeal | None = None
        if tournament is not None:  # chips, not money: no top-ups; the tournament decides
            plan = tournament_hand_prepare(tournament, held, seats, log, now, tables)
            picked = None if plan is None else (plan.positions.button, plan.dealt)
            seats = ([s for s in seats if s.pk is not None] if plan is None
                     else plan.seats)  # the busted left the table, the moved came
        else:
            if any(s.auto_top_up for s in seats):  # standing orders queue top-ups: read again
                for event in auto_top_ups_request(table=table):
                    log.add(event)
                seats = seats_lock(held)
            chips = {s.pk: s.chips for s in seats}
            log.stacks(top_ups_join(terms=money_terms(table), chips=chips,
                                    pending={s.pk: s.pending for s in seats}))
            if any(s.chips != chips[s.pk] for s in seats):
                log.add({"type": "stacks", "stacks": {str(s.number): s.chips for s in seats}})
            picked = bb_sitters_out(lambda: _dealt_seats(ts, seats), log, now)
        if picked is None:
            if tournament is None or ts.next_hand_at is None or ts.next_hand_at <= now:
                ts.next_hand_at = None  # a tournament's break keeps its next hand timed
            log.flush()
            return None
        button, dealt = picked
        deal = deck_deal(ts, seats)
        straddling = plan is None and table.straddle_allowed  # the engine decides who may
        forced = {} if plan is None else {"forced_bets": plan.bets.blinds,
                                          "antes": plan.bets.antes,
                                          "dead_antes": plan.bets.dead_antes}
        state, events = start_hand(
            rules=table.engine_rules(),
            seats=[SeatIn(seat=s.number, player_id=str(s.player_id), stack=s.chips,
                          post_bb=s.post_bb and plan is None, always_show=s.always_show,
                          straddle=s.straddle and straddling)
                   for s in dealt],
            button=button, deck=deal.cards, commitment=deal.root, **forced,
            run_it_twice=plan is None and table.run_it_twice_allowed,
        )
        hand = Hand.objects.create(
            table=table, number=ts.hands_dealt + 1, state=state.to_json(), version=state.version,
            seat_ids={str(s.number): s.pk for s in dealt}, commitment=deal.root,
            deck_key=deal.key, entropy=deal.entropy,
        )
        held.effects.count(metrics.HANDS_STARTED.inc)
        dealt_numbers = [s.number for s in dealt]
        owing = []
        for s in seats if plan is None else []:  # a tournament deals everyone: nobody owes
            before = (s.post_bb, s.missed_blinds, s.status)
            if s in dealt:
                s.post_bb = s.missed_blinds = False
                s.status = SeatStatus.PLAYING
            elif s.status == SeatStatus.SITTING_OUT and s.number in blind_seats(
                    button, sorted([*dealt_numbers, s.number])):
                s.missed_blinds = True
            if (s.post_bb, s.missed_blinds, s.status) != before and s not in dealt:
                owing.append(s)
        banks = bank_count(table, dealt)  # a time bank's hand count and refill
        ts.button_seat, ts.hand, ts.hands_dealt, ts.next_hand_at = button, hand, hand.number, None
        log.hand = hand
        names = {s.number: s.player.table_name for s in dealt}
        first, rest = events[0], events[1:]
        log.add({
            **{k: v for k, v in first.items() if k != "version"},
            "hand_id": hand.pk, "number": hand.number, "next_commitment": ts.next_commitment,
            "small_blind": table.small_blind_amount, "big_blind": table.big_blind,
            "players": [{"seat": p.seat, "player_id": int(p.player_id), "name": names[p.seat],
                         "stack": p.start_stack} for p in state.players],
        })
        for s in owing:  # dealt seats become `playing` owing nothing: the event says so
            log.add(status_event(s))
        if banks is not None:
            log.add(banks)
        engine_step(hand, state, rest, log, now)
        return hand
