"""Table rules (betting structure, blinds, antes, cap, timeout policy, rake) and seat helpers.

Everything here is configuration an admin sets per table; it is immutable for a hand and
serialises to JSON with the hand state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class Structure(StrEnum):
    FIXED_LIMIT = "FIXED_LIMIT"
    POT_LIMIT = "POT_LIMIT"
    NO_LIMIT = "NO_LIMIT"


class SmallBlindRule(StrEnum):
    """How the small blind derives from the lower stake (``$5/$10 -> $2`` is ROUND_DOWN)."""

    EXACT_HALF = "EXACT_HALF"
    ROUND_DOWN = "ROUND_DOWN"
    EXPLICIT = "EXPLICIT"


class TimeoutPolicy(StrEnum):
    """SEEDS: timeout all-in if money is in the pot, else fold. MODERN: check if free, else fold."""

    SEEDS = "SEEDS"
    MODERN = "MODERN"


@dataclass(frozen=True, slots=True)
class RakeRule:
    """Rake in basis points of the pot, floored to the bet unit, capped, no flop no drop.

    ``cap_by_players`` maps a number of players dealt in to a cap; counts between keys use the
    nearest smaller key, counts above all keys use ``cap``.
    """

    percent_bp: int = 0
    cap: int | None = None
    cap_by_players: dict[int, int] | None = None
    no_flop_no_drop: bool = True

    def to_json(self) -> dict:
        return {
            "percent_bp": self.percent_bp,
            "cap": self.cap,
            "cap_by_players": (
                None if self.cap_by_players is None
                else [[k, v] for k, v in sorted(self.cap_by_players.items())]
            ),
            "no_flop_no_drop": self.no_flop_no_drop,
        }

    @classmethod
    def from_json(cls, d: dict) -> RakeRule:
        cbp = d.get("cap_by_players")
        return cls(
            percent_bp=d["percent_bp"],
            cap=d["cap"],
            cap_by_players=None if cbp is None else {int(k): v for k, v in cbp},
            no_flop_no_drop=d["no_flop_no_drop"],
        )


@dataclass(frozen=True, slots=True)
class TableRules:
    """The rules one table plays by. ``lower_stake`` is the big blind; money is int units."""

    structure: Structure = Structure.NO_LIMIT
    lower_stake: int = 2
    upper_stake: int | None = None  # limit big bet; default 2 x lower_stake
    small_blind_rule: SmallBlindRule = SmallBlindRule.EXACT_HALF
    small_blind: int | None = None  # used with SmallBlindRule.EXPLICIT
    unit_whole: int = 1  # ROUND_DOWN rounds the small blind down to a multiple of this
    ante: int = 0
    bb_ante: bool = False
    max_raises: int | None = 3  # fixed limit: a bet and this many raises per round
    timeout_policy: TimeoutPolicy = TimeoutPolicy.SEEDS
    rake: RakeRule = field(default_factory=RakeRule)
    bet_unit: int = 1
    # A live room's showdown: nobody is asked; the first in order shows, then a hand that can
    # win something is shown and one that cannot is mucked. Off for replays (PHH), which say.
    auto_showdown: bool = False

    @property
    def big_bet(self) -> int:
        return self.upper_stake if self.upper_stake is not None else 2 * self.lower_stake

    @property
    def small_blind_amount(self) -> int:
        """Half the lower stake, rounded as the table says (never below one bet unit)."""
        if self.small_blind_rule is SmallBlindRule.EXPLICIT and self.small_blind is not None:
            return self.small_blind
        half = self.lower_stake // 2
        if self.small_blind_rule is SmallBlindRule.ROUND_DOWN and self.unit_whole > 1:
            rounded = half // self.unit_whole * self.unit_whole
            half = rounded or half  # below one whole unit: keep the exact half
        return half

    def to_json(self) -> dict:
        return {
            "structure": self.structure.value,
            "lower_stake": self.lower_stake,
            "upper_stake": self.upper_stake,
            "small_blind_rule": self.small_blind_rule.value,
            "small_blind": self.small_blind,
            "unit_whole": self.unit_whole,
            "ante": self.ante,
            "bb_ante": self.bb_ante,
            "max_raises": self.max_raises,
            "timeout_policy": self.timeout_policy.value,
            "rake": self.rake.to_json(),
            "bet_unit": self.bet_unit,
            "auto_showdown": self.auto_showdown,
        }

    @classmethod
    def from_json(cls, d: dict) -> TableRules:
        """Rebuild from ``to_json``; memoised because every saved hand state carries its rules."""
        rake = d["rake"]
        cbp = rake.get("cap_by_players")
        key = (*(v for k, v in d.items() if k != "rake"),
               *(v for k, v in rake.items() if k != "cap_by_players"),
               None if cbp is None else tuple(map(tuple, cbp)))
        try:
            rules = _RULES_CACHE.get(key)
        except TypeError:  # an unhashable value: not a to_json() output, build it plainly
            return cls._from_json(d)
        if rules is None:
            if len(_RULES_CACHE) > 256:
                _RULES_CACHE.clear()
            rules = _RULES_CACHE[key] = cls._from_json(d)
        return rules

    @classmethod
    def _from_json(cls, d: dict) -> TableRules:
        return cls(
            structure=Structure(d["structure"]),
            lower_stake=d["lower_stake"],
            upper_stake=d["upper_stake"],
            small_blind_rule=SmallBlindRule(d["small_blind_rule"]),
            small_blind=d["small_blind"],
            unit_whole=d["unit_whole"],
            ante=d["ante"],
            bb_ante=d["bb_ante"],
            max_raises=d["max_raises"],
            timeout_policy=TimeoutPolicy(d["timeout_policy"]),
            rake=RakeRule.from_json(d["rake"]),
            bet_unit=d["bet_unit"],
            auto_showdown=d.get("auto_showdown", False),  # hands saved before it existed
        )


_RULES_CACHE: dict[tuple, TableRules] = {}


def clockwise_from_button(button: int, seats: Sequence[int]) -> list[int]:
    """Seats in dealing order: first seat left of (after) the button, the button (if dealt) last."""
    ordered = sorted(seats)
    after = [s for s in ordered if s > button]
    return after + [s for s in ordered if s <= button]


def next_button(prev_button: int | None, active_seats: Sequence[int]) -> int:
    """The button for the next hand.

    First hand (``prev_button`` None): the first seated player, i.e. ``active_seats[0]`` — pass the
    seats ordered by when their players sat down. Afterwards: the next active seat clockwise.
    """
    if not active_seats:
        raise ValueError("no active seats")
    if prev_button is None:
        return active_seats[0]
    return clockwise_from_button(prev_button, active_seats)[0]


def blind_seats(button: int, seats: Sequence[int]) -> tuple[int, int]:
    """(small blind seat, big blind seat); heads-up the button posts the small blind."""
    order = clockwise_from_button(button, seats)
    if len(order) < 2:
        raise ValueError("need two players")
    if len(order) == 2:
        return (order[1], order[0]) if order[1] == button else (order[0], order[1])
    return order[0], order[1]
