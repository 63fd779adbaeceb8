"""The one-line description of a table an operator reads before saving it, e.g.
"NL $1/$2, buy-in $80-$200, rake 5 % capped at $3" (ranges with an en dash)."""
from __future__ import annotations

from decimal import Decimal

from cashier.money import Currency, money_format
from tables.models import Structure, TableConfig

DASH = "\N{EN DASH}"
STRUCTURE_SHORT = {Structure.NO_LIMIT: "NL", Structure.POT_LIMIT: "PL",
                   Structure.FIXED_LIMIT: "Limit"}


def _unit(table: TableConfig) -> str:
    """The line names play money's unit once per amount or range ("2,500 chips")."""
    return "" if table.currency == Currency.REAL else " chips"


def _amount(table: TableConfig, amount: int) -> str:
    """"$2.50" for real money; "2,500 chips" for play money."""
    return money_format(amount, table.currency) + _unit(table)


def _range(table: TableConfig, low: int, high: int) -> str:
    if low == high:
        return _amount(table, low)
    money = table.currency
    return f"{money_format(low, money)}{DASH}{money_format(high, money)}{_unit(table)}"


def buy_in_range(table: TableConfig) -> str:
    """"$80-$200" (en dash), "800-2,000 chips", or one amount when the minimum is the maximum."""
    return _range(table, table.min_buy_in, table.max_buy_in)


def _percent(value: Decimal) -> str:
    """5.00 → "5", 4.50 → "4.5"."""
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _caps_by_players(table: TableConfig) -> str:
    """Caps by players dealt in, as the engine applies them: a key's cap holds up to the next
    key; above the largest key (and below the smallest) the table's general cap applies.
    {"2": 50, "3": 100, "5": 300} → "$0.50 with 2 dealt in, $1 with 3-4, $3 with 5"."""
    caps = sorted((int(n), cap) for n, cap in (table.rake_cap_by_players or {}).items())
    parts = []
    for index, (players, cap) in enumerate(caps):
        last = caps[index + 1][0] - 1 if index + 1 < len(caps) else players
        dealt = str(players) if last == players else f"{players}{DASH}{last}"
        parts.append(f"{_amount(table, cap)} with {dealt}" + (" dealt in" if not index else ""))
    return ", ".join(parts)


def rake_line(table: TableConfig) -> str:
    """"rake 5 % capped at $3", "no rake", ..."""
    if not table.rake_percent:
        return "no rake"
    line = f"rake {_percent(table.rake_percent)} %"
    if table.rake_cap:
        line += f" capped at {_amount(table, table.rake_cap)}"
    by_players = _caps_by_players(table)
    if by_players:
        line += f" ({by_players})" if table.rake_cap else f" capped at {by_players}"
    if not table.no_flop_no_drop:
        line += ", taken without a flop too"
    return line


def table_line(table: TableConfig) -> str:
    """The table in one line: structure and stakes, ante, buy-in range and rake."""
    stakes = table.stakes_label()
    if table.currency == Currency.PLAY:
        stakes += " chips"
    parts = [f"{STRUCTURE_SHORT[Structure(table.structure)]} {stakes}"]
    if table.ante:
        parts.append(f"ante {_amount(table, table.ante)}")
    parts.append(f"buy-in {buy_in_range(table)}")
    parts.append(rake_line(table))
    return ", ".join(parts)
