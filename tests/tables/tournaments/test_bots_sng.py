"""`manage.py bots --sng 6` against a real room (daphne and a Celery worker with beat on the
test database, as tests/tables/test_bots.py runs the cash bots): six bots register for the demo
Sit & Go and play it over the sockets; daphne and the worker are killed (SIGKILL) and started
again once its first hand was played. It runs to its end, the command prints one line per place,
places and prizes are right and the ledger audit is clean."""
from __future__ import annotations

import contextlib
import io
import re
import threading

import pytest
from django.core.management import call_command

from cashier.audit import ledger_audit
from pokerroom.processes import stop_process
from tables.models import Hand, Seat
from tables.tournaments.models import Entry, Tournament, TournamentState
from tests.browser.conftest import free_port
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    daphne_ready,
    private_queue_fixture,
    restart_when,
    start_daphne,
    worker,
)

# The kill lands in the pause after the first hand (1 s, polled every 50 ms): with think 0 a
# Sit & Go can be over in two hands (CI saw two double busts), so a later hand may never come.
HANDS_BEFORE_RESTART = 1


def test_six_bots_play_a_sit_and_go_to_the_end_through_a_restart(private_queue, tmp_path):
    port = free_port()
    servers: dict = {"daphne": start_daphne(port, wait=False)}
    out = io.StringIO()
    hands = Hand.objects.filter(table__tournament__isnull=False, finished_at__isnull=False)
    with contextlib.ExitStack() as stack:
        servers["worker"] = stack.enter_context(worker(beat=True, tmp_path=tmp_path))
        daphne_ready(servers["daphne"], port)
        restarter = threading.Thread(target=restart_when, daemon=True, args=(
            lambda: hands.count() >= HANDS_BEFORE_RESTART,
            f"{HANDS_BEFORE_RESTART} hands before the restart", servers), kwargs={
            "port": port, "tmp_path": tmp_path, "stack": stack})
        restarter.start()
        try:
            with pytest.raises(SystemExit) as status:
                call_command("bots", sng=6, url=f"http://127.0.0.1:{port}", think=0, seed=3,
                             timeout=600, stdout=out)
        finally:
            print(out.getvalue())
            restarter.join(timeout=60)
            stop_process(servers["daphne"])
    assert servers.get("restarted"), "the room was not restarted mid-event"
    assert status.value.code == 0
    places = re.findall(r"^place (\d+): (\S+) (\d+)$", out.getvalue(), re.MULTILINE)
    assert len(places) == 6
    tournament = Tournament.objects.exclude(state=TournamentState.REGISTERING).get()
    assert tournament.state == TournamentState.FINISHED
    # ... and its start opened the next Sit & Go of the demo template
    assert Tournament.objects.get(state=TournamentState.REGISTERING).template == tournament.template
    entries = {e.user.username: e for e in Entry.objects.filter(tournament=tournament)}
    assert {name: (int(place), int(prize)) for place, name, prize in places} == {
        name: (e.place, e.prize) for name, e in entries.items()}
    prizes = sorted(int(prize) for *_, prize in places)  # 65/35 of 600, second place maybe tied
    assert prizes[-1] == 390 and sum(prizes[:-1]) == 210
    assert not Seat.objects.exists()
    report = ledger_audit()
    assert report.ok, report.summary()
