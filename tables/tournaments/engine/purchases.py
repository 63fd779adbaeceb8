"""Rebuys and the add-on: who may buy chips, and when.

- A **rebuy** buys `rebuy_chips` for the rebuy price, up to `max_rebuys` per entry, while the
  level in force is at most `rebuy_levels` (so, like late registration, through the break
  that follows the last rebuy level), and only while the entry's stack — its chips plus the
  chips it bought that have not reached the table yet — is at most `rebuy_max_stack`.
  `rebuy_max_stack` 0 means only a busted player (0 chips) may rebuy; the usual setting is the
  starting stack ("rebuy while at or below the starting stack").
- The **add-on** buys `addon_chips` once per entry, during the *add-on break*: the first break
  after at least `max(rebuy_levels, 1)` levels. With rebuy levels 2 and breaks after levels 2
  and 4 it is the break after level 2 (rebuys are still open during it: a player may do
  both); with rebuy levels 3 it is the break after level 4. No such break: no add-on. Any
  entry still in may take it, whatever its stack.

`level` here is the level in force as `Tournament.level` stores it (1 for the first; during a
break the level just played), 0 before the start. Pure: no Django (test_purity.py).

Pattern (pokerkit's): `verify_*` raises `PurchaseRefused(code, message)`, `can_*` answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .levels import Break, Level, Structure


class PurchaseRefused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True, slots=True)
class PurchaseTerms:
    """The tournament's rebuy and add-on terms, in chips and levels (prices are money: the
    service's business, not the rules')."""

    max_rebuys: int = 0
    rebuy_levels: int = 0
    rebuy_chips: int = 0
    rebuy_max_stack: int = 0
    addon_chips: int = 0


@dataclass(frozen=True, slots=True)
class Holding:
    """An entry as the rules see it: `stack` its chips now plus those bought and not yet at
    the table, `rebuys` the rebuys it bought, `addon` whether it took the add-on."""

    stack: int
    rebuys: int = 0
    addon: bool = False


def addon_break_after(structure: Structure, rebuy_levels: int) -> int | None:
    """The level after which the add-on break comes (the first break after at least
    `max(rebuy_levels, 1)` levels), or None when no break comes then."""
    played = 0
    for step in structure:
        if isinstance(step, Level):
            played += 1
        elif isinstance(step, Break) and played >= max(rebuy_levels, 1):
            return played
    return None


def verify_rebuy(terms: PurchaseTerms, *, level: int, holding: Holding) -> None:
    if terms.max_rebuys <= 0:
        raise PurchaseRefused("no_rebuys", "This tournament has no rebuys.")
    if not 1 <= level <= terms.rebuy_levels:
        raise PurchaseRefused("rebuys_closed", "Rebuys are open from the start through level "
                              f"{terms.rebuy_levels} (and the break after it)."
                              if level == 0 else "The rebuy period is over.")
    if holding.rebuys >= terms.max_rebuys:
        raise PurchaseRefused("no_rebuys_left", f"You have used your {terms.max_rebuys} "
                              f"rebuy{'s' if terms.max_rebuys > 1 else ''}.")
    if holding.stack > terms.rebuy_max_stack:
        raise PurchaseRefused("stack_too_big", "A rebuy is for a busted player only."
                              if terms.rebuy_max_stack == 0 else
                              f"A rebuy needs {terms.rebuy_max_stack:,} chips or fewer "
                              f"(you have {holding.stack:,}, counting chips bought).")


def can_rebuy(terms: PurchaseTerms, *, level: int, holding: Holding) -> bool:
    try:
        verify_rebuy(terms, level=level, holding=holding)
    except PurchaseRefused:
        return False
    return True


def verify_addon(terms: PurchaseTerms, structure: Structure, *, level: int, on_break: bool,
                 holding: Holding) -> None:
    after = addon_break_after(structure, terms.rebuy_levels)
    if terms.addon_chips <= 0 or after is None:
        raise PurchaseRefused("no_addon", "This tournament has no add-on.")
    if holding.addon:
        raise PurchaseRefused("addon_taken", "You have taken the add-on already.")
    if not (on_break and level == after):
        raise PurchaseRefused("addon_closed", "The add-on is offered during the break after "
                              f"level {after} only.")


def can_addon(terms: PurchaseTerms, structure: Structure, *, level: int, on_break: bool,
              holding: Holding) -> bool:
    try:
        verify_addon(terms, structure, level=level, on_break=on_break, holding=holding)
    except PurchaseRefused:
        return False
    return True
