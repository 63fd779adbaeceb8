"""The blind structure: levels and breaks, the clock, late registration and the forced bets.

- A structure is a sequence of levels (small blind, big blind, ante, whether the ante is a
  big-blind ante, minutes) and breaks (minutes), starting with a level. The last level lasts
  until the end.
- ``clock_at(structure, elapsed)``: where the clock stands ``elapsed`` seconds after the start.
  During a break ``level`` is the level just played, so late registration "open while
  level < late_levels" stays open through the break that follows its last level, as live rooms
  close it at the end of that break.
- A new level applies from the next hand (TDA: "the new level applies to the next hand"; a deal
  begins with the shuffle): the level of a hand is the one in force when it starts, and no hand
  starts during a break.
- ``forced_bets(level, positions, stacks)``: what the engine's ``start_hand`` takes, under the
  dead button (``positions.py``). A big-blind ante is one ante the big blind posts for the whole
  table, of the structure's ``ante`` amount (as structure sheets print it: "BB ante 1,000"), dead
  money every player still in can win. When the big blind cannot cover both, the blind comes
  first and the ante gets the rest (TDA "Big Blind Ante": "if the BB player has insufficient
  chips to post both the blind and the ante, the blind has priority"). Ordinary antes are posted
  by every player dealt in, ante before blind (the engine's order), and are live for side pots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .positions import Positions


@dataclass(frozen=True, slots=True)
class Level:
    small_blind: int
    big_blind: int
    minutes: int
    ante: int = 0
    big_blind_ante: bool = False

    def __post_init__(self) -> None:
        if not 0 < self.small_blind < self.big_blind or self.ante < 0 or self.minutes <= 0:
            raise ValueError(f"bad level {self}")


@dataclass(frozen=True, slots=True)
class Break:
    minutes: int

    def __post_init__(self) -> None:
        if self.minutes <= 0:
            raise ValueError(f"bad break {self}")


Structure = Sequence[Level | Break]


@dataclass(frozen=True, slots=True)
class Clock:
    """``level``: index among the levels only (breaks not counted) of the level in force, or
    during a break of the level just played. ``seconds_left``: to the next change (None: the
    last level never ends)."""

    level: int
    on_break: bool
    seconds_left: int | None


def clock_at(structure: Structure, elapsed_seconds: int) -> Clock:
    if not structure or not isinstance(structure[0], Level) or not isinstance(structure[-1], Level):
        raise ValueError("a structure starts and ends with a level")
    if elapsed_seconds < 0:
        raise ValueError("the clock has not started")
    level = -1
    start = 0
    last = len(structure) - 1
    for k, step in enumerate(structure):
        if isinstance(step, Level):
            level += 1
        end = start + step.minutes * 60
        if elapsed_seconds < end or k == last:
            left = None if k == last else end - elapsed_seconds
            return Clock(level, isinstance(step, Break), left)
        start = end
    raise AssertionError("unreachable")


def levels_of(structure: Structure) -> list[Level]:
    return [s for s in structure if isinstance(s, Level)]


def hand_level(structure: Structure, elapsed_seconds: int) -> Level | None:
    """The level of a hand starting now; None during a break (no hand starts then)."""
    clock = clock_at(structure, elapsed_seconds)
    return None if clock.on_break else levels_of(structure)[clock.level]


def late_registration_open(structure: Structure, elapsed_seconds: int, late_levels: int) -> bool:
    """Open while the clock's level index is below ``late_levels`` (through the following
    break)."""
    return clock_at(structure, elapsed_seconds).level < late_levels


@dataclass(frozen=True, slots=True)
class ForcedBets:
    """Arguments for ``tables.engine.start_hand``: ``blinds`` is its ``forced_bets`` (seat ->
    amount), ``antes`` its ``antes`` and ``dead_antes`` its ``dead_antes``."""

    blinds: dict[int, int]
    antes: dict[int, int]
    dead_antes: bool


def forced_bets(level: Level, positions: Positions, stacks: Mapping[int, int]) -> ForcedBets:
    """The blinds and antes of one hand. ``stacks``: the seats dealt in and their chips; a dead
    small blind (its seat not dealt in) is simply not posted."""
    if positions.big_blind not in stacks:
        raise ValueError("the big blind must be dealt in")
    blinds = {positions.big_blind: level.big_blind}
    if positions.small_blind in stacks and positions.small_blind != positions.big_blind:
        blinds[positions.small_blind] = level.small_blind
    if not level.ante:
        return ForcedBets(blinds, {}, False)
    if level.big_blind_ante:
        stack = stacks[positions.big_blind]
        ante = min(level.ante, max(0, stack - level.big_blind))
        return ForcedBets(blinds, {positions.big_blind: ante} if ante else {}, True)
    return ForcedBets(blinds, {seat: level.ante for seat in stacks}, False)
