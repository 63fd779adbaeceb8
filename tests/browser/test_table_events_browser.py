"""The browser's table page follows the game from events alone: over a session of several
hands the server sends each page one snapshot (when its socket connects) and no other, and the
state the page built equals a fresh snapshot."""
from __future__ import annotations

import time

import pytest

from tests.browser.players import open_table, play_passively, sign_up, take_seat
from tests.conftest import room_metric

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HANDS = 3


def snapshot_requests(frames: list[str]) -> list[str]:
    return [f for f in frames if '"type": "snapshot"' in f or '"type":"snapshot"' in f]


def test_a_session_of_several_hands_asks_for_no_snapshot(room_url, new_page, make_table):
    from tables.models import Hand, TableState

    table = make_table(name="Elm", structure="PL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=1)
    snapshots = room_metric(room_url, "room_snapshots_total")  # this session's daphne
    pages = {name: new_page(name) for name in ("carol", "dave")}
    sent: dict[str, list[str]] = {name: [] for name in pages}
    for name, page in pages.items():
        page.on("websocket", lambda ws, name=name: ws.on(
            "framesent", lambda payload, name=name: sent[name].append(str(payload))))
    for number, (name, page) in enumerate(pages.items(), start=1):
        sign_up(page, room_url, name)
        open_table(page, room_url, table.pk)
        take_seat(page, number, 200)

    deadline = time.monotonic() + 180
    while Hand.objects.filter(table=table, finished_at__isnull=False).count() < HANDS:
        assert time.monotonic() < deadline, "the hands did not finish"
        for page in pages.values():  # both play passively: check, call, show
            play_passively(page, ("#act-check", "#act-call", "#act-show"))
        time.sleep(0.1)
    # The players stop: the next hand waits for its first action (quiet), so a snapshot taken
    # now is of the version the pages have reached.
    current, quiet_since = TableState.objects.get(pk=table.pk).version, time.monotonic()
    while time.monotonic() - quiet_since < 1.5:
        time.sleep(0.1)
        now = TableState.objects.get(pk=table.pk).version
        if now != current:
            current, quiet_since = now, time.monotonic()
    for page in pages.values():
        page.wait_for_function(f"() => Number(document.querySelector('[data-version]')"
                               f".dataset.version) >= {current}", timeout=20_000)

    # one snapshot per page, at its socket's connect: the server counts what it sent
    assert room_metric(room_url, "room_snapshots_total") - snapshots == len(pages)
    for name, page in pages.items():
        assert snapshot_requests(sent[name]) == [], name  # none asked for in steady play
        assert page.evaluate("window.pokerTable.selfCheck()") == []  # equal to a fresh one
