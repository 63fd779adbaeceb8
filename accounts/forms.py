from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone

from accounts.models import MINIMUM_AGE, Deck, TableTheme, User, age_on


class SignUpForm(UserCreationForm):
    """Whether the email is already registered is not the form's business: the sign-up answers
    the same either way (accounts/services.py), so nobody learns who plays here."""

    email = forms.EmailField(
        required=True, help_text="We write to you here about your account; other players never see it."
    )
    date_of_birth = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=f"You must be {MINIMUM_AGE} or older to play.",
    )
    confirm_age = forms.BooleanField(
        required=True, label=f"I confirm that I am {MINIMUM_AGE} years of age or older."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "date_of_birth")

    def clean_date_of_birth(self) -> datetime.date:
        birth: datetime.date = self.cleaned_data["date_of_birth"]
        today = timezone.localdate()
        if birth > today:
            raise forms.ValidationError("The date of birth is in the future.")
        if age_on(birth, today) < MINIMUM_AGE:
            raise forms.ValidationError(
                f"You must be at least {MINIMUM_AGE} years old to sign up. "
                "Online poker is not available to minors."
            )
        return birth

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip().lower()


class ProfileForm(forms.ModelForm):
    """Display names are checked by User.clean (accounts/names.py). The deck and the table
    theme keep their value when a form leaves them out."""

    deck = forms.ChoiceField(choices=Deck.choices, required=False, widget=forms.RadioSelect)
    table_theme = forms.ChoiceField(choices=TableTheme.choices, required=False,
                                    widget=forms.RadioSelect, label="Table theme")

    class Meta:
        model = User
        fields = ("display_name", "email", "deck", "table_theme")

    def clean_deck(self) -> str:
        return self.cleaned_data["deck"] or self.instance.deck

    def clean_table_theme(self) -> str:
        return self.cleaned_data["table_theme"] or self.instance.table_theme
