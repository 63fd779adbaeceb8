"""Prizes: the payout table by field size, the prizes of a pool, and ties that split them.

Percentages are integers in basis points (10000 = 100 %) and prizes integers in the money's
minor unit, so nothing is ever rounded twice and the prizes always add up to the pool:

- ``prizes(pool, percents)``: each place gets ``floor(pool * bp / 10000)``; the units those
  floors leave over go to first place (issue 28: "rounding remainders go to first").
- ``split(amounts)``: entries tied for several places share the sum of those places' prizes
  equally; the odd units go one each to the tied entries in the order given, from the top (the
  caller lists tied entries by entry id, ``ranking.awards``), so a tie of three for 100 pays 34,
  33, 33.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

WHOLE = 10000  # basis points in 100 %


@dataclass(frozen=True, slots=True)
class PayoutBand:
    """Fields of ``min_field``..``max_field`` entries (None: no upper bound) pay these places."""

    min_field: int
    max_field: int | None
    percents_bp: tuple[int, ...]

    def __post_init__(self) -> None:
        if sum(self.percents_bp) != WHOLE or any(p < 0 for p in self.percents_bp):
            raise ValueError(f"percentages must add up to {WHOLE} basis points")
        if list(self.percents_bp) != sorted(self.percents_bp, reverse=True):
            raise ValueError("a better place never pays less")
        if self.max_field is not None and self.max_field < self.min_field:
            raise ValueError("empty band")
        if len(self.percents_bp) > self.min_field:
            raise ValueError("more paid places than entries")


PayoutTable = tuple[PayoutBand, ...]

# A room default for templates: heads-up and three-handed winner takes all; six-max Sit & Go
# 65/35; nine-ten handed 50/30/20 (the usual single-table Sit & Go splits); larger fields pay
# about 15-20 % of the field.
DEFAULT_PAYOUTS: PayoutTable = (
    PayoutBand(2, 3, (10000,)),
    PayoutBand(4, 6, (6500, 3500)),
    PayoutBand(7, 10, (5000, 3000, 2000)),
    PayoutBand(11, 20, (4000, 2500, 1500, 1100, 900)),
    PayoutBand(21, 30, (3300, 2000, 1400, 1100, 900, 750, 550)),
    PayoutBand(31, None, (2800, 1800, 1300, 1000, 800, 700, 600, 500, 500)),
)


def validated(table: PayoutTable) -> PayoutTable:
    """``table`` if its bands, in order, cover every field size from the first band's minimum
    without gaps or overlaps (only the last band may be open-ended); else ValueError."""
    if not table:
        raise ValueError("no payout bands")
    for band, after in pairwise(table):
        if band.max_field is None or after.min_field != band.max_field + 1:
            raise ValueError(f"bands {band} and {after} overlap or leave a gap")
    return table


def percents_for(table: PayoutTable, field: int) -> tuple[int, ...]:
    """The percentages of the band that holds ``field`` entries."""
    for band in table:
        if band.min_field <= field and (band.max_field is None or field <= band.max_field):
            return band.percents_bp
    raise ValueError(f"no payout band for a field of {field}")


def prizes(pool: int, percents_bp: Sequence[int]) -> list[int]:
    """Each paid place's prize, first place first; they add up to ``pool`` exactly."""
    if pool < 0:
        raise ValueError("negative pool")
    if sum(percents_bp) != WHOLE:
        raise ValueError(f"percentages must add up to {WHOLE} basis points")
    out = [pool * bp // WHOLE for bp in percents_bp]
    out[0] += pool - sum(out)
    return out


def split(amounts: Sequence[int]) -> list[int]:
    """Equal shares of the places tied entries cover, odd units from the top."""
    if not amounts:
        return []
    total, k = sum(amounts), len(amounts)
    share, odd = divmod(total, k)
    return [share + (1 if i < odd else 0) for i in range(k)]
