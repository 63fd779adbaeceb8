"""Bet sizing: presets and the raise button's words, in the browser and as plain functions."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.players import TIMEOUT, seat
from tests.browser.test_table_browser import seated_pair, sit_out_both

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs `static/js/table/sizing.js` in the page: `cases` maps a name to sizing facts; the answer
# maps it to the presets ("label=amount") and the note for the maximum.
SIZING = """async (cases) => {
  const m = await import("/static/js/table/sizing.js");
  const out = {};
  for (const [name, s] of Object.entries(cases)) {
    out[name] = { presets: m.presets(s).map((p) => `${p.label}=${p.amount}`),
                  max: m.amountNote(s, s.legal.max_to),
                  range: m.rangeText ? m.rangeText(s, String) : null };
  }
  return out;
}"""


def facts(*, min_to, max_to, call=0, structure="NL", street="preflop", pot, bet, all_in,
          big_blind=2):
    return {"legal": {"min_to": min_to, "max_to": max_to, "call_amount": call},
            "structure": structure, "street": street, "pot": pot, "currentBet": bet,
            "bigBlind": big_blind, "allInTo": all_in}


def test_presets_and_the_maximum_s_name_follow_the_structure_and_the_street(room_url, new_page):
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    got = page.evaluate(SIZING, {
        # Pot-limit 1/2, unopened, 100 behind: the pot (6) caps the raise; no "All-in".
        "pl_preflop": facts(structure="PL", min_to=4, max_to=6, call=1, pot=3, bet=2,
                            all_in=100),
        # Pot-limit with a short stack: the maximum is all-in, and the pot preset stops there.
        "pl_short": facts(structure="PL", street="flop", min_to=2, max_to=10, pot=12, bet=0,
                          all_in=10),
        # No-limit facing a raise to 6 (pot 9, call 4): 2.5x and 3x of the raise; pot 6 + 9 + 4.
        "nl_3bet": facts(min_to=10, max_to=150, call=4, pot=9, bet=6, all_in=150),
        # No-limit flop bet into 12: thirds, halves, three quarters, pot, all-in.
        "nl_flop": facts(street="flop", min_to=2, max_to=94, pot=12, bet=0, all_in=94),
        # Presets never leave the legal range: a raise of 3x would be 18, he has 16.
        "nl_clamped": facts(min_to=10, max_to=16, call=4, pot=9, bet=6, all_in=16),
        # Fixed limit: one size, no presets.
        "fl": facts(structure="FL", min_to=4, max_to=4, call=2, pot=3, bet=2, all_in=100),
        # No-limit facing a raise to 52 with 100: the only raise is all-in, still no "limit".
        "nl_allin_only": facts(min_to=100, max_to=100, call=50, pot=54, bet=52, all_in=100),
        # The player's own sizes (his profile): 2x and 4x of the big blind unopened ...
        "own_preflop": {**facts(min_to=4, max_to=200, call=1, pot=3, bet=2, all_in=200),
                        "custom": {"preflop": [2, 4], "postflop": [60]}},
        # ... and 60 % of the pot postflop: 60 % of 20 is 12.
        "own_flop": {**facts(street="flop", min_to=2, max_to=200, pot=20, bet=0, all_in=200),
                     "custom": {"preflop": [2, 4], "postflop": [60]}},
    })
    ranges = {name: answer.pop("range") for name, answer in got.items()}
    assert got["pl_preflop"] == {"presets": ["Min=4", "2.5x=5", "3x=6", "Pot=6"],
                                 "max": " (pot)"}
    assert got["pl_short"] == {"presets": ["Min=2", "⅓ Pot=4", "½ Pot=6", "¾ Pot=9", "Pot=10",
                                           "All-in=10"], "max": " (all-in)"}
    assert got["nl_3bet"] == {"presets": ["Min=10", "2.5x=15", "3x=18", "Pot=19",
                                          "All-in=150"], "max": " (all-in)"}
    assert got["nl_flop"] == {"presets": ["Min=2", "⅓ Pot=4", "½ Pot=6", "¾ Pot=9", "Pot=12",
                                          "All-in=94"], "max": " (all-in)"}
    assert got["nl_clamped"]["presets"] == ["Min=10", "2.5x=15", "3x=16", "Pot=16", "All-in=16"]
    assert got["fl"] == {"presets": [], "max": ""}
    assert got["nl_allin_only"] == {"presets": ["Min=100", "2.5x=100", "3x=100", "Pot=100",
                                                "All-in=100"], "max": " (all-in)"}
    assert got["own_preflop"]["presets"] == ["Min=4", "2x=4", "4x=8", "Pot=6", "All-in=200"]
    assert got["own_flop"]["presets"] == ["Min=2", "60% Pot=12", "Pot=20", "All-in=200"]
    # The line under the amount box: the fixed-limit size, one all-in amount, or a range.
    assert (ranges["fl"], ranges["nl_allin_only"], ranges["nl_3bet"]) == (
        "Fixed limit: 4", "Only 100 (all-in)", "10 \u2013 150")


def test_a_pot_limit_table_names_the_pot_and_shows_big_blinds(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Birch PL", structure="PL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    sit_out_both(alice, bob)  # after this hand
    presets = alice.locator("#presets button")

    # Preflop, blinds 1/2, alice (button, small blind) to act: the pot limit is 6.
    expect(presets).to_have_text(["Min", "2.5x", "3x", "Pot"])
    alice.get_by_role("button", name="Pot: 6").click()
    expect(alice.locator("#act-raise")).to_have_text("Raise to 6 (pot) R")
    # Asking for more than the pot gives the pot, still named so.
    alice.locator("#bet-amount").fill("99")
    alice.locator("#bet-amount").press("Tab")
    expect(alice.locator("#act-raise")).to_contain_text("Raise to 6 (pot)")
    expect(alice.locator("#act-raise")).not_to_contain_text("all-in")
    alice.locator("#act-raise").click()

    # Bob faces the raise to 6: 2.5x and 3x of it; the pot is 6 + (8 + 4) = 18.
    bob_presets = bob.locator("#presets button")
    expect(bob_presets).to_have_text(["Min", "2.5x", "3x", "Pot"], timeout=TIMEOUT)
    expect(bob.get_by_role("button", name="2.5x: 15")).to_be_visible()
    bob.get_by_role("button", name="Pot: 18").click()
    expect(bob.locator("#act-raise")).to_contain_text("Raise to 18 (pot)")
    bob.locator("#act-call").click()

    # The flop: bob bets first into 12.
    expect(bob_presets).to_have_text(["Min", "⅓ Pot", "½ Pot", "¾ Pot", "Pot"], timeout=TIMEOUT)
    expect(bob.get_by_role("button", name="¾ Pot: 9")).to_be_visible()
    bob.get_by_role("button", name="Pot: 12").click()
    expect(bob.locator("#act-raise")).to_contain_text("Bet 12 (pot)")

    # In big blinds: stacks, the pot and the bet button (a setting kept in this browser).
    bob.get_by_role("button", name="In BB").click()
    expect(seat(bob, 2).locator(".stack")).to_have_text("47 BB")
    expect(bob.locator(".pot-total")).to_have_text("Pot 6 BB")
    expect(bob.locator("#act-raise")).to_contain_text("Bet 6 BB (pot)")
    # …and the amount box and its range too: 12 chips are 6 BB; typing 3 (BB) bets 6 chips.
    expect(bob.locator("#bet-amount")).to_have_value("6")
    expect(bob.locator("#sizing-range")).to_have_text("1 BB \u2013 6 BB")
    bob.locator("#bet-amount").fill("3")
    bob.locator("#bet-amount").press("Tab")
    expect(bob.locator("#act-raise")).to_contain_text("Bet 3 BB")
    expect(bob.locator("#bet-slider")).to_have_value("6")
    bob.reload()
    expect(seat(bob, 1).locator(".stack")).to_have_text("47 BB", timeout=TIMEOUT)
    expect(bob.locator("#toggle-bb")).to_have_attribute("aria-pressed", "true")
    expect(seat(alice, 1).locator(".stack")).to_have_text("94")  # her own setting: chips
    bob.get_by_role("button", name="In BB").click()
    expect(seat(bob, 1).locator(".stack")).to_have_text("94")


def test_a_no_limit_raise_that_can_only_be_all_in_keeps_its_presets(
        room_url, new_page, make_user, make_table):
    table = make_table(name="Elm NL", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    sit_out_both(alice, bob)

    # Alice raises to 52: bob's smallest re-raise (102) is more than his 100, so all-in it is.
    alice.locator("#bet-amount").fill("52")
    alice.locator("#bet-amount").press("Tab")
    alice.locator("#act-raise").click()
    expect(bob.locator("#act-raise")).to_contain_text("Raise to 100 (all-in)", timeout=TIMEOUT)
    expect(bob.locator("#sizing-range")).to_have_text("Only 100 (all-in)")
    expect(bob.locator("#bet-sizing")).not_to_contain_text("Fixed limit")
    expect(bob.locator("#presets")).to_be_visible()
    expect(bob.locator("#presets button")).to_have_text(["Min", "2.5x", "3x", "Pot", "All-in"])


def test_a_players_own_sizes_are_his_preset_buttons(room_url, new_page, make_user, make_table):
    """Set in his profile (accounts.forms.ProfileForm), read by the table page when drawn."""
    from accounts.models import User

    table = make_table(name="Own NL", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    User.objects.filter(username="alice").update(bet_presets={"preflop": [2, 4]})
    alice.reload()
    expect(alice.locator("#action-bar")).to_be_visible(timeout=TIMEOUT)
    expect(alice.locator("#presets button")).to_have_text(["Min", "2x", "4x", "Pot", "All-in"])
    expect(alice.get_by_role("button", name="4x: 8")).to_be_visible()  # 4 big blinds of 2
    sit_out_both(alice, bob)
