from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractUser
from django.db import models

MINIMUM_AGE = 18


def age_on(birth: datetime.date, today: datetime.date) -> int:
    """Whole years between birth and today (a birthday today counts)."""
    return today.year - birth.year - ((today.month, today.day) < (birth.month, birth.day))


class User(AbstractUser):
    """A player or staff member. Date of birth is kept to prove the 18+ check was made."""

    date_of_birth = models.DateField(null=True, blank=True)
    display_name = models.CharField(
        max_length=32, blank=True, help_text="Shown at the tables instead of the username."
    )
    is_bot = models.BooleanField(default=False, help_text="Played by the bots command.")

    @property
    def table_name(self) -> str:
        return self.display_name or self.username
