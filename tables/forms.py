from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from cashier.money import (
    Currency,
    MoneyField,
    money_format,
    money_input,
    money_parse,
    money_to_minor,
)
from tables.models import Structure, TableConfig
from tables.selectors import SORT_KEYS, LobbyFilters


class LobbyFilterForm(forms.Form):
    structure = forms.ChoiceField(choices=[("", "Any game"), *Structure.choices], required=False)
    currency = forms.ChoiceField(choices=[("", "Any money"), *Currency.choices], required=False)
    min_bb = forms.DecimalField(
        label="Big blind from", required=False, min_value=0, max_digits=9, decimal_places=2
    )
    max_bb = forms.DecimalField(
        label="to", required=False, min_value=0, max_digits=9, decimal_places=2
    )
    hide_full = forms.BooleanField(label="Hide full tables", required=False)
    sort = forms.ChoiceField(
        label="Sort by", required=False,
        choices=[("", "Game and stakes"), *((key, label) for key, (label, _) in SORT_KEYS.items())],
    )
    dir = forms.ChoiceField(label="Order", required=False,
                            choices=[("asc", "Ascending"), ("desc", "Descending")])

    def clean(self) -> dict:
        data = super().clean()
        low, high = data.get("min_bb"), data.get("max_bb")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError("The lower big blind bound is above the upper one.")
        return data

    def filters(self) -> LobbyFilters:
        data = self.cleaned_data
        return LobbyFilters(
            structure=data["structure"],
            currency=data["currency"],
            min_big_blind=data["min_bb"],
            max_big_blind=data["max_bb"],
            hide_full=data["hide_full"],
            sort=data["sort"],
            descending=data["dir"] == "desc",
        )

    def sort_links(self) -> list[dict[str, str]]:
        """Per sortable column: its key, the order a click asks for, and its aria-sort."""
        data = getattr(self, "cleaned_data", None) or {}
        current, desc = data.get("sort", ""), data.get("dir") == "desc"
        links = []
        for key in SORT_KEYS:
            active = key == current
            links.append({
                "key": key,
                "dir": "asc" if active and desc else ("desc" if active else "asc"),
                "aria": ("descending" if desc else "ascending") if active else "none",
                "arrow": ("▼" if desc else "▲") if active else "",
            })
        return links


# Table configuration in Django admin: money in currency units ------------------------------
MONEY_FIELDS = ("lower_stake", "upper_stake", "small_blind", "ante", "rake_cap")
BUY_IN_FIELDS = {"min_buy_in": "min_buy_in_bb", "max_buy_in": "max_buy_in_bb"}
BLANK_IS_ZERO = ("ante", "rake_cap")


# Between caps: a newline, a semicolon, or a comma before the next "players:" (so that
# "2: 500, 3: 1,000" keeps its thousands separator).
_CAP_SEPARATOR = re.compile(r"[;\n]|,(?=\s*\d+\s*:)")


class RakeCapsField(forms.CharField):
    """Rake caps by players dealt in, typed as "2: 0.50, 3: 1, 5: 3" (currency units). The
    cleaned value is a list of (players, Decimal units); the form converts the units."""

    def to_python(self, value: object) -> list[tuple[int, Decimal]]:  # type: ignore[override]
        text = super().to_python(value)
        caps: list[tuple[int, Decimal]] = []
        for part in filter(None, (p.strip() for p in _CAP_SEPARATOR.split(str(text or "")))):
            players, colon, amount = part.partition(":")
            if not colon or not players.strip().isdigit():
                raise ValidationError(
                    f"“{part}”: write each cap as players: amount, e.g. 2: 0.50, 3: 1.")
            number = int(players)
            if not 2 <= number <= 10:
                raise ValidationError(f"“{part}”: the number of players is 2 to 10.")
            caps.append((number, money_parse(amount)))
        return caps


def caps_input(caps: dict | None, currency: str) -> str:
    """{"2": 50, "3": 100} with real money → "2: 0.50, 3: 1.00"."""
    return ", ".join(f"{n}: {money_input(cap, currency)}"
                     for n, cap in sorted((int(k), v) for k, v in (caps or {}).items()))


# The time bank's options: optional in the form (left out or empty: the model's default, so
# the bank stays off unless an operator turns it on).
TIME_BANK_FIELDS = ("time_bank_seconds", "time_bank_refill_seconds", "time_bank_refill_hands",
                    "time_bank_cap_seconds")


