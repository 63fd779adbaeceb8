"""Waiting-list offers lapsing through a real Celery worker (a subprocess on the test database).

Offers here last 1 s. The expiry task is queued with an eta at the offer's end; the worker moves
the list on. A worker killed with the task reserved loses it: the next read moves the list on
instead, and a fresh worker carries on from the rows alone."""
from __future__ import annotations

import uuid

import pytest

from tables import services
from tables.models import WaitingListEntry
from tables.services import waitlist
from tests.tables.realroom import kill_hard, private_queue_fixture, wait_until, worker

pytestmark = pytest.mark.usefixtures("private_queue")
assert private_queue_fixture  # the fixture, imported to be found


@pytest.fixture
def full_table(make_table, make_player, settings, monkeypatch):
    settings.WAITLIST_OFFER_SECONDS = 1
    monkeypatch.setenv("WAITLIST_OFFER_SECONDS", "1")  # for the worker subprocesses too
    table = make_table(name="Duel", lower_stake=2, max_seats=2, hand_pause_seconds=600)
    players = {name: make_player(name) for name in ("alice", "bob", "carol", "dave")}
    for number, name in ((1, "alice"), (2, "bob")):
        services.seat_take(table_id=table.pk, user=players[name], number=number, amount=200,
                           idempotency_key=uuid.uuid4().hex)
    for name in ("carol", "dave"):
        waitlist.waitlist_join(table_id=table.pk, user=players[name])
    table.players = players
    return table


def offered(table, name: str) -> bool:
    """A plain read of the rows (it does not move the list itself)."""
    return WaitingListEntry.objects.filter(table=table, player__username=name,
                                           offered_seat__isnull=False).exists()


def test_the_worker_passes_a_lapsed_offer_to_the_next_player(full_table):
    with worker():
        services.seat_leave(table_id=full_table.pk, user_id=full_table.players["alice"].pk,
                            idempotency_key=uuid.uuid4().hex)
        assert offered(full_table, "carol")

        wait_until(lambda: offered(full_table, "dave"), timeout=15,
                   message="the expiry task did not pass the seat on")
        assert not WaitingListEntry.objects.filter(player__username="carol").exists()
        # and dave's own offer lapses the same way: the list is empty, the seat free
        wait_until(lambda: not WaitingListEntry.objects.filter(table=full_table).exists(),
                   timeout=15, message="dave's offer did not lapse")


def test_a_lost_task_does_not_stall_the_list_after_a_restart(full_table):
    with worker() as first:
        services.seat_leave(table_id=full_table.pk, user_id=full_table.players["alice"].pk,
                            idempotency_key=uuid.uuid4().hex)
        kill_hard(first)  # the eta task it reserved dies with it
    assert offered(full_table, "carol")

    with worker():  # the restarted room: a fresh worker, the same rows
        wait_until(lambda: waitlist.waitlist_status(
            table_id=full_table.pk, user_id=full_table.players["dave"].pk).offered_seat == 1,
            timeout=10, message="reading after the offer's end did not move the list on")
        # the offer that read made is expired by the fresh worker's task
        wait_until(lambda: not WaitingListEntry.objects.filter(table=full_table).exists(),
                   timeout=15, message="the fresh worker did not expire dave's offer")
