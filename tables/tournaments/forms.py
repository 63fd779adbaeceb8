"""Admin forms for tournament templates: the buy-in, fee, guarantee and the rebuy and add-on
prices typed in currency units ("$10.00", "2,000"), as tables' stakes are (tables/forms.py);
payouts typed as percentages ("50, 30, 20"); the models keep minor units and basis points."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from cashier.money import MoneyField, form_currency, money_fields_clean, money_input
from tables.tournaments.models import BASIS_POINTS, PayoutTier, TournamentTemplate, places_error

MONEY_FIELDS = ("buy_in", "fee", "guarantee", "rebuy_price", "addon_price")
BLANK_IS_ZERO = ("fee", "guarantee", "rebuy_price", "addon_price")


class TournamentTemplateForm(forms.ModelForm):
    """The template with its money in currency units of its currency (fixed once saved)."""

    buy_in = MoneyField(label="Buy-in", help_text="To the prize pool: $10.00 or 10 for real "
                        "money, 1,000 for chips.")
    fee = MoneyField(required=False, help_text="To the house; empty or 0 for none.")
    guarantee = MoneyField(required=False, help_text="Scheduled events: the least prize pool "
                           "(the house pays the difference). Empty or 0 for none.")
    rebuy_price = MoneyField(required=False, label="Rebuy price",
                             help_text="All to the prize pool (no fee). Empty or 0: no rebuys.")
    addon_price = MoneyField(required=False, label="Add-on price",
                             help_text="All to the prize pool (no fee). Empty or 0: no add-on.")

    class Meta:
        model = TournamentTemplate
        fields = ("name", "kind", "currency", "is_active", "buy_in", "fee", "guarantee",
                  "starting_stack", "seats_per_table", "entries_cap", "min_field",
                  "max_reentries", "late_registration_levels", "max_rebuys", "rebuy_levels",
                  "rebuy_price", "rebuy_chips", "rebuy_max_stack", "addon_price", "addon_chips",
                  "action_seconds",
                  "countdown_seconds", "timeout_policy", "time_bank_seconds",
                  "time_bank_refill_seconds", "time_bank_refill_hands", "time_bank_cap_seconds",
                  "hand_pause_seconds")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in MONEY_FIELDS:
            if isinstance(self.initial.get(name), int):
                self.initial[name] = money_input(self.initial[name], self.instance.currency)

    def currency(self) -> str | None:
        return form_currency(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        currency = self.currency()
        if currency is None:  # the currency field has its own error; no unit for the amounts
            for name in MONEY_FIELDS:
                data.pop(name, None)
        else:
            money_fields_clean(self, data, MONEY_FIELDS, currency=currency,
                               blank_is_zero=BLANK_IS_ZERO)
        if data.get("buy_in") == 0:
            self.add_error("buy_in", "The buy-in must be more than nothing.")
        return data


def percent_to_basis_points(text: str) -> int:
    """ "12.5" (%) → 1250 basis points; a hundredth of a percent at most."""
    try:
        value = Decimal(text.strip().removesuffix("%").strip())
    except InvalidOperation:
        raise ValidationError(f"“{text.strip()}” is not a percentage.") from None
    points = value * 100
    if points != points.to_integral_value():
        raise ValidationError(f"“{text.strip()}”: at most two decimals of a percent.")
    return int(points)


class PlacesField(forms.CharField):
    """Each paid place's share in percent, first place first: "50, 30, 20"."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(f"{Decimal(points) / 100:g}" for points in value)
        return value

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value)
        parts = [part for part in (p.strip() for p in str(text or "").split(",")) if part]
        return [percent_to_basis_points(part) for part in parts]


class PayoutTierForm(forms.ModelForm):
    places = PlacesField(label="Shares (%)", help_text="First place first, e.g. 50, 30, 20: "
                         f"they add up to 100 ({BASIS_POINTS:,} basis points).")

    class Meta:
        model = PayoutTier
        fields = ("min_entries", "max_entries", "places")

    def clean_places(self) -> list[int]:
        places = self.cleaned_data["places"]
        error = places_error(places)
        if error:
            raise ValidationError(error)
        return places
