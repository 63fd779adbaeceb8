"""The private fair deal: each position committed before the deal, the order fixed by players'
entropy afterwards, and an opening proves one card without telling anything about another."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tables.engine import fairness
from tables.engine.deck import FRESH_DECK

KEY = "11" * 32
ALICE, BOB = "a1" * 32, "b0" * 32


def test_a_key_commits_a_permutation_of_the_deck_under_one_root() -> None:
    deck = fairness.committed(KEY)
    assert sorted(deck.cards) == sorted(FRESH_DECK)
    assert fairness.committed(KEY).root == deck.root
    assert fairness.committed("12" * 32).root != deck.root
    assert [len(level) for level in deck.levels] == [64, 32, 16, 8, 4, 2, 1]


def test_the_deal_order_depends_on_every_contribution_but_not_on_their_order() -> None:
    root = fairness.committed(KEY).root
    both = fairness.deal_order(root, [ALICE, BOB])
    assert sorted(both) == list(range(52))
    assert fairness.deal_order(root, [BOB, ALICE]) == both
    assert fairness.deal_order(root, [ALICE]) != both
    assert fairness.deal_order(root, [ALICE, "b1" + BOB[2:]]) != both


def test_every_opening_leads_to_the_root_at_the_position_the_deal_order_gives() -> None:
    deck = fairness.committed(KEY)
    order = fairness.deal_order(deck.root, [ALICE])
    dealt = fairness.dealt_deck(deck, [ALICE])
    opened = fairness.openings(deck, [ALICE], range(52))
    for k, opening in enumerate(opened):
        assert opening["card"] == dealt[k] and opening["position"] == order[k]
        assert fairness.opening_problems(deck.root, order, opening) == []


def _proof_and_cards() -> tuple[dict, dict[int, str]]:
    deck = fairness.committed(KEY)
    dealt = fairness.dealt_deck(deck, [ALICE, BOB])
    deals = [0, 2, *fairness.board_deals(2, 5)]
    proof = {"root": deck.root, "entropy": [{"seat": 1, "value": ALICE}, {"seat": 2, "value": BOB}],
             "openings": fairness.openings(deck, [ALICE, BOB], deals)}
    return proof, {k: dealt[k] for k in deals}


def test_a_proof_proves_the_cards_seen() -> None:
    proof, cards = _proof_and_cards()
    assert fairness.proof_problems(proof, cards) == []


@pytest.mark.parametrize("tamper", ["card", "salt", "path", "position", "entropy", "root",
                                    "missing"])
def test_a_tampered_card_salt_path_or_entropy_fails(tamper: str) -> None:
    proof, cards = _proof_and_cards()
    first = proof["openings"][0]
    if tamper == "card":  # the server claims another card was at that position
        other = next(c for c in FRESH_DECK if c not in cards.values())
        first["card"] = other
        cards = {**cards, first["deal"]: other}
    elif tamper == "salt":
        first["salt"] = ("0" if first["salt"][0] != "0" else "1") + first["salt"][1:]
    elif tamper == "path":
        first["path"][3] = "00" * 32
    elif tamper == "position":
        first["position"] = (first["position"] + 1) % 52
    elif tamper == "entropy":
        proof["entropy"] = proof["entropy"][:1]
    elif tamper == "root":
        proof["root"] = fairness.committed("22" * 32).root
    else:
        proof["openings"] = proof["openings"][1:]
    assert fairness.proof_problems(proof, cards)


def test_an_opening_tells_nothing_of_the_other_positions() -> None:
    """The salts of different positions are independent: opened salts do not predict others,
    and every card remains possible at an unopened position (over many keys)."""
    seen = Counter()
    for k in range(300):
        deck = fairness.committed(f"{k:064x}")
        seen[deck.cards[0]] += 1
        assert len(set(deck.salts)) == 52
    assert len(seen) > 45  # position 0 takes nearly every card over 300 keys


def _hand_json(scheme_ok: bool = True) -> dict:
    deck = fairness.committed(KEY)
    entropy = [ALICE]
    dealt = fairness.dealt_deck(deck, entropy)
    board = [dealt[k] for k in fairness.board_deals(2, 5)]
    shown = [dealt[1], dealt[3]]  # the second player in dealing order (seat 1) showed
    return {
        "commitment": deck.root,
        "events": [{"type": "hand_start", "seats": [2, 1]},
                   {"type": "shown", "seat": 1, "cards": shown},
                   {"type": "board", "board": board}],
        "result": {"board": board},
        "proof": {"scheme": fairness.SCHEME, "root": deck.root,
                  "entropy": [{"seat": 2, "value": ALICE}],
                  "openings": fairness.openings(deck, entropy,
                                                [1, 3, *fairness.board_deals(2, 5)])},
    }


def test_the_offline_verifier_checks_a_downloaded_hand(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_hand_json()))
    bad_hand = _hand_json()
    bad_hand["proof"]["openings"][0]["salt"] = "00" * 16
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_hand))
    run = subprocess.run([sys.executable, "-m", "tables.engine.fairness", "verify", str(good)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok (merkle-v2, 7 cards proven)" in run.stdout
    run = subprocess.run([sys.executable, "-m", "tables.engine.fairness", "verify", str(bad)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "FAILED" in run.stdout


def test_a_reader_checks_that_his_own_entropy_was_used() -> None:
    hand = _hand_json()
    assert fairness.verify_hand(hand, my_entropy=ALICE) == []
    assert fairness.verify_hand(hand, my_entropy=BOB) == ["your entropy was not used in this deal"]


def test_a_shown_card_without_its_opening_is_not_proven() -> None:
    hand = _hand_json()
    hand["proof"]["openings"] = hand["proof"]["openings"][1:]
    assert any("not opened" in p for p in fairness.verify_hand(hand))
