"""A tournament table between two hands: the chips bought since (rebuys, add-ons: they join
the stacks first, so a busted player who rebought plays on), the busts of the hand that
ended, the tournament's end, the clock, and what the next hand is dealt by — its seats, the dead button's positions
and the level's blinds and antes (the rules engine decides each: ranking.py, positions.py,
levels.py).

Called by the hand start (tables/services/starting.py) with the tournament's row and then the
table's locked (the lock order: a bust writes the tournament's entries and log). Busts are
taken here, not in the step that ends the hand, because that step holds only the table's lock;
nobody with 0 chips is ever dealt in, so nothing happens between the two."""
from __future__ import annotations

import datetime
from dataclasses import dataclass

from tables.engine import HandState
from tables.models import Seat, TableConfig
from tables.services.eventlog import EventLog
from tables.services.locks import Locked
from tables.tournaments.engine.levels import ForcedBets, Level, forced_bets
from tables.tournaments.engine.positions import Positions, next_positions
from tables.tournaments.engine.ranking import Bust, places
from tables.tournaments.models import (
    STARTED,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
)
from tables.tournaments.services.clock import clock_catch_up, level_played
from tables.tournaments.services.eventlog import TournamentLog
from tables.tournaments.services.finishing import tournament_finish
from tables.tournaments.services.purchases import purchases_apply
from tables.tournaments.services.tables import dealt_in, tables_step


@dataclass(frozen=True)
class TournamentDeal:
    """The next hand at a tournament table: its seats (everyone with chips, sitting out or
    not: an absent player is blinded off), positions and forced bets, and its level."""

    dealt: list[Seat]
    positions: Positions
    bets: ForcedBets
    level: Level
    seats: list[Seat]  # every seat at the table now (arrivals included, the busted gone)


def tournament_hand_prepare(tournament: Tournament, held: Locked, seats: list[Seat],
                            log: EventLog, now: datetime.datetime,
                            tables: dict[int, Locked] | None = None) -> TournamentDeal | None:
    """Take the busts of the last hand (places, `busted` events, their seats freed), finish
    the tournament when one entry is left, bring the clock up to date, and return the next
    hand — or None: the tournament is over, on a break (the table's next hand is timed at the
    break's end), or the table has fewer than two players. Needs the tournament's row and the
    table's (and its seats) locked; `seats` are the table's locked seats; flushes the
    tournament's log, the caller the table's.

    A multi-table tournament's step (`tables`: every one of its tables, locked by
    `tournament_tables_lock`) is tables.py's `tables_step`: busts across tables, newcomers,
    moves, broken tables and hand-for-hand, before this table's next hand."""
    tlog = TournamentLog(tournament)
    if tables is not None:
        if tournament.state in STARTED:  # (a finished one's clock stopped)
            clock_catch_up(tournament, tlog, now)  # the level in force, before anything
        stepped = tables_step(tournament, tables, held, seats, log, tlog, now)
        if stepped is None:
            tlog.flush()
            return None
        seats = stepped
    else:
        purchases_apply(tournament, seats, log, now)  # before the busts: a rebuy saves
        seats = busts_take(tournament, held, seats, log, tlog, now)
    if tournament.state not in (TournamentState.RUNNING, TournamentState.ON_BREAK):
        if seats:  # cancelled while playing (everyone refunded): the table empties
            table_close(held, seats, log)
        tlog.flush()
        return None
    clock = clock_catch_up(tournament, tlog, now)
    for seat in seats:  # the entries' stacks as of this hand's start
        Entry.objects.filter(tournament=tournament, user_id=seat.player_id,
                             state=EntryState.PLAYING).update(chips=seat.chips)
    if seats:  # the tournament's pages and level lines follow the stacks hand by hand
        tlog.add({"type": "chips", "table_id": held.table.pk,
                  "stacks": {str(s.player_id): s.chips for s in seats}})
    tlog.flush()
    ts = held.state
    if clock.on_break:
        ts.next_hand_at = now + datetime.timedelta(seconds=clock.seconds_left or 0)
        held.effects.next_hand(ts.next_hand_at)
        return None
    seated = sorted((s for s in seats if s.chips > 0), key=lambda s: s.number)
    if len(seated) < 2:
        return None
    level = level_played(tournament)
    stakes_follow(held.table, level)
    positions = next_positions([s.number for s in seated], seats=held.table.max_seats,
                               last_small_blind=ts.small_blind_seat,
                               last_big_blind=ts.big_blind_seat)
    dealt = dealt_in(seated, positions.big_blind)
    if len(dealt) < len(seated):  # a newcomer waits for the big blind: positions without him
        positions = next_positions([s.number for s in dealt], seats=held.table.max_seats,
                                   last_small_blind=ts.small_blind_seat,
                                   last_big_blind=ts.big_blind_seat)
    bets = forced_bets(level, positions, {s.number: s.chips for s in dealt})
    ts.button_seat = positions.button
    ts.small_blind_seat, ts.big_blind_seat = positions.small_blind, positions.big_blind
    return TournamentDeal(dealt=dealt, positions=positions, bets=bets, level=level, seats=seats)


