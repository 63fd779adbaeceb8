"""The tournament clock: which level is played, when the next one starts, and its events.

The clock runs from `Tournament.started_at` through the structure the tournament copied
(`clock_at`, engine/levels.py). `Tournament.level` and its state (running / on break) are
the clock as last recorded: `clock_catch_up` brings them up to date and logs each change on
the tournament's log. It runs from the clock task at each change (scheduled on commit), from
the beat sweeper when that task was lost, and before every hand of the tournament's tables,
so a hand always starts on the level in force (a new level applies from the next hand)."""
from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tables import scheduling
from tables.services.locks import tournament_lock
from tables.tournaments.engine.levels import Break, Clock, Level, clock_at, levels_of
from tables.tournaments.models import STARTED, Tournament, TournamentState
from tables.tournaments.services.eventlog import TournamentLog


def engine_structure(tournament: Tournament) -> list[Level | Break]:
    """The tournament's copied levels and breaks as the rules engine takes them."""
    return [Break(step["minutes"]) if step["is_break"] else
            Level(small_blind=step["small_blind"], big_blind=step["big_blind"],
                  minutes=step["minutes"], ante=step["ante"],
                  big_blind_ante=step["big_blind_ante"])
            for step in tournament.structure["levels"]]


def clock_now(tournament: Tournament, now: datetime.datetime) -> Clock:
    """Where the clock stands at `now` (the tournament has started)."""
    assert tournament.started_at is not None
    elapsed = max(0, int((now - tournament.started_at).total_seconds()))
    return clock_at(engine_structure(tournament), elapsed)


def level_played(tournament: Tournament) -> Level:
    """The level recorded as played (`Tournament.level`, 1 for the first)."""
    return levels_of(engine_structure(tournament))[tournament.level - 1]


def clock_until(clock: Clock, now: datetime.datetime) -> str | None:
    """When the clock changes next (ISO time; None: the last level never ends)."""
    if clock.seconds_left is None:
        return None
    return (now + datetime.timedelta(seconds=clock.seconds_left)).isoformat()


def level_event(tournament: Tournament, until: str | None) -> dict[str, Any]:
    """`level` (tables/events.py): the level played, when it ends and the one after it."""
    levels = levels_of(engine_structure(tournament))
    level = levels[tournament.level - 1]
    after = levels[tournament.level] if tournament.level < len(levels) else None
    return {"type": "level", "level": tournament.level, **_blinds(level), "until": until,
            "next": _blinds(after) if after is not None else None}


def _blinds(level: Level) -> dict[str, Any]:
    return {"small_blind": level.small_blind, "big_blind": level.big_blind,
            "ante": level.ante, "big_blind_ante": level.big_blind_ante}


def clock_catch_up(tournament: Tournament, log: TournamentLog,
                   now: datetime.datetime) -> Clock:
    """Record the clock's change since it was last recorded (a level, a break's start or
    end: its event, the tournament's `level` and `state` saved), schedule the clock task at
    the next change (whoever records a change schedules the next: one task per change), and
    return where the clock stands. Needs the tournament row locked; the caller flushes `log`."""
    clock = clock_now(tournament, now)
    level, state = clock.level + 1, (TournamentState.ON_BREAK if clock.on_break
                                     else TournamentState.RUNNING)
    if (level, state) == (tournament.level, tournament.state):
        return clock
    if state == TournamentState.ON_BREAK:
        log.add({"type": "break", "after_level": level, "seconds": clock.seconds_left,
                 "until": clock_until(clock, now)})
    elif level != tournament.level or tournament.state == TournamentState.ON_BREAK:
        tournament.level = level
        log.add(level_event(tournament, clock_until(clock, now)))
    tournament.level, tournament.state = level, state
    Tournament.objects.filter(pk=tournament.pk).update(level=level, state=state)
    clock_schedule(tournament, clock, now)
    return clock


def clock_schedule(tournament: Tournament, clock: Clock, now: datetime.datetime) -> None:
    """After the commit, the clock task at the next change (none after the last level)."""
    if clock.seconds_left is None:
        return
    at = now + datetime.timedelta(seconds=clock.seconds_left)
    tournament_id = tournament.pk
    transaction.on_commit(
        lambda: scheduling.tournament_clock_schedule(tournament_id=tournament_id, at=at))


def tournament_clock(*, tournament_id: int, now: datetime.datetime | None = None) -> Tournament:
    """The clock task: record the level or break now in force (and schedule the next change).
    Idempotent: a duplicate or a late task records and schedules nothing. Locks: the
    tournament row."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if tournament.state not in STARTED:
            return tournament
        log = TournamentLog(tournament)
        clock_catch_up(tournament, log, now)
        log.flush()
    return tournament
