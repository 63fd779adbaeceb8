"""Hot tables (PostgreSQL): a mid-hand action at a table this process remembers is one
statement, and whatever the copy cannot decide safely goes to the locked path."""
from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cashier.audit import ledger_audit
from tables import services
from tables.errors import TableError
from tables.models import HandEvent
from tables.services import hot
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("hot tables are PostgreSQL's (elsewhere every action takes the table lock)")


@pytest.fixture
def running(play_table, make_player, sit):
    """A three-handed hand just dealt at `play_table` (so this process remembers it)."""
    for n, name in enumerate(["ann", "ben", "cat"], start=1):
        sit(play_table, make_player(name), n)
    services.hand_start(table_id=play_table.pk, force=True)
    return play_table


def sent_sql(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured if q["sql"] not in ("BEGIN", "COMMIT")]


def test_a_mid_hand_action_is_one_statement_and_moves_the_copy_on(running, fake_timers):
    ts, hand, _ = live(running.pk)
    assert hot.get(running.pk).version == ts.version
    user = to_act_user(running.pk)
    with CaptureQueriesContext(connection) as captured:
        sent = services.act(table_id=running.pk, user_id=user, action="call",
                            expected_version=ts.version)
    [sql] = sent_sql(captured)
    assert sql.startswith("WITH t AS (UPDATE")
    assert [s["event"]["type"] for s in sent] == ["action", "turn"]
    after, hand_after, state = live(running.pk)  # what the database says
    assert after.version == ts.version + 2 == hot.get(running.pk).version
    assert after.hand_moved_version == after.version
    assert hand_after.version == state.version == hand.version + 1
    stored = list(HandEvent.objects.filter(table=running, version__gt=ts.version)
                  .order_by("version").values_list("version", "type", "recipient_id"))
    assert stored == [(ts.version + 1, "action", None),
                      (ts.version + 2, "turn", to_act_user(running.pk))]
    assert hand_after.deadline is not None and not hand_after.bonus_used


def test_a_stale_copy_writes_nothing_and_the_locked_path_decides(running, fake_timers, make_player,
                                                                 sit):
    stale = hot.get(running.pk)
    sit(running, make_player("dan"), 4)  # a seat taken ...
    hot._hot[running.pk] = stale  # ... by another server process: this one's copy is older
    before, _, _ = live(running.pk)
    assert before.version == stale.version + 1
    user = to_act_user(running.pk)
    with CaptureQueriesContext(connection) as captured:  # he has not seen the seat change yet
        sent = services.act(table_id=running.pk, user_id=user, action="call",
                            expected_version=stale.version)
    assert sent_sql(captured)[0].startswith("WITH t AS (UPDATE")  # tried, did not apply
    assert [s["version"] for s in sent] == [before.version + 1, before.version + 2]
    after, _, _ = live(running.pk)
    assert after.version == before.version + 2
    assert list(HandEvent.objects.filter(table=running).order_by("version")
                .values_list("version", flat=True)) == list(range(1, after.version + 1))
    assert hot.get(running.pk).version == after.version  # the locked path remembered it


def test_refusals_are_decided_afresh_under_the_lock(running, fake_timers):
    ts, _, state = live(running.pk)
    not_to_act = int(next(p.player_id for n, p in enumerate(state.players)
                          if n != state.to_act))
    with pytest.raises(TableError) as refused:
        services.act(table_id=running.pk, user_id=not_to_act, action="call",
                     expected_version=ts.version)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(TableError) as stale:
        services.act(table_id=running.pk, user_id=to_act_user(running.pk), action="call",
                     expected_version=ts.version - 1)
    assert stale.value.code == "stale_version"
    assert live(running.pk)[0].version == ts.version  # nothing written


def test_the_action_that_ends_a_hand_settles_under_the_lock(running, fake_timers):
    play_out(running.pk, rng=random.Random(3))
    _, hand, _ = live(running.pk)
    assert hand.finished_at is not None
    assert hot.get(running.pk) is None  # nothing to remember between hands
    assert ledger_audit().ok


def test_a_turn_without_a_queued_timer_queues_one(running, fake_timers):
    ts, _, _ = live(running.pk)
    entry = hot.get(running.pk)
    hand = copy.copy(entry.hand)
    hand.timer_at = None  # as if no task were queued for this hand
    hot._hot[running.pk] = dataclasses.replace(entry, hand=hand)
    fake_timers.timeouts.clear()
    services.act(table_id=running.pk, user_id=to_act_user(running.pk), action="call",
                 expected_version=ts.version)
    _, hand, _ = live(running.pk)
    assert fake_timers.timeouts == [{"hand_id": hand.pk, "version": hand.version,
                                     "deadline": hand.deadline}]
    assert hand.timer_at == hand.deadline
