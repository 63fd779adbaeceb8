"""static/js/verify.js checks deals in Chromium exactly like tables/engine/fairness.py (and
the published seeds of older hands like tables/engine/deck.py), and a tampered proof fails."""
from __future__ import annotations

import copy
import secrets

import pytest

from tables.engine import fairness
from tables.engine.deck import FRESH_DECK, commitment, shuffled_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECOMPUTE = """async (seeds) => {
  const m = await import('/static/js/verify.js');
  const out = [];
  for (const s of seeds) out.push({deck: await m.shuffledDeck(s), commitment: await m.commitmentOf(s)});
  return out;
}"""


def test_the_browser_deck_matches_the_engine_for_many_seeds(room_url, new_page):
    seeds = [secrets.token_hex(32) for _ in range(200)]
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    results = page.evaluate(RECOMPUTE, seeds)
    for seed, got in zip(seeds, results, strict=True):
        assert got["deck"] == shuffled_deck(seed)
        assert got["commitment"] == commitment(seed)


ORDERS = """async (cases) => {
  const m = await import('/static/js/verify.js');
  return Promise.all(cases.map(([root, entropy]) => m.dealOrder(root, entropy)));
}"""


def test_the_browser_deal_order_matches_the_engine(room_url, new_page):
    cases = [(secrets.token_hex(32), [secrets.token_hex(32) for _ in range(k % 4)])
             for k in range(60)]
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    got = page.evaluate(ORDERS, cases)
    assert got == [fairness.deal_order(root, entropy) for root, entropy in cases]


VERIFY = """async ([hands, mine]) => {
  const m = await import('/static/js/verify.js');
  return Promise.all(hands.map((h) => m.verifyHand(h, mine)));
}"""


def _hand() -> dict:
    """A heads-up hand's JSON as its player at seat 2 reads it: seat 1 showed, the board ran
    out, seat 2's own cards with their private openings."""
    key, mine, other = secrets.token_hex(32), secrets.token_hex(32), secrets.token_hex(32)
    deck = fairness.committed(key)
    dealt = fairness.dealt_deck(deck, [mine, other])
    board = [dealt[k] for k in fairness.board_deals(2, 5)]
    return {
        "commitment": deck.root, "result": {"board": board},
        "events": [{"type": "hand_start", "seats": [2, 1]},
                   {"type": "hole_cards", "seat": 2, "cards": [dealt[0], dealt[2]]},
                   {"type": "shown", "seat": 1, "cards": [dealt[1], dealt[3]]}],
        "proof": {"scheme": fairness.SCHEME, "root": deck.root,
                  "entropy": [{"seat": 1, "value": other}, {"seat": 2, "value": mine}],
                  "openings": fairness.openings(deck, [mine, other],
                                                [1, 3, *fairness.board_deals(2, 5)])},
        "own_openings": fairness.openings(deck, [mine, other], [0, 2]),
        "_mine": mine,
    }


def test_the_browser_verifies_a_private_deal_and_rejects_every_tampering(room_url, new_page):
    good = _hand()
    assert fairness.verify_hand(good, my_entropy=good["_mine"]) == []
    tampered = {}
    for name in ("card", "salt", "path", "own", "entropy", "root", "unopened"):
        h = copy.deepcopy(good)
        if name == "card":  # claims another card was shown at that position
            opened = h["proof"]["openings"][0]
            opened["card"] = next(c for c in FRESH_DECK if c not in str(good))
        elif name == "salt":
            h["proof"]["openings"][1]["salt"] = "00" * 16
        elif name == "path":
            h["proof"]["openings"][2]["path"][0] = "11" * 32
        elif name == "own":  # the private opening of the reader's own card is forged
            h["own_openings"][0]["salt"] = "22" * 16
        elif name == "entropy":  # the reader's contribution left out
            h["proof"]["entropy"] = h["proof"]["entropy"][:1]
        elif name == "root":
            h["proof"]["root"] = h["commitment"] = fairness.committed(secrets.token_hex(32)).root
        else:  # a shown card comes without its opening
            h["proof"]["openings"] = h["proof"]["openings"][:-1]
        tampered[name] = h
        assert fairness.verify_hand(h, my_entropy=good["_mine"]), name
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    results = page.evaluate(VERIFY, [[good, *tampered.values()], good["_mine"]])
    assert results[0]["ok"] and results[0]["proven"] == 9 and results[0]["entropyUsed"]
    for name, r in zip(tampered, results[1:], strict=True):
        assert not r["ok"] and r["problems"], name


CLAMP = """async () => {
  const { clampAmount, presets } = await import('/static/js/table/sizing.js');
  const nl = {min_to: 4, max_to: 200, call_amount: 2, bet: false, raise: true};
  const real = {min_to: 400, max_to: 1234};
  const facing = {legal: nl, structure: "NL", street: "flop", pot: 7, currentBet: 4,
                  bigBlind: 2, allInTo: 200};
  return {
    inside: clampAmount(5, nl), above: clampAmount(1000, nl), below: clampAmount(2, nl),
    junk: clampAmount(NaN, nl), wholeDown: clampAmount(1230, real, 100),
    wholeMin: clampAmount(450, real, 100), allIn: clampAmount(1234, real, 100),
    presets: Object.fromEntries(presets(facing).map((p) => [p.id, p.amount])),
  };
}"""


def test_bet_amounts_are_clamped_to_the_legal_range(room_url, new_page):
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    got = page.evaluate(CLAMP)
    assert (got["inside"], got["above"], got["below"], got["junk"]) == (5, 200, 4, 4)
    # Real money: whole dollars between the ends, the exact ends (an odd all-in) allowed.
    assert (got["wholeDown"], got["wholeMin"], got["allIn"]) == (1200, 400, 1234)
    # Facing a bet of 4 with 7 in the pot and 2 to call: pot-sized raise to 4 + 7 + 2 = 13
    # (tests/browser/test_table_ui_sizing.py has the other presets' worked examples).
    assert got["presets"] == {"min": 4, "third": 7, "half": 8, "three-quarters": 10, "pot": 13,
                              "allin": 200}
