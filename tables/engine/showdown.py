"""Hand evaluation (phevaluator), hand descriptions, and splitting a pot with odd chips."""

from __future__ import annotations

from collections.abc import Sequence

from phevaluator import evaluate_cards

from .cards import RANK_NAMES, RANK_PLURALS, RANKS

# phevaluator ranks: 1 (royal flush) .. 7462 (seven high); lower is better.
_CATEGORY_LIMITS = (
    (10, "straight_flush"), (166, "quads"), (322, "full_house"), (1599, "flush"),
    (1609, "straight"), (2467, "trips"), (3325, "two_pair"), (6185, "pair"), (7462, "high_card"),
)
_RANK_VALUE = {r: i for i, r in enumerate(RANKS)}
# phevaluator's card ids (rank * 4 + suit, suits "cdhs"): ints skip its string parsing.
_CARD_ID = {r + s: 4 * i + j for i, r in enumerate(RANKS) for j, s in enumerate("cdhs")}


def hand_rank(cards: Sequence[str]) -> int:
    """phevaluator rank of the best five of these cards (lower is better)."""
    ids = _CARD_ID
    return evaluate_cards(*[ids[c] for c in cards])


def category(rank: int) -> str:
    for limit, name in _CATEGORY_LIMITS:
        if rank <= limit:
            return name
    raise ValueError(rank)


def _straight_high(values: set[int]) -> int:
    """Highest straight's top card value (wheel = 3, the Five), or -1."""
    for top in range(12, 3, -1):
        if all(top - k in values for k in range(5)):
            return top
    if {12, 0, 1, 2, 3} <= values:
        return 3
    return -1


def describe(cards: Sequence[str], rank: int | None = None) -> str:
    """Human text such as "a full house, Aces full of Queens" for the best hand in ``cards``."""
    if rank is None:
        rank = hand_rank(cards)
    cat = category(rank)
    counts: dict[int, int] = {}
    suits: dict[str, list[int]] = {}
    for c in cards:
        v = _RANK_VALUE[c[0]]
        counts[v] = counts.get(v, 0) + 1
        suits.setdefault(c[1], []).append(v)

    def name(v: int) -> str:
        return RANK_NAMES[RANKS[v]]

    def plural(v: int) -> str:
        return RANK_PLURALS[RANKS[v]]

    by_count = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    if cat in ("straight_flush", "flush"):
        flush_values = next(vs for vs in suits.values() if len(vs) >= 5)
        if cat == "flush":
            return f"a flush, {name(max(flush_values))} high"
        top = _straight_high(set(flush_values))
        return "a royal flush" if top == 12 else f"a straight flush, {name(top)} high"
    if cat == "quads":
        return f"four of a kind, {plural(by_count[0][0])}"
    if cat == "full_house":
        trips = max(v for v, n in counts.items() if n >= 3)
        pair = max(v for v, n in counts.items() if n >= 2 and v != trips)
        return f"a full house, {plural(trips)} full of {plural(pair)}"
    if cat == "straight":
        return f"a straight, {name(_straight_high(set(counts)))} high"
    if cat == "trips":
        return f"three of a kind, {plural(by_count[0][0])}"
    if cat == "two_pair":
        pairs = sorted((v for v, n in counts.items() if n >= 2), reverse=True)
        return f"two pair, {plural(pairs[0])} and {plural(pairs[1])}"
    if cat == "pair":
        return f"a pair of {plural(by_count[0][0])}"
    return f"high card {name(max(counts))}"


def split_pot(amount: int, winners_clockwise: Sequence[int], unit: int = 1) -> list[int]:
    """Shares for winners listed clockwise from the button: even split, odd units one at a time
    to the first winners; a remainder smaller than one unit goes to the first winner."""
    k = len(winners_clockwise)
    units, dust = divmod(amount, unit)
    base, odd = divmod(units, k)
    shares = [base * unit + (unit if j < odd else 0) for j in range(k)]
    shares[0] += dust
    return shares
