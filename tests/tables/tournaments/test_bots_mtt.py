"""`manage.py bots --tournament ID --players 15 --late 3 --reentries 1` against a real room
(daphne and a Celery worker with beat on the test database, as test_bots_sng.py): an 18-player
three-table event with late registration and re-entry, with daphne and the worker killed
(SIGKILL) and restarted once mid-event. It runs to its end; places and prizes are right and the
ledger audit is clean."""
from __future__ import annotations

import contextlib
import datetime
import io
import re
import threading

import pytest
from django.core.management import call_command
from django.utils import timezone

from cashier.audit import ledger_audit
from pokerroom.processes import stop_process
from tables.models import Seat
from tables.tournaments.models import Entry, EntryState, TournamentKind, TournamentState
from tables.tournaments.services import tournament_create
from tests.browser.conftest import free_port
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    daphne_ready,
    private_queue_fixture,
    restart_when,
    start_daphne,
    worker,
)
from tests.tables.tournaments.factories import template_make

PAYOUTS = [(2, 10, [6_500, 3_500]), (11, 40, [5_000, 3_000, 2_000])]


# The room's real stack (daphne, the worker, beat) on the database operators run: the
# PostgreSQL pass only (SQLite's single writer adds a minute and proves nothing more).
@pytest.mark.postgres
def test_eighteen_bots_play_a_three_table_event_through_a_restart(private_queue, tmp_path):
    template = template_make(kind=TournamentKind.SCHEDULED, seats_per_table=6, min_field=4,
                             levels=8, late_registration_levels=1, max_reentries=1,
                             payouts=PAYOUTS, starting_stack=1_000, action_seconds=2,
                             countdown_seconds=1, hand_pause_seconds=1)
    template.levels.update(minutes=1)
    tournament = tournament_create(template=template,
                                   starts_at=timezone.now() + datetime.timedelta(seconds=4))
    port = free_port()
    servers: dict = {"daphne": start_daphne(port, wait=False)}
    out = io.StringIO()
    with contextlib.ExitStack() as stack:
        servers["worker"] = stack.enter_context(worker(beat=True, tmp_path=tmp_path))
        daphne_ready(servers["daphne"], port)
        busts = Entry.objects.filter(tournament=tournament, state=EntryState.BUSTED)
        restarter = threading.Thread(target=restart_when, daemon=True, args=(
            lambda: busts.count() >= 3, "three busts before the restart", servers), kwargs={
            "port": port, "tmp_path": tmp_path, "stack": stack})
        restarter.start()
        try:
            with pytest.raises(SystemExit) as status:
                call_command("bots", tournament=tournament.pk, players=15, late=3,
                             reentries=1, url=f"http://127.0.0.1:{port}", think=0, seed=18,
                             timeout=240, stdout=out)
        finally:
            print(out.getvalue())
            restarter.join(timeout=60)
            stop_process(servers["daphne"])
    assert servers.get("restarted"), "the room was not restarted mid-event"
    assert status.value.code == 0
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    field = len(entries)
    assert field >= 18
    assert len({e.user_id for e in entries}) == 18
    places = re.findall(r"^place (\d+): (\S+) (\d+)$", out.getvalue(), re.MULTILINE)
    assert len(places) == field
    assert sorted((int(p), name, int(prize)) for p, name, prize in places) == sorted(
        (e.place, e.user.username, e.prize) for e in entries)
    assert min(e.place for e in entries) == 1 and all(e.place for e in entries)
    assert sum(e.prize for e in entries) == field * tournament.buy_in
    assert not Seat.objects.filter(table__tournament=tournament).exists()
    report = ledger_audit()
    assert report.ok, report.summary()
