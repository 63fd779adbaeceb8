"""Chi-square checks that the deck shuffle is uniform.

How it measures: deals ``--decks`` decks (default 10^6), each from its own fresh ``new_seed()``,
through ``tables.engine.deck.shuffled_deck`` and counts

* card-by-position: how often each of the 52 cards lands at each of the 52 deck positions. Every
  cell expects decks/52. Rows and columns are both fixed (each deck puts every card exactly once
  and fills every position exactly once), so the statistic has (52-1)*(52-1) = 2601 degrees of
  freedom;
* first card: how often each card is dealt first (52 cells, 51 degrees of freedom).

p-values come from ``scipy.stats.chi2.sf`` when scipy is installed, otherwise from the
Wilson-Hilferty approximation: (X/k)^(1/3) is close to normal with mean 1 - 2/(9k) and variance
2/(9k), accurate to about three decimals for k >= 50 (both tests here). A healthy shuffle gives
p-values spread uniformly over (0, 1); a p-value below ~1e-6 is a red flag.

Run: ``.venv/bin/python bench/rng.py`` (about a minute) or ``--decks 20000`` for a quick look.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.engine.deck import FRESH_DECK, new_seed, shuffled_deck


def chi2_sf(statistic: float, dof: int) -> tuple[float, str]:
    """Upper-tail probability of the chi-square distribution, and which method computed it."""
    try:
        from scipy.stats import chi2  # type: ignore[import-not-found]
    except ImportError:
        z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
        return 0.5 * math.erfc(z / math.sqrt(2)), "wilson-hilferty"
    return float(chi2.sf(statistic, dof)), "scipy"


def chi_square(observed: list[int], expected: float) -> float:
    return sum((o - expected) ** 2 for o in observed) / expected


def run(decks: int) -> dict[str, float | int | str]:
    """Deal ``decks`` decks and return the two chi-square statistics with dof and p-values."""
    by_position: Counter[tuple[int, str]] = Counter()
    first: Counter[str] = Counter()
    positions = range(52)
    started = time.perf_counter()
    for _ in range(decks):
        deck = shuffled_deck(new_seed())
        by_position.update(zip(positions, deck, strict=True))
        first[deck[0]] += 1
    elapsed = time.perf_counter() - started

    cells = [by_position[(p, card)] for p in positions for card in FRESH_DECK]
    position_stat = chi_square(cells, decks / 52)
    position_dof = 51 * 51
    position_p, method = chi2_sf(position_stat, position_dof)
    first_stat = chi_square([first[card] for card in FRESH_DECK], decks / 52)
    first_dof = 51
    first_p, _ = chi2_sf(first_stat, first_dof)
    return {
        "decks": decks,
        "seconds": elapsed,
        "position_chi2": position_stat,
        "position_dof": position_dof,
        "position_p": position_p,
        "first_chi2": first_stat,
        "first_dof": first_dof,
        "first_p": first_p,
        "method": method,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    r = run(args.decks)
    print(f"decks={r['decks']} dealt in {r['seconds']:.1f}s "
          f"({r['decks'] / r['seconds']:,.0f} decks/s incl. counting)")
    print(f"card-by-position: chi2={r['position_chi2']:.1f} dof={r['position_dof']} "
          f"p={r['position_p']:.4g}")
    print(f"first card:       chi2={r['first_chi2']:.1f} dof={r['first_dof']} "
          f"p={r['first_p']:.4g}")
    print(f"p-values via {r['method']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
