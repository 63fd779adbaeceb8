"""Rake per table rule: basis points floored to the bet unit, capped, no flop no drop."""

from __future__ import annotations

from .structures import RakeRule


def rake_cap(rule: RakeRule, players_dealt: int) -> int | None:
    """The cap for this many players dealt in (nearest smaller key in ``cap_by_players``)."""
    if rule.cap_by_players:
        keys = [k for k in rule.cap_by_players if k <= players_dealt]
        if keys and players_dealt <= max(rule.cap_by_players):
            return rule.cap_by_players[max(keys)]
    return rule.cap


def compute_rake(
    rule: RakeRule, pot_total: int, players_dealt: int, flop_seen: bool, unit: int = 1
) -> int:
    """The house's share of a finished pot (after uncalled bets were returned)."""
    if rule.percent_bp <= 0 or pot_total <= 0:
        return 0
    if rule.no_flop_no_drop and not flop_seen:
        return 0
    amount = pot_total * rule.percent_bp // 10000
    amount = amount // unit * unit
    cap = rake_cap(rule, players_dealt)
    if cap is not None and amount > cap:
        amount = cap
    return min(amount, pot_total)
