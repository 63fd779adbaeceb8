"""Starting a tournament: its tables, its players seated at random with the starting stack,
the clock and the first hands.

A Sit & Go starts when its last seat is registered: registration starts it right after its
commit (`start_when_full`), and the tournaments' sweeper starts one that a lost start left
full and registering. Starting twice changes nothing: the start re-checks under the lock. A
Sit & Go that starts opens the next one of its template (`sit_and_go_respawn`)."""
from __future__ import annotations

import datetime
import logging
import math
import secrets

from django.db import transaction
from django.utils import timezone

from tables.errors import TableError
from tables.models import Seat, SeatStatus, Structure, TableConfig
from tables.services.dealing import deck_commit_next
from tables.services.eventlog import EventLog, seat_taken_event
from tables.services.locks import table_lock, tournament_lock
from tables.services.time_bank import bank_seated
from tables.tournaments.models import (
    Entry,
    EntryState,
    Tournament,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services.cancelling import tournament_cancel
from tables.tournaments.services.clock import (
    clock_now,
    clock_schedule,
    clock_until,
    level_event,
    level_played,
)
from tables.tournaments.services.eventlog import TournamentLog

logger = logging.getLogger(__name__)
# Tournament tables never remove a player sitting out (he is blinded off): a limit no one
# reaches, for the cash tables' sweeper that reads the field (sweeps.py skips them anyway).
NEVER_MINUTES = 10 ** 6


def sit_and_go_full(tournament: Tournament) -> bool:
    """A registering Sit & Go whose every seat is taken: due to start."""
    return (tournament.kind == TournamentKind.SIT_AND_GO
            and tournament.state == TournamentState.REGISTERING
            and Entry.objects.filter(tournament=tournament,
                                     state=EntryState.REGISTERED).count()
            >= (tournament.entries_cap or 0))


def start_when_full(tournament_id: int) -> None:
    """After a registration's commit: start the Sit & Go if that filled it. A failure here
    is logged; the sweeper starts the tournament (tournaments_sweep)."""
    try:
        tournament_start(tournament_id=tournament_id)
    except Exception:
        logger.exception("tournament %s: the start after registration failed", tournament_id)


def scheduled_due(tournament: Tournament, now: datetime.datetime) -> bool:
    """A registering scheduled event whose start time has come: due to start (or, short of
    its minimum field, to be cancelled)."""
    return (tournament.kind == TournamentKind.SCHEDULED
            and tournament.state == TournamentState.REGISTERING
            and tournament.starts_at is not None and tournament.starts_at <= now)


def tournament_start(*, tournament_id: int, now: datetime.datetime | None = None,
                     rng: secrets.SystemRandom | None = None) -> Tournament:
    """Start the tournament if it is a full Sit & Go or a scheduled event at its start time
    with at least its minimum field (short of it, the event is cancelled and everyone
    refunded: `tournament_cancel`, reason `min_field`): state running at level 1, its tables
    created (as few as the seats per table allow), its entries seated at random with the
    starting stack (`playing`), the clock's next change and each table's first hand timed
    after the table's pause. Events: `started` on the tournament's log; `seat_taken` at the
    tables. Returns the tournament (unchanged when not due).
    Locks: the tournament row, then each new table's row (nobody else can know them yet)."""
    now, rng = now or timezone.now(), rng or secrets.SystemRandom()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if scheduled_due(tournament, now):
            field = Entry.objects.filter(tournament=tournament,
                                         state=EntryState.REGISTERED).count()
            minimum = tournament.structure.get("min_field", 2)
            if field < minimum:
                return tournament_cancel(
                    tournament_id=tournament_id, reason=f"min_field: {field} of {minimum} "
                    "entries at the start time")
        elif not sit_and_go_full(tournament):
            return tournament
        entries = list(Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED)
                       .select_related("user").order_by("pk"))
        rng.shuffle(entries)
        tournament.started_at, tournament.level = now, 1
        tournament.state = TournamentState.RUNNING
        tournament.save(update_fields=["started_at", "level", "state"])
        log = TournamentLog(tournament)
        seats_per_table = tournament.structure["seats_per_table"]
        count = math.ceil(len(entries) / seats_per_table)
        tables = []
        for k in range(count):
            players = entries[k::count]  # dealt round the tables: within one of each other
            table = table_create(tournament, number=k + 1, seats=seats_per_table)
            _table_seat(table, players, rng=rng, now=now)
            tables.append({"table_id": table.pk, "name": table.name, "players": [
                {"seat": e.seat, "player_id": e.user_id, "name": e.user.table_name}
                for e in players]})
        log.add({"type": "started", "entries": len(entries), "tables": tables})
        clock = clock_now(tournament, now)
        log.add(level_event(tournament, clock_until(clock, now)))
        clock_schedule(tournament, clock, now)  # its first change
        log.flush()
        if tournament.kind == TournamentKind.SIT_AND_GO:
            template_id = tournament.template_id
            transaction.on_commit(lambda: sit_and_go_respawn(template_id))
    return tournament


