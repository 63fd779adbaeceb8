"""One way to pick random legal actions for engine hands played without a table (the PHH
writer's tests, the histories' random hands): show or muck at showdown, now and then a fold
facing a bet or a bet/raise of any legal size, else check or call."""
from __future__ import annotations

import random

from tables.engine import LegalActions


def random_action(la: LegalActions, rng: random.Random, *, timeout_rate: float = 0.0,
                  ) -> tuple[str, int | None]:
    """The action (and amount) for the player `la` is for. A `timeout_rate` share of turns
    before showdown time out (the server acting for him); at 0 no number is drawn for it, so
    hands seeded before the rate existed play as they did."""
    if la.show or la.muck:
        return rng.choice(["show", "muck"]), None
    if timeout_rate and rng.random() < timeout_rate:
        return "timeout", None
    if la.call and rng.random() < 0.15:
        return "fold", None
    if (la.bet or la.raise_) and rng.random() < 0.35:
        return "bet" if la.bet else "raise", rng.randint(la.min_to, la.max_to)
    return "check" if la.check else "call", None
