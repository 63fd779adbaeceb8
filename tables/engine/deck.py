"""A 52-card deck shuffled by a pure function of a secret seed.

The shuffle is a Fisher-Yates shuffle whose random indices come from a SHA-256 counter-mode stream
(``sha256(seed || counter_be64)``, counter 0, 1, 2, ...), one byte per draw, with rejection
sampling so every index is exactly uniform (no modulo bias). The seed itself comes from
``secrets`` (the OS CSPRNG).

Hands dealt since the private fair deal (``fairness.py``) keep their seed secret for ever: the
seed orders the committed deck, whose positions are opened one card at a time. Hands dealt
before it ("seed-v1") published ``commitment(seed)`` at the deal and the seed afterwards, which
``verify`` checks; they keep those published seeds.

Dealing order (the order the engine takes cards off the deck): ``deck[0]`` is dealt first. Hole
cards go one at a time, round-robin, starting with the first seat dealt in left of the button
(heads-up: the big blind) and ending with the button, two rounds; then burn, three flop cards,
burn, turn, burn, river. ``verify`` checks a prefix of that sequence; ``None`` in ``dealt_cards``
stands for a card that was never revealed (a burn or mucked hole card).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import TypeVar

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FRESH_DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
SEED_BYTES = 32
T = TypeVar("T")

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


def shuffled(key: bytes, items: Sequence[T]) -> list[T]:
    """``items`` in an order that is a pure function of ``key``: Fisher-Yates from the last
    index down, each index drawn from the SHA-256 counter-mode stream of ``key`` (see above).
    Shared by the seed deck below and the fair deal's deal order (fairness.py)."""
    sha256 = hashlib.sha256
    stream = sha256(key + _COUNTERS[0]).digest() + sha256(key + _COUNTERS[1]).digest()
    next_block = 2
    pos = 0
    out = list(items)
    limits = _LIMITS
    for i in range(len(out) - 1, 0, -1):
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
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(seed: bytes | str) -> list[str]:
    """The 52 cards in dealing order, deterministically derived from ``seed``."""
    return shuffled(_seed_bytes(seed), FRESH_DECK)


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
