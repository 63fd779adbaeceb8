"""The side panel's last hands: each entry is a few lines tall (the link, Verify and its verdict
in a word, who won); the deck commitment and the verdict's full words are folded away."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Hand
from tests.browser.players import TIMEOUT, wait_my_turn
from tests.browser.test_table_browser import seated_pair, sit_out_both

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_last_hand_is_a_few_lines_with_its_proof_folded(room_url, new_page, make_user,
                                                           make_table):
    table = make_table(name="Ash", structure="NL", lower_stake=2, hand_pause_seconds=1)
    alice, bob = seated_pair(room_url, new_page, make_user, table, buy_in=100)
    wait_my_turn(alice)
    sit_out_both(alice, bob)
    alice.locator("#act-fold").click()

    entry = alice.locator("#history li[data-hand-id]")
    expect(entry).to_have_count(1, timeout=TIMEOUT)
    expect(entry.locator(".summary")).to_contain_text("bob wins")
    proof = entry.locator("details.hand-proof")
    commitment = Hand.objects.get(table=table).commitment
    expect(proof).not_to_have_attribute("open", "")
    expect(proof.locator("code")).to_have_text(commitment)  # there, but folded
    expect(proof.locator("code")).to_be_hidden()
    height = entry.evaluate("e => e.getBoundingClientRect().height")
    assert height < 90, height  # three short lines, not the commitment's 64 hex digits

    # Verify says its verdict in a word on the entry; the full words wait in the proof.
    alice.get_by_role("button", name="Verify hand #1").click()
    expect(entry.locator(".verify-status")).to_have_text("✓ Verified", timeout=TIMEOUT)
    expect(proof.locator(".verify-result")).to_contain_text("Your browser's entropy")
    assert entry.evaluate("e => e.getBoundingClientRect().height") < 90
    entry.locator("details.hand-proof summary").click()
    expect(proof.locator("code")).to_be_visible()
    expect(proof.locator(".verify-result")).to_be_visible()
