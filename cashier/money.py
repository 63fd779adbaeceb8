"""Formatting integer minor units for people: cents as dollars, play money as chips."""
from __future__ import annotations

from tables.models import Currency


def money_format(amount: int, currency: str) -> str:
    """`money_format(123456, "REAL")` → "$1,234.56"; `money_format(2500, "PLAY")` → "2,500 chips"."""
    if currency == Currency.REAL:
        sign = "-" if amount < 0 else ""
        dollars, cents = divmod(abs(amount), 100)
        return f"{sign}${dollars:,}.{cents:02d}"
    return f"{amount:,} chips"
