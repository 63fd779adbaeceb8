"""The timers queue tasks by their registered name and deal a hand due now in the committing
thread, with the dealer the app gave them (tables/scheduling.py, tables/apps.py)."""
from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.utils import timezone

from pokerroom.celery import app
from tables import scheduling, services, tasks
from tables.models import Hand
from tables.services import waitlist

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """What the timers send to the broker, recorded instead."""
    record: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, **options: record.append((name, options)))
    return record


def test_the_names_sent_are_registered_tasks():
    """The worker imports tables/tasks.py (autodiscovery; test_timers_worker.py runs one)."""
    names = {scheduling.HAND_TIMEOUT_TASK, scheduling.HAND_START_TASK, waitlist.OFFERS_EXPIRE_TASK}
    assert tasks.__name__ == "tables.tasks" and names <= set(app.tasks)


def test_a_hand_due_now_is_dealt_in_the_thread_that_committed(play_table, make_player, sent):
    for number, name in enumerate(("alice", "bob"), start=1):  # no pause: due at once
        services.seat_take(table_id=play_table.pk, user=make_player(name), number=number,
                           amount=200, idempotency_key=uuid.uuid4().hex)
    hand = Hand.objects.get(table=play_table)
    assert hand.finished_at is None
    assert [name for name, _options in sent] == [scheduling.HAND_TIMEOUT_TASK]  # its first turn


def test_a_later_hand_goes_to_the_worker_by_name(play_table, sent):
    at = timezone.now() + datetime.timedelta(seconds=5)
    scheduling.hand_start_schedule(table_id=play_table.pk, at=at)
    assert sent == [(scheduling.HAND_START_TASK, {"kwargs": {"table_id": play_table.pk}, "eta": at,
                                              "expires": at + scheduling.GRACE})]
    assert not Hand.objects.exists()
