"""Cashier forms. Amounts are typed in dollars and handed to services in cents; each
money-moving form carries a hidden idempotency key made when the form is rendered."""
from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django import forms

from cashier.models import LimitPeriod, TransactionKind
from cashier.money import Currency
from cashier.providers import PROVIDERS

EXCLUSION_DAYS = [(1, "24 hours"), (7, "1 week"), (30, "1 month"), (90, "3 months"),
                  (180, "6 months"), (365, "1 year"), (1825, "5 years")]


def dollars_to_cents(amount: Decimal) -> int:
    return int(amount * 100)


class KeyedForm(forms.Form):
    """A form whose submission is idempotent: a double submit reuses the key."""

    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", uuid.uuid4())

    def key_for(self, user: Any) -> str:
        """Scoped to the player, so nobody can reach another player's first outcome."""
        return f"web:{user.pk}:{self.cleaned_data['idempotency_key']}"


class DollarField(forms.DecimalField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", Decimal("0.01"))
        kwargs.setdefault("max_digits", 12)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(**kwargs)


class DepositForm(KeyedForm):
    amount = DollarField(label="Amount ($)", min_value=Decimal("1.00"))
    provider = forms.ChoiceField(
        choices=[(name, p.label) for name, p in PROVIDERS.items()], initial="sandbox",
        label="Method",
    )
    card_number = forms.CharField(
        required=False, max_length=23, label="Card number (sandbox)",
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                      "placeholder": "4242 4242 4242 4242"}),
    )


class WithdrawForm(KeyedForm):
    amount = DollarField(label="Amount ($)")


class CancelWithdrawalForm(KeyedForm):
    pass


class ReloadForm(KeyedForm):
    pass


class DepositLimitForm(forms.Form):
    period = forms.ChoiceField(choices=LimitPeriod.choices)
    amount = DollarField(label="Limit ($)", required=False,
                         help_text="Leave empty to remove the limit (takes 24 hours).")


class SelfExclusionForm(forms.Form):
    days = forms.TypedChoiceField(choices=EXCLUSION_DAYS, coerce=int, label="Exclude me for")
    confirm = forms.BooleanField(
        label="I understand this cannot be undone before it ends.", required=True
    )


class SessionReminderForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=24 * 60, required=False,
                                 label="Remind me after (minutes)",
                                 help_text="Leave empty for no reminder.")


class HistoryFilterForm(forms.Form):
    kind = forms.ChoiceField(choices=[("", "All types"), *TransactionKind.choices],
                             required=False)
    currency = forms.ChoiceField(choices=[("", "Both currencies"), *Currency.choices],
                                 required=False)
