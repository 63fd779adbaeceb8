"""Signals other apps listen to (the cashier grants play money at sign-up)."""
from __future__ import annotations

from django.dispatch import Signal

user_signed_up = Signal()  # kwargs: user
