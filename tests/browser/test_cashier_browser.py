"""The cashier in a real Chromium: a sandbox-card deposit, then a withdrawal requested and
cancelled; the header balance follows."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.players import log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_deposit_with_a_sandbox_card_then_request_and_cancel_a_withdrawal(
        room_url, new_page, make_user):
    from cashier.models import AccountKind, LedgerAccount, Withdrawal

    make_user("carol")
    page = new_page("carol")
    page.goto(room_url + "/accounts/login/")
    shot(page, "login")
    log_in(page, room_url, "carol")
    page.get_by_role("link", name="Cashier", exact=True).click()
    expect(page.get_by_role("heading", name="Cashier")).to_be_visible()
    panel = page.locator("#cashier-panel")
    expect(panel.locator('[data-balance="REAL"]')).to_have_text("$0")

    # Deposit $50 with the sandbox card that approves.
    deposit = page.locator("section[aria-labelledby=deposit-title]")
    deposit.locator("input[name=amount]").fill("50")
    deposit.locator("input[name=card_number]").fill("4242 4242 4242 4242")
    deposit.get_by_role("button", name="Deposit").click()
    expect(panel.locator('[data-balance="REAL"]')).to_have_text("$50", timeout=10_000)
    # The header follows without a reload, and each amount box has a label of its own.
    expect(page.locator('#balances [data-balance-currency="REAL"]')).to_have_attribute(
        "data-amount", "5000", timeout=10_000)
    expect(page.get_by_label("Amount").first).to_have_attribute("id", "deposit_amount")
    wallet = LedgerAccount.objects.get(kind=AccountKind.WALLET, currency="REAL",
                                       user__username="carol")
    assert wallet.balance == 5000

    # Ask for $20 back: the money waits in the pending withdrawal.
    withdraw = page.locator("section[aria-labelledby=withdraw-title]")
    withdraw.locator("input[name=amount]").fill("20")
    withdraw.get_by_role("button", name="Request withdrawal").click()
    expect(panel.locator('[data-balance="REAL"]')).to_have_text("$30", timeout=10_000)
    withdraw = page.locator("section[aria-labelledby=withdraw-title]")
    expect(withdraw.locator("li.status-pending")).to_contain_text("$20")
    shot(page, "cashier-withdrawal-pending")

    # The buttons: a neutral primary, red only for "Exclude me", Cancel as big as the rest.
    def look(button):
        return button.evaluate("""b => { const s = getComputedStyle(b);
            return {bg: s.backgroundColor, font: s.fontSize, height: b.offsetHeight}; }""")
    red = "rgb(200, 16, 46)"
    page.mouse.move(0, 0)  # no button hovered
    primary = look(withdraw.get_by_role("button", name="Request withdrawal"))
    exclude = look(panel.get_by_role("button", name="Exclude me"))
    cancel = look(withdraw.locator("li.status-pending").get_by_role("button", name="Cancel"))
    assert primary["bg"] != red and exclude["bg"] == red, (primary, exclude)
    assert cancel["bg"] not in (red, primary["bg"])  # a secondary step looks secondary
    assert cancel["font"] == primary["font"] and cancel["height"] >= primary["height"] - 2

    # Change of mind: cancel it; the $20 comes back.
    withdraw.locator("li.status-pending").get_by_role("button", name="Cancel").click()
    expect(panel.locator('[data-balance="REAL"]')).to_have_text("$50", timeout=10_000)
    expect(page.locator("section[aria-labelledby=withdraw-title] li.status-pending")).to_have_count(0)
    assert Withdrawal.objects.get(user__username="carol").status == "cancelled"
    wallet.refresh_from_db()
    assert wallet.balance == 5000

    # The header shows the same balance after a reload.
    page.reload()
    assert page.locator('#balances [data-balance-currency="REAL"]').get_attribute("data-amount") == "5000"
    shot(page, "cashier")
