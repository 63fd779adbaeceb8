from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models

from accounts import avatars
from accounts.names import check_display_name, check_new_username, normalize_display_name

MINIMUM_AGE = 18


def age_on(birth: datetime.date, today: datetime.date) -> int:
    """Whole years between birth and today (a birthday today counts)."""
    return today.year - birth.year - ((today.month, today.day) < (birth.month, birth.day))


class Deck(models.TextChoices):
    FOUR = "four", "Four colours (diamonds blue, clubs green)"
    TWO = "two", "Two colours (red and black)"


class TableTheme(models.TextChoices):
    GREEN = "green", "Green felt"
    BLUE = "blue", "Blue felt"
    DARK = "dark", "Dark (low light)"


class User(AbstractUser):
    """A player or staff member. Date of birth is kept to prove the 18+ check was made."""

    date_of_birth = models.DateField(null=True, blank=True)
    display_name = models.CharField(
        max_length=32, blank=True, help_text="Shown at the tables instead of the username."
    )
    is_bot = models.BooleanField(default=False, help_text="Played by the bots command.")
    deck = models.CharField(max_length=4, choices=Deck.choices, default=Deck.FOUR,
                            help_text="How the cards are drawn for him.")
    table_theme = models.CharField(max_length=5, choices=TableTheme.choices,
                                   default=TableTheme.GREEN, verbose_name="table theme")
    avatar = models.CharField(
        max_length=12, choices=avatars.CHOICES, default=avatars.GENERATED,
        help_text="Shown on his seat: a built-in emblem, or a pattern generated from his id "
                  "(accounts/avatars.py). No uploads.")
    bet_presets = models.JSONField(
        default=dict, blank=True,
        help_text='His own bet-size buttons: {"preflop": [2.5, 3] (multiples of the big blind, '
                  'or of the raise he faces), "postflop": [33, 50, 75] (% of the pot)}; empty: '
                  "the room's.")
    hotkeys = models.JSONField(
        default=dict, blank=True,
        help_text='His keyboard shortcuts at the table, {action: key} (accounts/hotkeys.py); '
                  "empty: the room's (F, C, R, 1 to 4).")

    @property
    def table_name(self) -> str:
        return self.display_name or self.username

    @property
    def avatar_key(self) -> str:
        """What his seat carries to the tables (accounts/avatars.py): never a URL."""
        return avatars.avatar_key(self.pk, self.avatar)

    def clean(self) -> None:
        """Names that could pass for another player are refused (accounts/names.py), in every
        form that saves a user: sign-up, profile and admin."""
        super().clean()
        errors: dict[str, ValidationError] = {}
        self.display_name = normalize_display_name(self.display_name)
        if self.display_name:
            try:
                check_display_name(self.display_name, user_pk=self.pk, staff=self.is_staff)
            except ValidationError as e:
                errors["display_name"] = e
        if self.pk is None and self.username:  # a new account
            try:
                check_new_username(self.username, staff=self.is_staff)
            except ValidationError as e:
                errors["username"] = e
        if errors:
            raise ValidationError(errors)


class SignUpCount(models.Model):
    """Sign-ups from one network on one UTC day (accounts/throttle.py): each sign-up grants play
    money, so one address may not make accounts without end. Rows of past days are deleted."""

    network = models.CharField(max_length=64)
    day = models.DateField(db_index=True)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["network", "day"],
                                               name="signup_count_network_day")]

    def __str__(self) -> str:
        return f"{self.count} sign-ups from {self.network} on {self.day}"
