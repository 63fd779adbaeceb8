"""`manage.py bots --sng 6` against a real room (daphne and a Celery worker on the test
database, as tests/tables/test_bots.py runs the cash bots): six bots register for the demo
Sit & Go, play it to the end over the sockets, and the command prints one line per place."""
from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from cashier.audit import ledger_audit
from tables.models import Seat
from tables.tournaments.models import Entry, Tournament, TournamentState
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    private_queue_fixture,
    room_env,
    room_fixture,
)


def test_six_bots_play_a_sit_and_go_to_the_end(room):
    out = io.StringIO()
    with pytest.raises(SystemExit) as status:
        try:
            call_command("bots", sng=6, url=room, think=0, seed=3, timeout=600, stdout=out)
        finally:
            print(out.getvalue())
    assert status.value.code == 0
    places = re.findall(r"^place (\d+): (\S+) (\d+)$", out.getvalue(), re.MULTILINE)
    assert len(places) == 6
    tournament = Tournament.objects.get()
    assert tournament.state == TournamentState.FINISHED
    entries = {e.user.username: e for e in Entry.objects.filter(tournament=tournament)}
    assert {name: (int(place), int(prize)) for place, name, prize in places} == {
        name: (e.place, e.prize) for name, e in entries.items()}
    assert sum(int(prize) for *_, prize in places) == 6 * tournament.buy_in  # 65/35 of 600
    assert sorted(int(prize) for *_, prize in places)[-2:] == [210, 390]
    assert not Seat.objects.exists()
    report = ledger_audit()
    assert report.ok, report.summary()
