"""A scheduled tournament's tables between hands: one step over all of them.

A multi-table tournament's hand start (tables/services/starting.py) first runs this step, which
holds the tournament's row and every one of its tables (`tournament_tables_lock`, ascending id:
the lock order's one exception to "one table per transaction", locks.py). Holding them all, it
can do what no single table may: rank busts across tables, seat late registrants and
re-entries (`seat_newcomer`), move players between hands (`rebalance`), close broken tables,
and keep hand-for-hand (no table deals until every table has finished the current hand). The
rules are the engine's (balancing.py, hand_for_hand.py, ranking.py); this module loads the
rows into them and stores the answers as table and tournament events.

Everything it decides from is in the database (seats, each table's last blinds and hand count,
`Tournament.hand_for_hand`), so after a restart the next step, or the sweeper's, resumes where
the last one stopped."""
from __future__ import annotations

import datetime
import random
import secrets
from dataclasses import dataclass

from django.db.models import F, Q
from django.db.models.expressions import CombinedExpression

from tables.engine import HandState
from tables.models import Seat, SeatStatus, TableConfig
from tables.services.dealing import deck_commit_next
from tables.services.eventlog import EventLog, seat_taken_event
from tables.services.locks import Locked, seats_lock, table_lock
from tables.services.time_bank import bank_seated
from tables.tournaments.engine.balancing import (
    Move,
    SeatedPlayer,
    TableView,
    rebalance,
    seat_newcomer,
)
from tables.tournaments.engine.hand_for_hand import TableHands, hand_for_hand_on, may_deal
from tables.tournaments.engine.ranking import Bust, places
from tables.tournaments.models import (
    ACTIVE,
    STARTED,
    Entry,
    EntryState,
    Tournament,
    TournamentKind,
)
from tables.tournaments.services.eventlog import TournamentLog
from tables.tournaments.services.finishing import payout_percents, tournament_finish
from tables.tournaments.services.purchases import purchases_apply, purchases_take


def multi_table(tournament: Tournament | None) -> bool:
    """A scheduled event plays on several tables: its hands go through this step."""
    return tournament is not None and tournament.kind == TournamentKind.SCHEDULED


@dataclass(eq=False)
class HeldTable:
    """One of the tournament's tables as the step holds it: its lock, its seats, its log
    (the table the hand start is for uses the caller's, which the caller flushes)."""

    held: Locked
    seats: list[Seat]
    log: EventLog
    own: bool = False

    @property
    def table_id(self) -> int:
        return self.held.state.table_id

    @property
    def busy(self) -> bool:
        return self.held.state.hand_running

    def alive(self) -> list[Seat]:
        return [s for s in self.seats if s.pk is not None]


def tournament_tables_lock(tournament: Tournament, table_id: int) -> dict[int, Locked]:
    """Lock every table of the tournament that has players, and `table_id`, in ascending id
    (locks.py: a tournament step's exception, with the tournament's row held first).
    Returns them by table id."""
    ids = set(TableConfig.objects.filter(tournament=tournament, seats__isnull=False)
              .values_list("pk", flat=True)) | {table_id}
    return {pk: table_lock(pk) for pk in sorted(ids)}


def tables_step(tournament: Tournament, tables: dict[int, Locked], own: Locked,
                own_seats: list[Seat], own_log: EventLog, tlog: TournamentLog,
                now: datetime.datetime, rng: random.Random | None = None) -> list[Seat] | None:
    """Everything between two hands of a multi-table tournament, for the table `own` whose
    next hand is due: busts of every table not in a hand (ranked across tables), the end when
    one entry is left, late registrants and re-entries seated, the rebalance's moves, broken
    tables closed, hand-for-hand switched on or off, idle tables woken. Returns `own`'s seats
    after all that, or None when `own` must not deal now (hand-for-hand: another table is
    still playing the current hand; or the tournament is over). Needs the tournament's row and
    every table (`tournament_tables_lock`) locked; flushes the other tables' logs."""
    rng = rng or secrets.SystemRandom()
    held = [HeldTable(held=h, seats=own_seats if h is own else seats_lock(h),
                      log=own_log if h is own else EventLog(h), own=h is own)
            for h in tables.values()]
    mine = next(t for t in held if t.own)
    seats = _step(tournament, held, tlog, now, rng)
    for t in held:
        if not t.own:
            t.log.flush()
    return None if seats is None else mine.alive()


