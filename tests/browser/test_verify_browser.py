"""static/js/verify.js recomputes decks in Chromium exactly like tables/engine/deck.py."""
from __future__ import annotations

import secrets

import pytest

from tables.engine.deck import commitment, shuffled_deck

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
