"""Template context for every page: the signed-in player's wallet balances for the header."""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def balances(request: HttpRequest) -> dict[str, Any]:
    """`header_balances`: [(currency, amount in minor units, formatted)] for a signed-in user."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from cashier.money import money_format
    from cashier.selectors import balances_for

    found = balances_for(user=user)
    rows = [(currency, found.get(currency, 0), money_format(found.get(currency, 0), currency))
            for currency in ("PLAY", "REAL")]
    return {"header_balances": rows}
