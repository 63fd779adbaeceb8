"""The one money formatter's rules (cashier/money.py), which the browser's follows."""
from __future__ import annotations

import pytest

from cashier.money import MINOR_PER_UNIT, Currency, money_format, money_input
from tables.models import TableConfig


@pytest.mark.parametrize(("amount", "currency", "text"), [
    (500, Currency.REAL, "$5"),
    (250, Currency.REAL, "$2.50"),
    (5, Currency.REAL, "$0.05"),
    (123456, Currency.REAL, "$1,234.56"),
    (100000, Currency.REAL, "$1,000"),
    (-250, Currency.REAL, "-$2.50"),
    (-1, Currency.REAL, "-$0.01"),
    (0, Currency.REAL, "$0"),
    (1250, Currency.PLAY, "1,250"),
    (-1250, Currency.PLAY, "-1,250"),
    (0, Currency.PLAY, "0"),
])
def test_money_format(amount: int, currency: str, text: str) -> None:
    assert money_format(amount, currency) == text


def test_ungrouped_for_hand_history_trackers() -> None:
    assert money_format(123456, Currency.REAL, grouped=False) == "$1234.56"
    assert money_format(12500, Currency.PLAY, grouped=False) == "12500"


def test_a_table_labels_a_negative_amount_with_the_sign_first() -> None:
    """The table's old label divided a negative amount downwards: -250 cents was "$-3.50"."""
    assert TableConfig(currency=Currency.REAL).money_label(-250) == "-$2.50"


def test_minor_units_and_form_inputs() -> None:
    assert MINOR_PER_UNIT == {Currency.REAL: 100, Currency.PLAY: 1}
    assert money_input(123456, Currency.REAL) == "1,234.56" and money_input(200, "REAL") == "2.00"
    assert money_input(2000, Currency.PLAY) == "2,000"
