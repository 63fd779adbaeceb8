"""One hand's public actions turned into each player's statistics counters (the player
pop-up's VPIP, PFR, 3-bet and aggression), so the room keeps running totals instead of
re-reading histories (tables/services/hand_stats.py adds them up).

Only public events are read — the ones every player at the table saw — so counting a hand for
a viewer who was dealt in never uses anything he could not see.

Definitions (the usual HUD ones):
- VPIP: put money in preflop by choice — a call, a bet or a raise. Blinds are forced: the big
  blind checking his option, or winning a walk, is not VPIP; the small blind completing is.
- PFR: raised preflop (the big blind counts as the first bet, so an open is a raise).
- 3-bet: re-raised preflop when facing exactly one raise (a chance: facing one raise on his
  turn, whatever he did; at most one chance and one 3-bet per hand).
- Aggression (AF): postflop bets and raises divided by postflop calls; checks and folds do
  not count. A timeout's forced choice counts as what it was (a fold or a check), and a
  timeout all-in is not voluntary: it counts for nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

AGGRESSIVE = frozenset(("bet", "raise"))
VOLUNTARY = frozenset(("call", "bet", "raise"))


@dataclass
class Counters:
    """What one hand adds to one player's totals."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    postflop_aggressive: int = 0  # bets and raises after the flop
    postflop_calls: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


COUNTER_NAMES = tuple(f.name for f in fields(Counters))


def hand_counters(events: Iterable[dict]) -> dict[int, Counters]:
    """Each dealt-in seat's counters for the hand whose public events (in order) are
    `events`: `hand_start` names the seats dealt in, `action` events are the choices, a
    `board` event moves the hand past preflop. Returns {seat: Counters}."""
    counts: dict[int, Counters] = {}
    preflop = True
    raises = 0  # preflop bets and raises so far (the big blind not counted)
    for e in events:
        kind = e.get("type")
        if kind == "hand_start":
            counts = {int(seat): Counters(hands=1) for seat in e.get("seats", ())}
        elif kind == "board":
            preflop = False
        elif kind == "action":
            c = counts.get(int(e["seat"]))
            if c is None:
                continue
            action = e.get("action")
            if preflop:
                if raises == 1 and not c.three_bet_chances:  # (the opener faces no raise but his)
                    c.three_bet_chances = 1
                    if action in AGGRESSIVE:
                        c.three_bets = 1
                if action in VOLUNTARY:
                    c.vpip = 1
                if action in AGGRESSIVE:
                    c.pfr = 1
                    raises += 1
            elif action in AGGRESSIVE:
                c.postflop_aggressive += 1
            elif action == "call":
                c.postflop_calls += 1
    return counts
