"""The "My hands" filter form."""

from __future__ import annotations

from django import forms

from tables.histories.selectors import HandFilters
from tables.models import TableConfig


class MyHandsFilterForm(forms.Form):
    table = forms.ModelChoiceField(
        queryset=TableConfig.objects.order_by("name"), required=False, empty_label="Any table"
    )
    since = forms.DateField(label="From", required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label="To", required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))
    outcome = forms.ChoiceField(
        label="Result", required=False,
        choices=[("", "Won or lost"), ("won", "Won"), ("lost", "Lost")],
    )

    def clean(self) -> dict:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError("The start date is after the end date.")
        return data

    def filters(self) -> HandFilters:
        data = self.cleaned_data
        table = data.get("table")
        return HandFilters(
            table_id=table.pk if table else None, since=data.get("since"),
            until=data.get("until"), outcome=data.get("outcome") or "",
        )
