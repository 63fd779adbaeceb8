"""Finishing places from bust events, and who is paid what.

Entries that bust on the same hand rank by their stacks at the start of that hand, the larger
stack finishing higher (TDA "Simultaneous busts"; PokerStars' tournament rules: "if two or more
players are eliminated in the same hand, the player who started the hand with the most chips
finishes higher"). During hand-for-hand, busts at different tables in the same synchronised hand
count as one hand (PokerStars: "considered eliminated in the same hand, even if they were at
different tables"). Equal starting stacks tie: they share the places they cover and split the
sum of those places' prizes (``payouts.split``). poker-network breaks such ties by a random
draw instead; the room follows PokerStars and the TDA here.

Every entry finishes somewhere, re-entries included: an entry that busted and was re-entered
keeps the place it busted in (always far from the money, since re-entry closes with late
registration), so the places of a field of ``n`` entries run 1..n.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .payouts import split


@dataclass(frozen=True, slots=True)
class Bust:
    """An entry out of chips, and its stack when the hand it busted in began."""

    entry_id: str
    start_stack: int


@dataclass(frozen=True, slots=True)
class Finish:
    """``best``..``worst``: the places an entry covers (more than one when tied)."""

    entry_id: str
    best: int
    worst: int

    @property
    def tied(self) -> bool:
        return self.best != self.worst


def places(bust_hands: Sequence[Sequence[Bust]], *, field: int,
           winner: str | None = None) -> list[Finish]:
    """The finishes of the busted entries, best first, plus the winner's first place.

    ``bust_hands``: the busts of each hand in the order the hands ended (one group for a
    synchronised hand-for-hand hand, across tables). ``field``: the number of entries.
    """
    seen = [b.entry_id for hand in bust_hands for b in hand] + ([winner] if winner else [])
    if len(seen) != len(set(seen)):
        raise ValueError("an entry busts once")
    finishes: list[Finish] = []
    left = field
    for hand in bust_hands:
        left -= len(hand)
        if left < 0 or (left == 0 and winner is not None):
            raise ValueError("more busts than entries")
        by_stack: dict[int, list[str]] = {}
        for b in hand:
            by_stack.setdefault(b.start_stack, []).append(b.entry_id)
        best = left + 1
        group: list[Finish] = []
        for stack in sorted(by_stack, reverse=True):
            tied = sorted(by_stack[stack])
            group += [Finish(e, best, best + len(tied) - 1) for e in tied]
            best += len(tied)
        finishes = group + finishes
    if winner is not None:
        if left != 1:
            raise ValueError(f"{left} entries left: no winner yet")
        finishes.insert(0, Finish(winner, 1, 1))
    return finishes


def awards(finishes: Sequence[Finish], prizes: Sequence[int]) -> dict[str, int]:
    """Each finishing entry's prize (0 outside the money). Tied entries split the sum of the
    prizes of the places they cover, odd units to them in entry-id order."""
    def prize(place: int) -> int:
        return prizes[place - 1] if place <= len(prizes) else 0

    out: dict[str, int] = {}
    blocks: dict[tuple[int, int], list[str]] = {}
    for f in finishes:
        blocks.setdefault((f.best, f.worst), []).append(f.entry_id)
    for (best, worst), entries in blocks.items():
        shares = split([prize(p) for p in range(best, worst + 1)])
        for entry, amount in zip(sorted(entries), shares, strict=True):
            out[entry] = amount
    return out

