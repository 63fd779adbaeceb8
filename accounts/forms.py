from __future__ import annotations

import datetime
import re
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.urls import reverse
from django.utils import timezone

from accounts import avatars
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


def _sizes(text: str, *, low: float, high: float, whole: bool, words: str) -> list[float]:
    """"2.5, 3, 4" → [2.5, 3.0, 4.0]: up to four sizes, each once, in order."""
    parts = [p for p in re.split(r"[,\s;]+", text.strip()) if p]
    try:
        sizes = [float(p) for p in parts]
    except ValueError:
        raise forms.ValidationError(f"Give numbers: {words}.") from None
    if len(sizes) > 4 or any(not low <= x <= high or round(x * 10) != x * 10
                             or (whole and x != int(x)) for x in sizes):
        raise forms.ValidationError(f"Up to four {words}.")
    return sorted(set(int(x) if whole else x for x in sizes))


class AvatarSelect(forms.RadioSelect):
    """The avatar choices, each drawn beside its name (`generated`: the player's own)."""

    option_template_name = "accounts/widgets/avatar_option.html"
    user_id: int | None = None

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int,
                      subindex: int | None = None, attrs: dict | None = None) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        key = avatars.avatar_key(self.user_id or 0, str(value))
        option["avatar_url"] = reverse("accounts:avatar", args=[key])
        return option


class ProfileForm(forms.ModelForm):
    """Display names are checked by User.clean (accounts/names.py). The deck and the table
    theme keep their value when a form leaves them out."""

    deck = forms.ChoiceField(choices=Deck.choices, required=False, widget=forms.RadioSelect)
    table_theme = forms.ChoiceField(choices=TableTheme.choices, required=False,
                                    widget=forms.RadioSelect, label="Table theme")

    avatar = forms.ChoiceField(
        choices=avatars.CHOICES, required=False, widget=AvatarSelect,
        help_text="Shown on your seat at the tables. Pick an emblem, or keep the pattern "
                  "generated for your account.")

    preflop_sizes = forms.CharField(
        required=False, label="Preflop raise buttons",
        help_text="Up to four multiples of the big blind (of the raise you face, when raised), "
                  "e.g. 2.5, 3, 4. Empty: 2.5x and 3x.")
    postflop_sizes = forms.CharField(
        required=False, label="Postflop bet buttons",
        help_text="Up to four percentages of the pot, e.g. 33, 50, 75. Empty: ⅓, ½ and ¾.")

    class Meta:
        model = User
        fields = ("display_name", "email", "avatar", "deck", "table_theme")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["avatar"].widget.user_id = self.instance.pk
        saved = self.instance.bet_presets or {}
        self.initial["preflop_sizes"] = ", ".join(f"{x:g}" for x in saved.get("preflop", []))
        self.initial["postflop_sizes"] = ", ".join(f"{x:g}" for x in saved.get("postflop", []))

    def clean_preflop_sizes(self) -> list[float]:
        return _sizes(self.cleaned_data["preflop_sizes"], low=1.5, high=20, whole=False,
                      words="multiples of 1.5 to 20, in tenths (2.5, 3, 4)")

    def clean_postflop_sizes(self) -> list[float]:
        return _sizes(self.cleaned_data["postflop_sizes"], low=5, high=300, whole=True,
                      words="whole percentages of 5 to 300 (33, 50, 75)")

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.bet_presets = {key: self.cleaned_data[f"{key}_sizes"]
                            for key in ("preflop", "postflop") if self.cleaned_data[f"{key}_sizes"]}
        if commit:
            user.save()
        return user

    def clean_deck(self) -> str:
        return self.cleaned_data["deck"] or self.instance.deck

    def clean_avatar(self) -> str:
        return self.cleaned_data["avatar"] or self.instance.avatar

    def clean_table_theme(self) -> str:
        return self.cleaned_data["table_theme"] or self.instance.table_theme
