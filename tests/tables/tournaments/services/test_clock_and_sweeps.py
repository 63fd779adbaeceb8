"""The tournament's clock task and the beat sweeper that catches lost starts and clock
tasks (factories' Sit & Go: three five-minute levels, 10/20, 20/40, 30/60)."""
from __future__ import annotations

import datetime
import uuid

import pytest

from tables.models import TableConfig
from tables.tournaments.models import Tournament, TournamentEvent, TournamentState
from tables.tournaments.services import registration, tournament_register
from tables.tournaments.services.clock import tournament_clock
from tables.tournaments.services.sweeps import tournaments_sweep
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db(transaction=True)


def fill(tournament: Tournament, make_player) -> None:
    for k in range(1, 7):
        tournament_register(tournament_id=tournament.pk, user=make_player(f"p{k}"),
                            key=str(uuid.uuid4()))


def test_a_start_lost_after_the_last_registration_is_made_by_the_sweeper(
        make_player, fake_timers, monkeypatch):
    monkeypatch.setattr(registration, "start_when_full", lambda tournament_id: None)
    tournament = tournament_make()
    fill(tournament, make_player)
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.REGISTERING
    assert tournaments_sweep() == {"started": 1, "clocks": 0, "cancelled": 0, "settled": 0}
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.RUNNING
    assert TableConfig.objects.filter(tournament=tournament).count() == 1
    assert tournaments_sweep() == {"started": 0, "clocks": 0, "cancelled": 0,
                                  "settled": 0}  # nothing twice


def test_the_clock_records_each_level_once_and_schedules_the_next(make_player, fake_timers):
    tournament = tournament_make()
    fill(tournament, make_player)
    tournament.refresh_from_db()
    start = tournament.started_at
    assert [c["at"] for c in fake_timers.clocks] == [start + datetime.timedelta(minutes=5)]
    at = start + datetime.timedelta(minutes=5)
    assert tournament_clock(tournament_id=tournament.pk, now=at).level == 2
    assert tournament_clock(tournament_id=tournament.pk, now=at).level == 2  # a duplicate
    assert [c["at"] for c in fake_timers.clocks][1:] == [start + datetime.timedelta(minutes=10)]
    levels = TournamentEvent.objects.filter(tournament=tournament, type="level")
    assert [e.payload["level"] for e in levels.order_by("version")] == [1, 2]
    # The task for level 3 is lost: the sweeper records it; the last level never ends.
    later = start + datetime.timedelta(minutes=11)
    assert tournaments_sweep(now=later) == {"started": 0, "clocks": 1, "cancelled": 0,
                                               "settled": 0}
    assert Tournament.objects.get(pk=tournament.pk).level == 3
    assert len(fake_timers.clocks) == 2
