"""After a step commits: broadcast, the process's copy of the table, turn timer, next hand,
the finished hand's player statistics, metrics — in that order, whatever order the step recorded them in (the copy after the
broadcast: the next step on it must not be published before this one). A failing one is logged and counted, and the rest still run
(the step is committed: raising would only lose the effects after it).

The effects record their calls; nothing is asserted inside them, where `Effects.run` would
catch the assertion."""
from __future__ import annotations

import datetime
import logging

import pytest
from prometheus_client import REGISTRY

from tables.models import TableState
from tables.services import effects
from tables.services.locks import Locked


def failures(effect: str) -> float:
    return REGISTRY.get_sample_value("room_effect_failures_total", {"effect": effect}) or 0.0


@pytest.fixture
def done(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    """Every effect's call, in order, with its arguments."""
    calls: list[tuple[str, dict]] = []
    monkeypatch.setattr(effects, "events_broadcast", lambda **kw: calls.append(("broadcast", kw)))
    monkeypatch.setattr(effects, "copy_keep",
                        lambda copy: calls.append(("copy", {"copy": copy})))
    monkeypatch.setattr(effects.scheduling, "timeout_schedule",
                        lambda **kw: calls.append(("timer", kw)))
    monkeypatch.setattr(effects.scheduling, "hand_start_schedule",
                        lambda **kw: calls.append(("next", kw)))
    monkeypatch.setattr(effects.scheduling, "hand_stats_schedule",
                        lambda **kw: calls.append(("stats", kw)))
    return calls


def test_effects_run_in_their_fixed_order(done):
    now = datetime.datetime.now(datetime.UTC)
    items = [{"version": 1, "event": {"type": "mucked", "seat": 1}}]
    step = effects.Effects(table_id=7)
    step.count(lambda: done.append(("metric", {})))  # recorded first ...
    step.next_hand(now)
    step.hand_stats(1)
    step.timeout_queue(hand_id=1, version=3, deadline=now)
    table = Locked(state=TableState(table_id=7, version=1), effects=step)
    step.keep(table)
    step.broadcast(items)

    step.run()

    assert done == [  # ... run last
        ("broadcast", {"table_id": 7, "items": items}),
        ("copy", {"copy": table}),
        ("timer", {"hand_id": 1, "version": 3, "deadline": now}),
        ("next", {"table_id": 7, "at": now}),
        ("stats", {"hand_id": 1}),
        ("metric", {}),
    ]


def test_a_failing_effect_is_logged_and_counted_and_the_others_still_run(
        done, monkeypatch, caplog):
    def broadcast(**kwargs):
        done.append(("broadcast", kwargs))
        raise ConnectionError("Redis is down")  # a gap the sockets will fill

    monkeypatch.setattr(effects, "events_broadcast", broadcast)
    now = datetime.datetime.now(datetime.UTC)
    step = effects.Effects(table_id=7)
    step.broadcast([{"version": 1, "event": {"type": "mucked", "seat": 1}}])
    step.timeout_queue(hand_id=1, version=3, deadline=now)
    step.count(lambda: done.append(("metric", {})))
    before = {name: failures(name) for name in ("broadcast", "turn timer", "metrics")}

    with caplog.at_level(logging.ERROR, logger=effects.__name__):
        step.run()

    assert [name for name, _ in done] == ["broadcast", "timer", "metric"]
    assert failures("broadcast") - before["broadcast"] == 1
    assert failures("turn timer") == before["turn timer"]
    assert failures("metrics") == before["metrics"]
    [record] = caplog.records
    assert record.getMessage() == "table 7: broadcast after commit failed"
    assert record.exc_info and record.exc_info[0] is ConnectionError  # with its traceback
    assert record.table_id == 7


def test_a_step_with_nothing_to_publish_does_nothing(done):
    effects.Effects(table_id=7).run()
    assert done == []
