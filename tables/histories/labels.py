"""Words for people: seat positions (BTN, SB, BB, UTG, ...) and signed winnings."""

from __future__ import annotations

from cashier.money import money_format
from tables.engine import HandState


def positions(state: HandState) -> dict[int, str]:
    """Seat -> position name, from the engine's dealing order (first seat left of the button
    first, the button last when dealt in). Heads-up the button is the small blind: "BTN/SB"."""
    seats = [p.seat for p in state.players]
    n = len(seats)
    if n == 2:
        return {seats[1]: "BTN/SB", seats[0]: "BB"}
    names = {seats[0]: "SB", seats[1]: "BB"}
    middle = seats[2:]
    if state.button in seats:
        names[seats[-1]] = "BTN"
        middle = middle[:-1]
    late = ["CO", "HJ", "LJ"][: max(0, len(middle) - 1)]  # nearest the button, backwards
    early = len(middle) - len(late)
    for k, seat in enumerate(middle[:early]):
        names[seat] = "UTG" if k == 0 else f"UTG+{k}"
    for seat, name in zip(reversed(middle[early:]), late, strict=True):
        names[seat] = name
    return names


def signed_money(amount: int, currency: str) -> str:
    """Winnings with their sign: ``+$5``, ``-$2.50``, ``0`` (cashier.money.money_format)."""
    return ("+" if amount > 0 else "") + money_format(amount, currency)