def sit_and_go_respawn(template_id: int) -> Tournament | None:
    """After a Sit & Go's start has committed: the next one of its template, so that one is
    always open — none when the template is inactive or another of it is still registering.
    Its own transaction, after the start's: a template that no longer makes a tournament is
    logged, never a reason to hold a start back. (Two starts of one template at the same
    moment may open two; never none.)"""
    from tables.tournaments.models import TournamentTemplate
    from tables.tournaments.services.creating import tournament_create

    template = TournamentTemplate.objects.get(pk=template_id)
    if not template.is_active or Tournament.objects.filter(
            template=template, state=TournamentState.REGISTERING).exists():
        return None
    try:
        return tournament_create(template=template)
    except TableError as error:
        logger.warning("template %s: no next Sit & Go: %s", template_id, error.message)
        return None


def table_create(tournament: Tournament, *, number: int, seats: int) -> TableConfig:
    """A no-limit table of the tournament at its first level's blinds, taking no rake;
    timers from the structure. Its stakes follow the levels (the hand start sets them)."""
    structure, level = tournament.structure, level_played(tournament)
    return TableConfig.objects.create(
        name=f"{tournament.name} #{tournament.pk} table {number}"[:64],
        structure=Structure.NO_LIMIT, tournament=tournament,
        lower_stake=level.big_blind, upper_stake=2 * level.big_blind,
        small_blind_rule="explicit", small_blind=level.small_blind,
        max_seats=seats, min_buy_in_bb=1, max_buy_in_bb=1,
        action_seconds=structure["action_seconds"],
        countdown_seconds=structure["countdown_seconds"],
        timeout_policy=structure["timeout_policy"],
        time_bank_seconds=structure["time_bank_seconds"],
        time_bank_refill_seconds=structure["time_bank_refill_seconds"],
        time_bank_refill_hands=structure["time_bank_refill_hands"],
        time_bank_cap_seconds=structure["time_bank_cap_seconds"],
        hand_pause_seconds=structure.get("hand_pause_seconds", 3),
        sit_out_limit_minutes=NEVER_MINUTES, ratholing_window_minutes=0,
    )


def _table_seat(table: TableConfig, entries: list[Entry], *, rng: secrets.SystemRandom,
                now: datetime.datetime) -> None:
    """Seat `entries` at random seats of the new table with the starting stack, record
    `seat_taken` for each, commit the first deck and time the first hand."""
    held = table_lock(table.pk)
    ts, log = held.state, EventLog(held)
    deck_commit_next(ts)
    numbers = rng.sample(range(1, table.max_seats + 1), len(entries))
    for entry, number in zip(entries, numbers, strict=True):
        seat = Seat(table=table, number=number, player=entry.user, status=SeatStatus.PLAYING,
                    chips=entry.chips)
        bank = bank_seated(seat, table)
        seat.save(force_insert=True)
        entry.state, entry.table, entry.seat = EntryState.PLAYING, table, number
        entry.save(update_fields=["state", "table", "seat"])
        log.add(seat_taken_event(seat, next_commitment=ts.next_commitment))
        if bank is not None:
            log.add(bank)
    ts.next_hand_at = now + datetime.timedelta(seconds=table.hand_pause_seconds)
    log.flush()
    held.effects.next_hand(ts.next_hand_at)
