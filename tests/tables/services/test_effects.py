"""After a step commits: broadcast, turn timer, next hand, metrics — in that order, whatever
order the step recorded them in, and a failing one does not stop the rest."""
from __future__ import annotations

import datetime

from tables.services import effects


def test_effects_run_in_their_fixed_order_and_survive_a_failure(monkeypatch):
    done: list[str] = []

    def broadcast(**kwargs):
        done.append("broadcast")
        raise ConnectionError("Redis is down")  # a gap the sockets will fill

    monkeypatch.setattr(effects, "events_broadcast", broadcast)
    monkeypatch.setattr(effects.timers, "timeout_schedule", lambda **kw: done.append("timer"))
    monkeypatch.setattr(effects.timers, "hand_start_schedule", lambda **kw: done.append("next"))
    now = datetime.datetime.now(datetime.UTC)
    step = effects.Effects(table_id=7)
    step.count(lambda: done.append("metric"))  # recorded first ...
    step.next_hand(now)
    step.timeout_queue(hand_id=1, version=3, deadline=now)
    step.broadcast([{"version": 1, "event": {"type": "mucked", "seat": 1}}])

    step.run()

    assert done == ["broadcast", "timer", "next", "metric"]  # ... run last


def test_a_step_with_nothing_to_publish_does_nothing(monkeypatch):
    monkeypatch.setattr(effects, "events_broadcast", lambda **kw: (_ for _ in ()).throw(
        AssertionError("nothing to send")))
    effects.Effects(table_id=7).run()
