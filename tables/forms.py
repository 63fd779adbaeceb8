from __future__ import annotations

from django import forms

from tables.models import Currency, Structure
from tables.selectors import LobbyFilters


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
        )
