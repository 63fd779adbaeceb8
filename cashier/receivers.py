"""Signal receivers (connected in CashierConfig.ready)."""
from __future__ import annotations

from typing import Any

from cashier.services.play_money import play_money_grant


def grant_play_money_on_sign_up(sender: Any, user: Any, **kwargs: Any) -> None:
    """Every new player starts with the play-money grant (idempotent per player)."""
    play_money_grant(user=user)
