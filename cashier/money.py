"""Money for people: integer minor units shown as "$1,234.56" or "2,500 chips", and amounts
typed in currency units ("2", "2.00", "$2.00", "2,000") turned back into exact minor units.

The ledger and every model keep integers (cents for real money, chips for play money); only
forms and pages speak currency units. Parsing goes through `Decimal`, never a float, and an
amount that is not a whole number of minor units (a fraction of a cent, half a chip) is
refused with a message instead of being rounded.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError

from tables.models import Currency

MINOR_PER_UNIT = {Currency.REAL: 100, Currency.PLAY: 1}

# "2000", "2,000", "2,000.50", ".5" — thousands separators only in groups of three.
_AMOUNT = re.compile(r"^(?:\d{1,3}(?:,\d{3})+|\d*)(?:\.\d*)?$")


def money_format(amount: int, currency: str) -> str:
    """`money_format(123456, "REAL")` → "$1,234.56"; `money_format(2500, "PLAY")` → "2,500 chips"."""
    if currency == Currency.REAL:
        sign = "-" if amount < 0 else ""
        dollars, cents = divmod(abs(amount), 100)
        return f"{sign}${dollars:,}.{cents:02d}"
    return f"{amount:,} chips"


def money_input(amount: int | None, currency: str) -> str:
    """What a money form field shows for a stored amount: "2.00" (cents 200), "2,000" (chips)."""
    if amount is None:
        return ""
    if currency == Currency.REAL:
        return money_format(amount, currency).replace("$", "")
    return f"{amount:,}"


def money_parse(text: str) -> Decimal:
    """An amount typed in currency units → Decimal: "$2.00" → 2.00, "2,000 chips" → 2000.

    Refuses (ValidationError) anything that is not a plain non-negative number."""
    cleaned = text.strip().lower().removesuffix("chips").removesuffix("chip").strip()
    cleaned = cleaned.removeprefix("$").strip().replace(" ", "")
    if cleaned.startswith("-"):
        raise ValidationError(f"“{text.strip()}”: an amount cannot be negative.", code="negative")
    if not cleaned or cleaned == "." or not _AMOUNT.match(cleaned):
        raise ValidationError(
            f"“{text.strip()}” is not an amount: write it like 2, 2.00, $2.00 or 2,000.",
            code="invalid",
        )
    try:
        return Decimal(cleaned.replace(",", ""))
    except InvalidOperation as error:  # the pattern should make this unreachable
        raise ValidationError(f"“{text.strip()}” is not an amount.", code="invalid") from error


def money_to_minor(units: Decimal, currency: str) -> int:
    """Currency units → minor units, exactly: 2.00 REAL → 200 cents, 2000 PLAY → 2000 chips.

    Refuses a fraction of a cent (2.005 REAL) or of a chip (2.5 PLAY) instead of rounding."""
    minor = units * MINOR_PER_UNIT[Currency(currency)]
    if minor != minor.to_integral_value():
        if currency == Currency.REAL:
            raise ValidationError(
                f"${units} is a fraction of a cent: real money takes at most two decimals "
                "(cents).", code="fraction")
        raise ValidationError(
            f"{units} is not a whole number of chips: play money has no decimals.",
            code="fraction")
    return int(minor)


class MoneyField(forms.CharField):
    """A form field for an amount in currency units. Its cleaned value is a `Decimal` of
    currency units (or None when blank): the form turns it into minor units with
    `money_to_minor` once it knows the currency (a new table's currency is in the same form)."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 12}))
        super().__init__(**kwargs)

    def to_python(self, value: object) -> Decimal | None:  # type: ignore[override]
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        return money_parse(str(text))
