"""What a player does in the browser, written as small steps the tests read like a story."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

PASSWORD = "s3cret-pass-123"
TIMEOUT = 20_000


def sign_up(page: Page, room_url: str, username: str) -> None:
    """Create an account through the sign-up form (18+ confirmation); lands in the lobby."""
    page.goto(room_url + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_date_of_birth", "1990-05-17")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.check("#id_confirm_age")
    page.click("form button[type=submit]")
    expect(page.locator(".site-header")).to_contain_text(username)


def log_in(page: Page, room_url: str, username: str) -> None:
    page.goto(room_url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator(".site-header")).to_contain_text(username)


def play_balance(page: Page) -> int:
    """The play-money balance the header shows (in chips)."""
    return int(page.locator('[data-balance-currency="PLAY"]').get_attribute("data-amount"))


def open_table(page: Page, room_url: str, table_id: int) -> None:
    page.goto(f"{room_url}/tables/{table_id}/")
    expect(page.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)


def take_seat(page: Page, seat: int, amount: int, *, post_bb: bool = False) -> None:
    """Click an empty seat, buy in through the dialog."""
    page.get_by_role("button", name=f"Sit in seat {seat}").click()
    dialog = page.locator("#buyin-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#buyin-amount").fill(str(amount))
    if post_bb:
        dialog.locator("#buyin-postbb").check()
    dialog.locator("#buyin-confirm").click()
    expect(page.locator(f'.seat.me[data-seat="{seat}"]')).to_be_visible(timeout=TIMEOUT)


def seat(page: Page, number: int):
    return page.locator(f'.seat[data-seat="{number}"]')


def wait_my_turn(page: Page, timeout: int = TIMEOUT) -> None:
    expect(page.locator("#action-bar")).to_be_visible(timeout=timeout)


# One step in the page: no frame of the server's comes between looking and clicking (two
# Playwright calls let a new hand's deal come between them, and the click acted in it).
PLAY_PASSIVELY = """([buttons, unless]) => {
  if (document.querySelector("#action-bar.sent") || (unless && document.querySelector(unless))) {
    return false;
  }
  const button = buttons.map((id) => document.querySelector(id))
    .find((b) => b && b.checkVisibility());
  if (button) button.click();
  return Boolean(button);
}"""


def play_passively(page: Page, buttons: tuple[str, ...] = ("#act-check", "#act-call"), *,
                   unless: str | None = None) -> bool:
    """Click the first of `buttons` the page offers, unless an action is already on its way
    (the bar stays up, marked `sent`, until the server's event arrives) or the page shows
    `unless`. True if it clicked."""
    return page.evaluate(PLAY_PASSIVELY, [list(buttons), unless])


def stack_of(page: Page, number: int) -> int:
    return int(seat(page, number).locator(".stack").get_attribute("data-stack"))


def hand_number(page: Page) -> str:
    return page.locator("#hand-info").inner_text()


def wait_hand_over(page: Page, timeout: int = 30_000) -> None:
    expect(page.locator("#hand-info")).to_have_text(re.compile("Hand over"), timeout=timeout)


def shot(page: Page, name: str) -> None:
    """Keep a screenshot of the moment in test-artifacts/screenshots/ (for design review)."""
    from tests.browser.conftest import ARTIFACTS

    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))
