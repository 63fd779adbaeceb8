"""Helpers for driving hands: the live state, the player to act, random legal actions."""
from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection

from tables import services
from tables.engine import HandState, legal_actions
from tables.models import Hand, TableState


def live(table_id: int) -> tuple[TableState, Hand | None, HandState | None]:
    ts = TableState.objects.select_related("hand").get(pk=table_id)
    hand = ts.hand
    return ts, hand, HandState.from_json(hand.state) if hand else None


def to_act_user(table_id: int) -> int | None:
    """The user id whose turn it is, or None."""
    _ts, hand, state = live(table_id)
    if hand is None or hand.finished_at is not None or state is None or state.to_act < 0:
        return None
    return int(state.players[state.to_act].player_id)


def random_action(state: HandState, rng: random.Random) -> tuple[str, int | None]:
    la = legal_actions(state)
    assert la is not None
    if la.show or la.muck:
        return rng.choice(["show", "muck"]), None
    options: list[tuple[str, int | None]] = [("fold", None)] if rng.random() < 0.2 else []
    options.append(("check", None) if la.check else ("call", None))
    if la.bet or la.raise_:
        kind = "bet" if la.bet else "raise"
        options.append((kind, rng.choice([la.min_to, la.max_to, (la.min_to + la.max_to) // 2])))
    return rng.choice(options)


def play_out(table_id: int, *, rng: random.Random | None = None, passive: bool = False) -> int:
    """Play the running hand to its end with legal actions (check/call when `passive`).
    Returns the number of actions taken."""
    rng = rng or random.Random(0)
    taken = 0
    while True:
        ts, hand, state = live(table_id)
        if hand is None or hand.finished_at is not None:
            return taken
        la = legal_actions(state)
        user_id = int(state.players[state.to_act].player_id)
        if passive:
            action = ("show", None) if la.show else ("check", None) if la.check else ("call", None)
        else:
            action = random_action(state, rng)
        services.act(table_id=table_id, user_id=user_id, action=action[0], amount=action[1],
                     expected_version=ts.version)
        taken += 1


def as_dict(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"]["type"] for e in events]


class Racer(threading.Thread):
    """`fn()` in a thread of its own, on its own database connection. `outcome()` (once it
    ended) is what it returned or whatever it raised — a crash is an outcome to assert on,
    never a silent None."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.fn = fn
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        from django.db import connection

        try:
            self.result = self.fn()
        except BaseException as error:
            self.error = error
        finally:
            connection.close()

    def outcome(self, timeout: float = 30.0) -> Any:
        self.join(timeout)
        assert not self.is_alive(), f"{self.fn} still runs after {timeout} s"
        return self.error if self.error is not None else self.result


@contextmanager
def sql_sent() -> Iterator[list[str]]:
    """Every SQL statement this thread's connection sends inside the block, in order."""
    sent: list[str] = []

    def counted(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        sent.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(counted):
        yield sent
