"""The room's money vocabulary: the two currencies, their minor units, the one formatter
(`money_format`, mirrored by the browser's `moneyFormat` in static/js/table/format.js and
tested against it), and amounts typed in currency units ("2", "2.00", "$2.00", "2,000") turned
back into exact minor units. Lives in the cashier, which owns money; tables import it.

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
from django.db import models


class Currency(models.TextChoices):
    """Play and real money never mix: every account, table and transaction has one."""

    PLAY = "PLAY", "Play money"
    REAL = "REAL", "Real money"


MINOR_PER_UNIT = {Currency.REAL: 100, Currency.PLAY: 1}

# "2000", "2,000", "2,000.50", ".5" — thousands separators only in groups of three.
_AMOUNT = re.compile(r"^(?:\d{1,3}(?:,\d{3})+|\d*)(?:\.\d*)?$")


def money_format(amount: int, currency: str, *, grouped: bool = True) -> str:
    """An amount in minor units for people, as the table UI has always shown it:

    * real money (cents): "$5" for whole dollars, else "$2.50"; thousands separated
      ("$1,234.56"); a negative amount puts its sign before the dollar sign ("-$2.50");
    * play money (chips): the count, thousands separated ("1,250", "-1,250"), no unit word
      (a table, a page or a column says the currency once).

    `grouped=False` drops the separators ("$1234.56", "1250"), for hand-history formats that
    tracker software reads. static/js/table/format.js `moneyFormat` follows the same rules
    (tests/browser/test_money_format_browser.py compares the two)."""
    sign = "-" if amount < 0 else ""
    magnitude = abs(amount)
    if currency == Currency.REAL:
        dollars, cents = divmod(magnitude, 100)
        whole = f"{dollars:,}" if grouped else str(dollars)
        return f"{sign}${whole}" if cents == 0 else f"{sign}${whole}.{cents:02d}"
    return sign + (f"{magnitude:,}" if grouped else str(magnitude))


def money_input(amount: int | None, currency: str) -> str:
    """What a money form field shows for a stored amount: "2.00" (cents 200), "2,000" (chips)."""
    if amount is None:
        return ""
    if currency == Currency.REAL:
        dollars, cents = divmod(abs(amount), 100)
        return f"{'-' if amount < 0 else ''}{dollars:,}.{cents:02d}"
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


def form_currency(form: forms.ModelForm) -> str | None:
    """The currency a money form's amounts are in: its row's, fixed once saved (or when the
    form has no currency field), else the one chosen in the form (None if it has an error)."""
    if form.instance.pk or "currency" not in form.fields:
        return form.instance.currency
    return form.cleaned_data.get("currency")


def money_fields_clean(form: forms.Form, data: dict, names: tuple[str, ...], *,
                       currency: str, blank_is_zero: tuple[str, ...] = ()) -> None:
    """The form's `MoneyField` amounts in `data`, typed in currency units, to minor units of
    `currency` in place; a blank one in `blank_is_zero` is 0; each refusal on its own field."""
    for name in names:
        if data.get(name) is None:
            if name in blank_is_zero and name not in form.errors:
                data[name] = 0
            continue
        try:
            data[name] = money_to_minor(data[name], currency)
        except ValidationError as error:
            form.add_error(name, error)


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
