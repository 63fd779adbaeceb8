"""static/js/table/format.js `moneyFormat` writes every amount exactly as cashier/money.py
`money_format` does: the browser and the server have one set of rules."""
from __future__ import annotations

import pytest

from cashier.money import Currency, money_format

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AMOUNTS = [0, 1, 5, 99, 100, 101, 250, -250, -1, -100, 1050, 99999, 100000, 123456, -123456,
           1_000_000, 123_456_789, -2_500_000]

FORMAT = """async (cases) => {
  const m = await import('/static/js/table/format.js');
  return cases.map(([amount, currency]) => m.moneyFormat(amount, currency));
}"""


def test_the_browser_formats_money_like_the_server(room_url, new_page):
    cases = [(amount, currency.value) for currency in Currency for amount in AMOUNTS]
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    assert page.evaluate(FORMAT, cases) == [money_format(a, c) for a, c in cases]