def _step(tournament: Tournament, held: list[HeldTable], tlog: TournamentLog,
          now: datetime.datetime, rng: random.Random) -> list[Seat] | None:
    mine = next(t for t in held if t.own)
    if tournament.hand_for_hand is not None and not may_deal(
            mine.table_id, _hands(tournament, held)):
        mine.held.state.next_hand_at = None  # the last table to finish the hand wakes us
        return None
    for t in held:  # rebuys and add-ons join the stacks before busts are ranked
        if not t.busy:
            purchases_apply(tournament, t.alive(), t.log, now)
    busts_take(tournament, held, tlog, now)
    if tournament.state not in STARTED:  # finished (or cancelled while playing)
        for t in held:
            if t.alive():
                tables_close(t, now)
        return None
    newcomers_seat(tournament, held, tlog, rng, now)
    playing = [t for t in held if t.alive()]
    for move in rebalance(_views(tournament, held), seats=_seats(tournament), rng=rng):
        move_apply(tournament, held, move, tlog)
    for t in playing:
        if not t.alive():  # broken: everyone moved
            tables_close(t, now)
    hand_for_hand_update(tournament, held, tlog)
    for t in held:
        if not t.own:
            idle_wake(t, now)
    return mine.alive()


def _seats(tournament: Tournament) -> int:
    return tournament.structure["seats_per_table"]


def _hands(tournament: Tournament, held: list[HeldTable]) -> dict[int, TableHands]:
    start = tournament.hand_for_hand or {}
    return {t.table_id: TableHands(
        hands=t.held.state.hands_dealt - start.get(str(t.table_id), t.held.state.hands_dealt),
        in_hand=t.busy, players=len(t.alive()))
        for t in held}


def _views(tournament: Tournament, held: list[HeldTable]) -> list[TableView]:
    """The live tables as the balancing rules see them, listed by table id (the highest
    breaks first of equal tables)."""
    moved = dict(Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING)
                 .values_list("user_id", "times_moved"))
    return [TableView(t.table_id,
                      tuple(SeatedPlayer(str(s.player_id), s.number, moved.get(s.player_id, 0))
                            for s in t.alive()),
                      last_small_blind=t.held.state.small_blind_seat,
                      last_big_blind=t.held.state.big_blind_seat, busy=t.busy)
            for t in sorted(held, key=lambda t: t.table_id) if t.alive()]


# Busts -----------------------------------------------------------------------------------------
def busts_take(tournament: Tournament, held: list[HeldTable], tlog: TournamentLog,
               now: datetime.datetime) -> None:
    """The seats out of chips at every table not in a hand bust: places by the engine's
    ranking (one group per table's hand, in the order the hands ended; one group for all
    tables during hand-for-hand, whose synchronised hand counts as one), `busted` on the
    tournament's log (with whether a re-entry is open), `seat_left` at the table. With one
    entry left the tournament finishes (its prizes paid, ranking.py / finishing.py)."""
    groups: list[tuple[tuple, list[Bust]]] = []
    out: dict[str, tuple[HeldTable, Seat]] = {}
    entries = {e.user_id: e for e in Entry.objects.filter(
        tournament=tournament, state=EntryState.PLAYING).select_related("user")}
    for t in held:
        broke = [s for s in t.alive() if s.chips == 0 and not t.busy]
        if not broke:
            continue
        hand = t.held.state.hand
        started = ({p.seat: p.start_stack for p in HandState.from_json(hand.state).players}
                   if hand is not None else {})
        busts = []
        for s in broke:
            entry = entries[s.player_id]
            busts.append(Bust(str(entry.pk), started.get(s.number, 0)))
            out[str(entry.pk)] = (t, s)
        ended = (hand.finished_at, hand.pk) if hand is not None else (now, 0)
        groups.append((ended, busts))
    if not out:
        return
    groups.sort(key=lambda g: g[0])
    bust_hands = ([[b for _, busts in groups for b in busts]]
                  if tournament.hand_for_hand is not None else [b for _, b in groups])
    left = Entry.objects.filter(tournament=tournament, state__in=ACTIVE).count()
    by_id = {str(e.pk): e for e in entries.values()}
    reentry = tournament.registration_open
    for finish in reversed(places(bust_hands, field=left)):  # worst first, as announced
        entry = by_id[finish.entry_id]
        t, seat = out[finish.entry_id]
        entry.state, entry.place, entry.busted_at = EntryState.BUSTED, finish.best, now
        entry.chips, entry.table, entry.seat = 0, None, None
        entry.save(update_fields=["state", "place", "busted_at", "chips", "table", "seat"])
        tlog.add({"type": "busted", "player": entry.user.table_name, "player_id": entry.user_id,
                  "entry": entry.number,
                  "place": finish.best, "players_left": left - len(out), "table_id": t.table_id,
                  "reentry": reentry and entry.number <= tournament.max_reentries})
        t.log.add({"type": "seat_left", "seat": seat.number, "player_id": seat.player_id,
                   "cashed_out": 0})
        t.log.delete(seat)
    if left - len(out) == 1:
        winner = Entry.objects.select_related("user").get(tournament=tournament,
                                                          state__in=ACTIVE)
        winner.chips = sum(s.chips for t in held for s in t.alive()
                           if s.player_id == winner.user_id)
        winner.save(update_fields=["chips"])
        tournament_finish(tournament, winner, tlog, now)