def stakes_follow(table: TableConfig, level: Level) -> None:
    """The table's stakes as the level's blinds, in memory: the engine's rules (raise sizes)
    and the `hand_start` event are made from them, and the hand keeps its rules. The config
    row itself is never written by a step (locks.py: the admin's, never locked)."""
    table.lower_stake, table.upper_stake = level.big_blind, 2 * level.big_blind
    table.small_blind = level.small_blind


def busts_take(tournament: Tournament, held: Locked, seats: list[Seat], log: EventLog,
               tlog: TournamentLog, now: datetime.datetime) -> list[Seat]:
    """The seats out of chips bust: their entries get their places (busts of one hand rank by
    their stacks when it began, ranking.py), leave the table (`seat_left`) and the log says so
    (`busted`). When one entry is left the tournament finishes. Returns the seats left."""
    out = [s for s in seats if s.chips == 0]
    if not out:
        return seats
    hand = held.state.hand
    started = ({p.seat: p.start_stack for p in HandState.from_json(hand.state).players}
               if hand is not None else {})
    entries = {e.user_id: e for e in Entry.objects.filter(
        tournament=tournament, state=EntryState.PLAYING).select_related("user")}
    left = len(entries)
    busts = [Bust(str(entries[s.player_id].pk), started.get(s.number, 0))
             for s in out if s.player_id in entries]
    by_id = {str(e.pk): e for e in entries.values()}
    for finish in reversed(places([busts], field=left)):  # worst first, as announced
        entry = by_id[finish.entry_id]
        entry.state, entry.place, entry.busted_at = EntryState.BUSTED, finish.best, now
        entry.chips, entry.table, entry.seat = 0, None, None
        entry.save(update_fields=["state", "place", "busted_at", "chips", "table", "seat"])
        tlog.add({"type": "busted", "player": entry.user.table_name, "player_id": entry.user_id,
                  "entry": entry.number,
                  "place": finish.best, "players_left": left - len(busts)})
    remaining = [s for s in seats if s.chips > 0]
    alive = [e for e in entries.values() if e.state == EntryState.PLAYING]
    if len(alive) == 1:  # paid before any seat row goes (the cashier's rows come first)
        winner = alive[0]
        winner.chips = sum(s.chips for s in remaining if s.player_id == winner.user_id)
        winner.save(update_fields=["chips"])
        tournament_finish(tournament, winner, tlog, now)
    for seat in out:
        log.add({"type": "seat_left", "seat": seat.number, "player_id": seat.player_id,
                 "cashed_out": 0})
        log.delete(seat)
    if len(alive) == 1:
        table_close(held, remaining, log)
        return []
    return remaining


def table_close(held: Locked, seats: list[Seat], log: EventLog) -> None:
    """The tournament is over: its last players leave the table, and no hand is timed there
    again (its hand start finds the tournament over)."""
    for seat in seats:
        log.add({"type": "seat_left", "seat": seat.number, "player_id": seat.player_id,
                 "cashed_out": 0})
        log.delete(seat)
    held.state.next_hand_at = None
