"""Template context for every page: the signed-in player's wallet balances for the header."""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def balances(request: HttpRequest) -> dict[str, Any]:
    """`header_balances`: [(currency, amount in minor units, formatted)] for a signed-in user,
    read only by a template that shows them: the lobby's 5 s poll and the other htmx
    partials render no header, and reading the wallets was 7 % of daphne's CPU in the
    capacity run."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"header_balances": SimpleLazyObject(lambda: _rows(user))}


def _rows(user: Any) -> list[tuple[str, int, str]]:
    from cashier.money import money_format
    from cashier.selectors import balances_for

    found = balances_for(user=user)
    return [(currency, found.get(currency, 0), money_format(found.get(currency, 0), currency))
            for currency in ("PLAY", "REAL")]