def tables_close(t: HeldTable, now: datetime.datetime) -> None:
    """A table with nobody left to play there (broken, or the tournament over): its last
    players leave, no hand is timed there again, and `table_closed` says so."""
    for seat in t.alive():
        t.log.add({"type": "seat_left", "seat": seat.number, "player_id": seat.player_id,
                   "cashed_out": 0})
        t.log.delete(seat)
    t.held.state.next_hand_at = None
    t.log.add({"type": "table_closed"})
    t.seats = []


# Newcomers and moves ---------------------------------------------------------------------------
def newcomers_seat(tournament: Tournament, held: list[HeldTable], tlog: TournamentLog,
                   rng: random.Random, now: datetime.datetime) -> None:
    """Seat the entries registered since the start (late registration, re-entries): a full
    starting stack (and the chips of any add-on or rebuy bought while waiting), a table drawn
    among the shortest and a random seat not between the small blind and the button
    (`seat_newcomer`); when every table is full a new one opens (the rebalance that follows
    evens the tables)."""
    waiting = list(Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED)
                   .select_related("user").order_by("pk"))
    for entry in waiting:
        seating = seat_newcomer(_views(tournament, held), seats=_seats(tournament), rng=rng)
        if seating is None:
            t = table_open(tournament, held)
            number, waits = rng.randint(1, _seats(tournament)), False
        else:
            t = next(t for t in held if t.table_id == seating.table_id)
            number, waits = seating.seat, seating.waits_for_big_blind
        entry.chips += purchases_take(tournament, entry, now)
        seat = seat_add(t, entry.user, number, entry.chips, waits=waits, bank=None)
        entry.state, entry.table_id, entry.seat = EntryState.PLAYING, t.table_id, seat.number
        entry.save(update_fields=["state", "table", "seat", "chips"])
        tlog.add({"type": "seated", "player": entry.user.table_name, "player_id": entry.user_id,
                  "entry": entry.number,
                  "table_id": t.table_id, "seat": number, "stack": entry.chips})


def table_open(tournament: Tournament, held: list[HeldTable]) -> HeldTable:
    """A new table for newcomers when every table is full; its id is above every table held,
    so locking it now keeps the ascending order."""
    from tables.tournaments.services.starting import table_create
    number = TableConfig.objects.filter(tournament=tournament).count() + 1
    table = table_create(tournament, number=number, seats=_seats(tournament))
    lock = table_lock(table.pk)
    deck_commit_next(lock.state)
    t = HeldTable(held=lock, seats=[], log=EventLog(lock))
    held.append(t)
    return t


def seat_add(t: HeldTable, player: object, number: int, chips: int, *, waits: bool,
             bank: int | None) -> Seat:
    """A player sits down at `t` with `chips` (`seat_taken`): dealt in from the next hand, or
    waiting for the big blind (`waits`)."""
    table = t.held.table
    seat = Seat(table=table, number=number, player=player, chips=chips,
                status=SeatStatus.WAITING_BB if waits else SeatStatus.PLAYING)
    banks = bank_seated(seat, table)
    if bank is not None:  # a moved player keeps what is left of his bank
        seat.time_bank, banks = bank, None
    seat.save(force_insert=True)
    t.held.rows.track(seat)
    t.seats.append(seat)
    t.log.add(seat_taken_event(seat, next_commitment=t.held.state.next_commitment))
    if banks is not None:
        t.log.add(banks)
    return seat