class TableConfigForm(forms.ModelForm):
    """TableConfig with every amount in currency units: "$2.00" / "2.00" for real money,
    "2,000" for play money; the model keeps minor units. The table's currency decides the
    unit — a new table's from this form, an existing table's is fixed. The buy-in is typed as
    money and stored in big blinds, so it must be a whole number of big blinds."""

    lower_stake = MoneyField(label="Lower stake", help_text="The big blind (and the limit "
                             "game's small bet): $2.00 or 2.00 for real money, 2,000 for chips.")
    upper_stake = MoneyField(required=False, help_text="The limit game's big bet. Left empty: "
                             "twice the lower stake.")
    small_blind = MoneyField(required=False, help_text="Only with the explicit small-blind rule.")
    ante = MoneyField(required=False, help_text="Per player; empty or 0 for none.")
    min_buy_in = MoneyField(label="Minimum buy-in", help_text="A whole number of big blinds.")
    max_buy_in = MoneyField(label="Maximum buy-in", help_text="A whole number of big blinds.")
    rake_cap = MoneyField(required=False, help_text="Empty or 0 for no cap.")
    rake_cap_by_players = RakeCapsField(
        required=False, label="Rake caps by players dealt in",
        help_text="Optional, e.g. “2: 0.50, 3: 1, 5: 3”: the cap for a hand is the one for the "
        "largest number not above the players dealt in; above the largest, the rake cap.",
    )

    class Meta:
        model = TableConfig
        fields = (  # the buy-in's big-blind fields are set from the money fields
            "name", "structure", "currency", "max_seats", "is_active", "lower_stake",
            "upper_stake", "small_blind_rule", "small_blind", "ante", "ratholing_window_minutes",
            "rake_percent", "rake_cap", "rake_cap_by_players", "no_flop_no_drop",
            "action_seconds", "countdown_seconds", "timeout_policy", "timeout_allin_daily_cap",
            "sit_out_limit_minutes", "hand_pause_seconds",
            "chat_spectators",
            *TIME_BANK_FIELDS,
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in TIME_BANK_FIELDS:
            if name in self.fields:
                self.fields[name].required = False
        table = self.instance
        for name in MONEY_FIELDS:  # stored minor units; text from the add URL stays as typed
            if isinstance(self.initial.get(name), int):
                self.initial[name] = money_input(self.initial[name], table.currency)
        if table.lower_stake:
            self.initial["min_buy_in"] = money_input(table.min_buy_in, table.currency)
            self.initial["max_buy_in"] = money_input(table.max_buy_in, table.currency)
        if isinstance(self.initial.get("rake_cap_by_players"), dict):
            self.initial["rake_cap_by_players"] = caps_input(
                self.initial["rake_cap_by_players"], table.currency)

    def currency(self) -> str | None:
        """The currency the amounts are in: fixed for a saved table, else the one chosen."""
        if self.instance.pk or "currency" not in self.fields:
            return self.instance.currency
        return self.cleaned_data.get("currency")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in TIME_BANK_FIELDS:
            if data.get(name) is None and name not in self.errors:
                data[name] = TableConfig._meta.get_field(name).get_default()
        currency = self.currency()
        if currency is None:  # the currency field has its own error; no unit for the amounts
            for name in (*MONEY_FIELDS, *BUY_IN_FIELDS, "rake_cap_by_players"):
                data.pop(name, None)
            return data
        for name in (*MONEY_FIELDS, *BUY_IN_FIELDS):
            if data.get(name) is None:
                if name in BLANK_IS_ZERO and name not in self.errors:
                    data[name] = 0
                continue
            try:
                data[name] = money_to_minor(data[name], currency)
            except ValidationError as error:
                self.add_error(name, error)
        self._caps_clean(data, currency)
        self._buy_in_clean(data, currency)
        return data

    def _caps_clean(self, data: dict[str, Any], currency: str) -> None:
        if "rake_cap_by_players" not in data:
            return
        try:
            data["rake_cap_by_players"] = {
                str(n): money_to_minor(units, currency) for n, units in data["rake_cap_by_players"]
            }
        except ValidationError as error:
            self.add_error("rake_cap_by_players", error)

    def _buy_in_clean(self, data: dict[str, Any], currency: str) -> None:
        """Money → big blinds on the instance (the model stores the buy-in in big blinds)."""
        big_blind = data.get("lower_stake")
        amounts = {name: data.get(name) for name in BUY_IN_FIELDS}
        if not big_blind or None in amounts.values():
            return
        for name, amount in amounts.items():
            if amount < big_blind or amount % big_blind:
                self.add_error(name, (
                    f"{money_format(amount, currency)} is not a whole number of big blinds "
                    f"({money_format(big_blind, currency)} each): for example "
                    f"{money_format(max(amount // big_blind, 1) * big_blind, currency)}."))
        if self.errors.keys() & BUY_IN_FIELDS.keys():
            return
        if amounts["min_buy_in"] > amounts["max_buy_in"]:
            self.add_error("min_buy_in", (
                f"The minimum buy-in ({money_format(amounts['min_buy_in'], currency)}) is above "
                f"the maximum ({money_format(amounts['max_buy_in'], currency)})."))
            return
        for name, field in BUY_IN_FIELDS.items():
            setattr(self.instance, field, amounts[name] // big_blind)

    def add_error(self, field: str | None, error: Any) -> None:
        """The model reports buy-in problems on its big-blind fields, which this form shows as
        money; and a field this form already refused gets no second, model-level message."""
        if field is None and isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            renamed: dict[str, list[ValidationError]] = {}
            for name, messages in error.error_dict.items():
                name = {v: k for k, v in BUY_IN_FIELDS.items()}.get(name, name)
                if name in self.fields and name in self.errors:
                    continue
                renamed.setdefault(name, []).extend(messages)
            if not renamed:
                return
            error = ValidationError(renamed)
        super().add_error(field, error)
