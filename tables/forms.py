from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from cashier.money import (
    Currency,
    MoneyField,
    form_currency,
    money_fields_clean,
    money_format,
    money_input,
    money_parse,
    money_to_minor,
)
from tables.models import SmallBlindRule, Structure, TableConfig
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
MONEY_FIELDS = ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "rake_cap")
# The stakes are typed in the words operators use: no-limit and pot-limit have blinds,
# fixed-limit a small and a big bet (its big blind is the small bet). The model keeps its
# lower and upper stake.
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

    small_blind = MoneyField(
        required=False, label="Small blind", help_text="Empty: the small-blind rule below "
        "(half the big blind, or half the small bet in limit). An amount the rule does not give "
        "is kept as an explicit small blind.")
    big_blind = MoneyField(required=False, label="Big blind", help_text="No-limit and "
                           "pot-limit: $2.00 or 2.00 for real money, 2,000 for chips.")
    small_bet = MoneyField(required=False, label="Small bet", help_text="Fixed-limit: the bet "
                           "preflop and on the flop; it is also the big blind.")
    big_bet = MoneyField(required=False, label="Big bet", help_text="Fixed-limit: the bet on "
                         "the turn and the river. Empty: twice the small bet.")
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
            "name", "structure", "currency", "max_seats", "is_active", "small_blind_rule",
            "small_blind", "ante", "ratholing_window_minutes",
            "rake_percent", "rake_cap", "rake_cap_by_players", "no_flop_no_drop",
            "action_seconds", "countdown_seconds", "timeout_policy", "timeout_allin_daily_cap",
            "sit_out_limit_minutes", "hand_pause_seconds",
            "chat_spectators", "rabbit_hunt_allowed", "straddle_allowed", "run_it_twice_allowed",
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
            limit = table.structure == Structure.FIXED_LIMIT
            stakes = {"small_bet": table.lower_stake, "big_bet": table.upper_stake} if limit \
                else {"big_blind": table.lower_stake}
            for name, amount in stakes.items():
                self.initial.setdefault(name, money_input(amount, table.currency))
            self.initial["min_buy_in"] = money_input(table.min_buy_in, table.currency)
            self.initial["max_buy_in"] = money_input(table.max_buy_in, table.currency)
        if isinstance(self.initial.get("rake_cap_by_players"), dict):
            self.initial["rake_cap_by_players"] = caps_input(
                self.initial["rake_cap_by_players"], table.currency)

    def currency(self) -> str | None:
        return form_currency(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in TIME_BANK_FIELDS:
            if data.get(name) is None and name not in self.errors:
                data[name] = TableConfig._meta.get_field(name).get_default()
        for name in ("big_blind",) if self._limit(data) else ("small_bet", "big_bet"):
            data.pop(name, None)  # the other game's stakes (hidden on the page) are not read
            self.errors.pop(name, None)
        currency = self.currency()
        if currency is None:  # the currency field has its own error; no unit for the amounts
            for name in (*MONEY_FIELDS, *BUY_IN_FIELDS, "rake_cap_by_players"):
                data.pop(name, None)
            return data
        money_fields_clean(self, data, (*MONEY_FIELDS, *BUY_IN_FIELDS), currency=currency,
                           blank_is_zero=BLANK_IS_ZERO)
        self._stakes_clean(data)
        self._caps_clean(data, currency)
        self._buy_in_clean(data, currency)
        return data

    def _limit(self, data: dict[str, Any]) -> bool:
        return data.get("structure", self.instance.structure) == Structure.FIXED_LIMIT

    def _stakes_clean(self, data: dict[str, Any]) -> None:
        """Blinds (no-limit, pot-limit) or bets (fixed-limit) → the stored lower and upper
        stake on the instance; `data["big_blind"]` is then the big blind the buy-in counts in."""
        limit = self._limit(data)
        name = "small_bet" if limit else "big_blind"
        low = data.get(name)
        if low is None:
            if name not in self.errors:
                self.add_error(name, "Give the small bet." if limit else "Give the big blind.")
            data["big_blind"] = None
            return
        high = data.get("big_bet") if limit else None
        self.instance.lower_stake, self.instance.upper_stake = low, high or 2 * low
        data["big_blind"] = low
        typed, rule = data.get("small_blind"), data.get("small_blind_rule")
        if typed is None or rule is None or rule == SmallBlindRule.EXPLICIT:
            return
        ruled = TableConfig(lower_stake=low, currency=self.currency(), small_blind_rule=rule)
        if typed == ruled.small_blind_amount:
            data["small_blind"] = None  # the rule's own amount: the rule keeps deciding
        else:
            data["small_blind_rule"] = SmallBlindRule.EXPLICIT

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
        big_blind = data.get("big_blind")
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
        """The model reports buy-in problems on its big-blind fields and stake problems on its
        lower/upper stake, which this form shows as money and as blinds or bets; and a field
        gets one message: none from the model when this form refused it already, and the
        model's own words when its validator and clean() both refuse it."""
        if field is None and isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            renamed: dict[str, list[ValidationError]] = {}
            stakes = {"lower_stake": "small_bet" if self._limit(getattr(self, "cleaned_data", {}))
                      else "big_blind", "upper_stake": "big_bet"}
            for name, messages in error.error_dict.items():
                name = {v: k for k, v in BUY_IN_FIELDS.items()}.get(name, name)
                name = stakes.get(name, name)
                if name in self.fields and name in self.errors:
                    continue
                # A field's validator and the model's clean() may refuse the same value (a
                # table of 11 seats): say it once, in the room's words (clean's, no code).
                own = [m for m in messages if getattr(m, "code", None) is None]
                renamed.setdefault(name, []).extend(own or messages)
            if not renamed:
                return
            error = ValidationError(renamed)
        super().add_error(field, error)