def move_apply(tournament: Tournament, held: list[HeldTable], move: Move,
               tlog: TournamentLog) -> None:
    """One move of the rebalance, between hands: `seat_left` (with `moved_to`) at his old
    table, `seat_taken` at the new one with his chips, and `moved` on the tournament's log,
    naming him by his public table name."""
    source = next(t for t in held if t.table_id == move.from_table)
    target = next(t for t in held if t.table_id == move.to_table)
    old = next(s for s in source.alive() if s.number == move.from_seat)
    player, chips, bank = old.player, old.chips, old.time_bank
    source.log.add({"type": "seat_left", "seat": old.number, "player_id": old.player_id,
                    "cashed_out": 0, "moved_to": target.table_id})
    source.log.delete(old)
    seat = seat_add(target, player, move.to_seat, chips, waits=move.waits_for_big_blind,
                    bank=bank)
    Entry.objects.filter(tournament=tournament, user=player, state=EntryState.PLAYING).update(
        table_id=target.table_id, seat=seat.number, times_moved=_plus_one())
    tlog.add({"type": "moved", "player": player.table_name, "player_id": player.pk,
              "reason": move.reason,
              "from_table": source.table_id, "from_seat": move.from_seat,
              "to_table": target.table_id, "to_seat": move.to_seat})


def _plus_one() -> CombinedExpression:
    return F("times_moved") + 1


# Hand-for-hand and idle tables -----------------------------------------------------------------
def hand_for_hand_update(tournament: Tournament, held: list[HeldTable],
                         tlog: TournamentLog) -> None:
    """Switch hand-for-hand on at the bubble (`hand_for_hand_on`: the next bust is the bubble,
    more than one table) and off in the money; `Tournament.hand_for_hand` stores each table's
    hand count when it began (the engine's counts start there), so a restart resumes it."""
    left = Entry.objects.filter(tournament=tournament, state__in=ACTIVE).count()
    field_size = Entry.objects.filter(tournament=tournament).exclude(
        state=EntryState.UNREGISTERED).count()
    paid = len(payout_percents(tournament, field_size))
    live = [t for t in held if t.alive()]
    on = hand_for_hand_on(left, paid, len(live))
    if on and tournament.hand_for_hand is None:
        tournament.hand_for_hand = {str(t.table_id): t.held.state.hands_dealt for t in live}
        tlog.add({"type": "hand_for_hand", "on": True, "players_left": left, "paid": paid})
    elif not on and tournament.hand_for_hand is not None and (left <= paid or len(live) < 2):
        tournament.hand_for_hand = None
        tlog.add({"type": "hand_for_hand", "on": False, "players_left": left, "paid": paid})
    else:
        return
    Tournament.objects.filter(pk=tournament.pk).update(hand_for_hand=tournament.hand_for_hand)


def idle_wake(t: HeldTable, now: datetime.datetime) -> None:
    """A table between hands with no hand timed (it waited for players, or for hand-for-hand)
    that can play again: its next hand after the pause."""
    ts = t.held.state
    if t.busy or ts.next_hand_at is not None or len(t.alive()) < 2:
        return
    ts.next_hand_at = now + datetime.timedelta(seconds=t.held.table.hand_pause_seconds)
    t.held.effects.next_hand(ts.next_hand_at)


def dealt_in(seats: list[Seat], big_blind: int) -> list[Seat]:
    """Who is dealt the next hand: everyone with chips (an absent player is blinded off),
    except a newcomer waiting for the big blind until it reaches his seat — unless fewer than
    two would play. A waiting seat dealt in plays from then on."""
    with_chips = [s for s in seats if s.chips > 0]
    dealt = [s for s in with_chips
             if s.status != SeatStatus.WAITING_BB or s.number == big_blind]
    if len(dealt) < 2:
        dealt = with_chips
    for s in dealt:
        if s.status == SeatStatus.WAITING_BB:
            s.status = SeatStatus.PLAYING
    return sorted(dealt, key=lambda s: s.number)


def idle_tables(tournament: Tournament) -> list[int]:
    """The tournament's tables with players, no hand running and none timed: a step a
    restart lost (or a table waiting for hand-for-hand or for players, which the step
    re-checks). For the sweeper."""
    return list(TableConfig.objects.filter(
        tournament=tournament, seats__isnull=False, state__next_hand_at__isnull=True)
        .filter(Q(state__hand__isnull=True) | Q(state__hand__finished_at__isnull=False))
        .distinct().order_by("pk").values_list("pk", flat=True))
