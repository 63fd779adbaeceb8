"""Side pots by contribution level and the uncalled-bet return.

Works on whole-hand contributions, so antes, blinds, folded players' chips and timeout all-ins
need no special cases: a pot segment between two contribution levels is won only by players
still in the hand who put in at least that level.
"""

from __future__ import annotations

from collections.abc import Sequence


def uncalled_excess(totals: Sequence[int]) -> tuple[int, int] | None:
    """(index, amount) of the part of the top contribution nobody matched, or None."""
    top = -1
    top_i = -1
    second = -1
    for i, t in enumerate(totals):
        if t > top:
            second = top
            top, top_i = t, i
        elif t > second:
            second = t
    if top_i < 0 or second < 0 or top <= second:
        return None
    return top_i, top - second


def build_pots(totals: Sequence[int], live: Sequence[bool]) -> list[tuple[int, list[int]]]:
    """Pots as ``(amount, eligible indices)``, main pot first.

    Levels are the distinct contributions of players still in the hand; chips above the top
    level (possible only from folded players) stay in the last pot.
    """
    levels = sorted({t for t, alive in zip(totals, live, strict=True) if alive and t > 0})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = 0
        for t in totals:
            if t > prev:
                amount += (t if t < level else level) - prev
        eligible = [i for i, t in enumerate(totals) if live[i] and t >= level]
        pots.append((amount, eligible))
        prev = level
    extra = sum(t - prev for t in totals if t > prev)
    if extra:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + extra, eligible)
        else:
            pots.append((extra, [i for i, alive in enumerate(live) if alive]))
    if not pots:
        pots.append((0, [i for i, alive in enumerate(live) if alive]))
    return pots
