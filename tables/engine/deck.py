"""One fresh, verifiable 52-card deck per hand.

Why this shape: the room commits to a hand's deck before dealing (``commitment(seed)`` is shown at
hand start) and reveals the seed afterwards, so anyone can recompute the deck with
``shuffled_deck(seed)`` and check it with ``verify``. The shuffle is therefore a pure function of
the seed: a Fisher-Yates shuffle whose random indices come from a SHA-256 counter-mode stream
(``sha256(seed || counter_be64)``, counter 0, 1, 2, ...), one byte per draw, with rejection
sampling so every index is exactly uniform (no modulo bias). The seed itself comes from
``secrets`` (the OS CSPRNG).

Dealing order (the order ``verify`` expects, and the order the engine takes cards off the deck):
``deck[0]`` is dealt first. Hole cards go one at a time, round-robin, starting with the first seat
dealt in left of the button (heads-up: the big blind) and ending with the button, two rounds; then
burn, three flop cards, burn, turn, burn, river. ``verify`` checks a prefix of that sequence;
``None`` in ``dealt_cards`` stands for a card that was never revealed (a burn or mucked hole card).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FRESH_DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
SEED_BYTES = 32

# For a draw in [0, n): accept a byte b only when b < _LIMITS[n] (the largest multiple of n that
# fits in 256), then take b % n. Precomputed because the shuffle runs once per hand on a hot path.
_LIMITS: tuple[int, ...] = (0, *(256 - 256 % n for n in range(1, 53)))
_COUNTERS: tuple[bytes, ...] = tuple(i.to_bytes(8, "big") for i in range(64))


def new_seed() -> bytes:
    """Return 32 bytes from the OS cryptographic random source."""
    return secrets.token_bytes(SEED_BYTES)


def _seed_bytes(seed: bytes | str) -> bytes:
    """Accept the seed as raw bytes or as its hex text (how it is stored and published)."""
    if isinstance(seed, str):
        return bytes.fromhex(seed)
    return bytes(seed)


def commitment(seed: bytes | str) -> str:
    """The SHA-256 hex digest of the seed bytes: published before the deal, binds the deck."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def shuffled_deck(seed: bytes | str) -> list[str]:
    """The 52 cards in dealing order, deterministically derived from ``seed``."""
    key = _seed_bytes(seed)
    sha256 = hashlib.sha256
    stream = sha256(key + _COUNTERS[0]).digest() + sha256(key + _COUNTERS[1]).digest()
    next_block = 2
    pos = 0
    deck = list(FRESH_DECK)
    limits = _LIMITS
    for i in range(51, 0, -1):
        n = i + 1
        limit = limits[n]
        while True:
            if pos == len(stream):
                counter = (
                    _COUNTERS[next_block] if next_block < 64 else next_block.to_bytes(8, "big")
                )
                stream = sha256(key + counter).digest()
                next_block += 1
                pos = 0
            byte = stream[pos]
            pos += 1
            if byte < limit:
                break
        j = byte % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def verify(commitment_hex: str, seed: bytes | str, dealt_cards: Sequence[str | None]) -> bool:
    """True when the seed matches the commitment and ``dealt_cards`` is a prefix of its deck.

    ``dealt_cards`` lists cards in dealing order (see the module docstring); ``None`` marks a card
    that was not revealed and matches anything.
    """
    try:
        key = _seed_bytes(seed)
    except ValueError:
        return False
    if not hmac.compare_digest(commitment(key).lower(), commitment_hex.strip().lower()):
        return False
    deck = shuffled_deck(key)
    if len(dealt_cards) > len(deck):
        return False
    return all(card is None or card == deck[i] for i, card in enumerate(dealt_cards))
