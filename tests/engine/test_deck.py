"""The deck: deterministic from its seed, complete, committed, and verifiable after the hand."""

from __future__ import annotations

import hashlib

from tables.engine.deck import FRESH_DECK, commitment, new_seed, shuffled_deck, verify

SEED = bytes(range(32))
KNOWN_FIRST_SIX = ["9c", "Ac", "Td", "Jh", "7c", "Kd"]


def test_fresh_deck_is_the_52_cards_in_rank_then_suit_order() -> None:
    assert len(FRESH_DECK) == 52
    assert FRESH_DECK[:5] == ("2c", "2d", "2h", "2s", "3c")
    assert FRESH_DECK[-1] == "As"


def test_new_seed_is_32_random_bytes() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100
    assert all(isinstance(s, bytes) and len(s) == 32 for s in seeds)


def test_same_seed_same_deck_and_the_deck_is_a_permutation() -> None:
    deck = shuffled_deck(SEED)
    assert deck == shuffled_deck(SEED)
    assert sorted(deck) == sorted(FRESH_DECK)
    assert deck != list(FRESH_DECK)


def test_seed_may_be_given_as_hex_text() -> None:
    assert shuffled_deck(SEED.hex()) == shuffled_deck(SEED)


def test_different_seeds_give_different_decks() -> None:
    decks = {tuple(shuffled_deck(new_seed())) for _ in range(200)}
    assert len(decks) == 200


def test_known_answer_pins_the_algorithm() -> None:
    # Changing the shuffle would break verification of every published hand: pin it.
    assert shuffled_deck(SEED)[:6] == KNOWN_FIRST_SIX


def test_commitment_is_sha256_hex_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert commitment(SEED.hex()) == commitment(SEED)


def test_verify_accepts_the_dealt_prefix_with_unrevealed_cards() -> None:
    deck = shuffled_deck(SEED)
    dealt = deck[:9]
    dealt[2] = None  # a mucked hole card nobody saw
    assert verify(commitment(SEED), SEED, dealt)
    assert verify(commitment(SEED), SEED.hex(), deck)
    assert verify(commitment(SEED).upper(), SEED, [])


def test_verify_rejects_wrong_cards_order_or_length() -> None:
    deck = shuffled_deck(SEED)
    swapped = [deck[1], deck[0], *deck[2:9]]
    assert not verify(commitment(SEED), SEED, swapped)
    assert not verify(commitment(SEED), SEED, deck[1:10])
    assert not verify(commitment(SEED), SEED, [*deck, "2c"])


def test_verify_rejects_a_tampered_seed_or_commitment() -> None:
    deck = shuffled_deck(SEED)
    tampered = bytes([SEED[0] ^ 1]) + SEED[1:]
    assert not verify(commitment(SEED), tampered, deck[:9])
    assert not verify(commitment(tampered), SEED, deck[:9])
    assert not verify(commitment(SEED), "not hex", deck[:9])
