"""Cards are two-character strings: rank ``23456789TJQKA`` + suit ``cdhs`` (``"As"``)."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import IllegalAction

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ALL_CARDS: frozenset[str] = frozenset(r + s for r in RANKS for s in SUITS)
RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
    "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}
RANK_PLURALS = {r: ("Sixes" if r == "6" else name + "s") for r, name in RANK_NAMES.items()}


def is_card(text: object) -> bool:
    """True for a valid two-character card string."""
    return isinstance(text, str) and text in ALL_CARDS


def check_cards(cards: Iterable[str | None], count: int, *, allow_unknown: bool = False) -> list:
    """Validate a dealt group (``None`` = an unknown card when ``allow_unknown``)."""
    cards = list(cards)
    if len(cards) != count:
        raise IllegalAction("bad_cards", f"expected {count} cards, got {len(cards)}")
    for card in cards:
        if card is None and allow_unknown:
            continue
        if not is_card(card):
            raise IllegalAction("bad_cards", f"not a card: {card!r}")
    known = [c for c in cards if c is not None]
    if len(set(known)) != len(known):
        raise IllegalAction("bad_cards", "duplicate card")
    return cards
