"""What a table step does after its transaction commits, in one explicit order.

Every service takes the table lock first (`locks.table_lock`), which gives the step an
`Effects` (in its `Locked`) and registers its one commit hook. The step records what must follow — events to
broadcast, a turn timer to queue, the next hand to time — and after the commit `run` does
them in this order, whatever order the step recorded them in:

1. broadcast the events (the database has them: a lost broadcast is a gap clients fill);
2. keep the process's copy of the table for its next action (copies.py), once the broadcast
   is queued, so that the next step's broadcast cannot overtake this one;
3. queue the turn's timeout task (a round trip to the broker the broadcast must not wait for);
4. time the next hand (one due now is dealt here, in this thread: see scheduling.py);
5. queue the finished hand's player statistics (services/hand_stats.py), in a worker;
6. count it in the room's metrics (observability/metrics.py).

A rolled-back step runs nothing: Django drops the hook with the transaction. A failing effect
is logged with its traceback and counted (`room_effect_failures_total{effect}`), and the next
ones still run: the step is committed and raising would not undo it, only lose the effects
after the failing one; a lost broadcast is a gap the sockets fill from the database, and a
lost timer or next hand is caught by the sweeper."""
from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from observability import metrics
from tables import scheduling
from tables.groups import events_broadcast
from tables.services.copies import copy_keep

if TYPE_CHECKING:
    from tables.services.locks import Locked

logger = logging.getLogger(__name__)


@dataclass
class Effects:
    table_id: int
    items: list[dict[str, Any]] = field(default_factory=list)  # recorded events, in order
    timeout: tuple[int, int, datetime.datetime] | None = None  # hand id, version, deadline
    next_hand_at: datetime.datetime | None = None
    stats_hand_id: int | None = None  # a finished hand to count in the player statistics
    counts: list[Callable[[], None]] = field(default_factory=list)  # metrics to move
    copy: Locked | None = None  # the table as committed, for the process's next action

    def broadcast(self, items: list[dict[str, Any]]) -> None:
        self.items.extend(items)

    def timeout_queue(self, *, hand_id: int, version: int, deadline: datetime.datetime) -> None:
        self.timeout = (hand_id, version, deadline)

    def next_hand(self, at: datetime.datetime) -> None:
        self.next_hand_at = at

    def hand_stats(self, hand_id: int) -> None:
        self.stats_hand_id = hand_id

    def count(self, metric: Callable[[], None]) -> None:
        self.counts.append(metric)

    def keep(self, copy: Locked) -> None:
        self.copy = copy

    def run(self) -> None:
        steps: list[tuple[str, Callable[[], None]]] = []
        if self.items:
            steps.append(("broadcast", lambda: events_broadcast(table_id=self.table_id,
                                                                items=self.items)))
        if self.copy is not None:
            copy = self.copy
            steps.append(("copy", lambda: copy_keep(copy)))
        if self.timeout is not None:
            hand_id, version, deadline = self.timeout
            steps.append(("turn timer", lambda: scheduling.timeout_schedule(
                hand_id=hand_id, version=version, deadline=deadline)))
        if self.next_hand_at is not None:
            at = self.next_hand_at
            steps.append(("next hand", lambda: scheduling.hand_start_schedule(
                table_id=self.table_id, at=at)))
        if self.stats_hand_id is not None:
            hand_id = self.stats_hand_id
            steps.append(("hand stats", lambda: scheduling.hand_stats_schedule(hand_id=hand_id)))
        steps += [("metrics", metric) for metric in self.counts]
        for name, step in steps:
            try:
                step()
            except Exception:
                logger.exception("table %s: %s after commit failed", self.table_id, name,
                                 extra={"table_id": self.table_id})
                metrics.EFFECT_FAILURES.labels(name).inc()
