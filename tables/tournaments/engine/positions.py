"""Where the button and the blinds go at a tournament table: the dead button.

Tournaments move the big blind forward one player every hand, whoever left the table (TDA
"Dead Button"; PokerStars' tournament rules use the same): the small blind is posted from the
seat that posted the last big blind, and the button sits where the last small blind was. Either
of them may be an empty seat (a dead small blind or a dead button), so nobody ever skips the big
blind and nobody pays it twice in a row. Heads-up the button posts the small blind.

The positions of the next hand therefore follow from the seats of the last hand's blinds and
the occupied seats; balancing (``balancing.py``) ranks empty seats by them and the forced bets
(``levels.py``) are posted from them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Positions:
    """Seats for one hand. ``small_blind`` or ``button`` may be empty seats (dead); heads-up
    ``button == small_blind``."""

    button: int
    small_blind: int
    big_blind: int


def clockwise(start: int, seats: int) -> list[int]:
    """Every seat of a table of ``seats`` (numbered 1..seats) clockwise after ``start``,
    ``start`` itself last."""
    return [(start + k - 1) % seats + 1 for k in range(1, seats + 1)]


def next_occupied(after: int, occupied: Collection[int], seats: int) -> int:
    """The first occupied seat clockwise strictly after ``after`` (``after`` itself if alone)."""
    for seat in clockwise(after, seats):
        if seat in occupied:
            return seat
    raise ValueError("no occupied seat")


def between(seat: int, first: int, last: int, seats: int) -> bool:
    """Whether ``seat`` lies strictly between ``first`` and ``last`` going clockwise."""
    gap = (last - first) % seats
    return 0 < (seat - first) % seats < gap


def next_positions(
    occupied: Collection[int],
    *,
    seats: int,
    last_small_blind: int | None,
    last_big_blind: int | None,
) -> Positions:
    """The next hand's button and blinds under the dead button.

    First hand (``last_big_blind`` None): the button on the first occupied seat from seat 1
    (PokerStars: "the button will be positioned at Seat 1 to start play"), the blinds on the next
    two occupied seats. Afterwards the big blind moves to the next occupied seat, the small blind
    is the last big blind's seat, the button the last small blind's seat.
    """
    if len(occupied) < 2:
        raise ValueError("a hand needs two players")
    if last_big_blind is None:
        button = next_occupied(seats, occupied, seats)  # seat 1 if occupied
        if len(occupied) == 2:
            return Positions(button, button, next_occupied(button, occupied, seats))
        small = next_occupied(button, occupied, seats)
        return Positions(button, small, next_occupied(small, occupied, seats))
    big = next_occupied(last_big_blind, occupied, seats)
    if len(occupied) == 2:
        # Heads-up the button posts the small blind: the other player takes it.
        other = next_occupied(big, occupied, seats)
        return Positions(other, other, big)
    button = last_small_blind if last_small_blind is not None else last_big_blind
    if button == big:
        # Out of heads-up (a newcomer joined; the button had posted the small blind) the button
        # would land on the big blind: it goes to the seat right of the small blind, dead if empty.
        button = (last_big_blind - 2) % seats + 1
    return Positions(button, last_big_blind, big)


def big_blind_order(occupied: Collection[int], positions: Positions, seats: int) -> list[int]:
    """Occupied seats in the order they post the big blind from the next hand on: clockwise
    from the small blind's seat, which (having just paid the big blind) comes last."""
    return [s for s in clockwise(positions.small_blind, seats) if s in occupied]


def hands_until_big_blind(
    seat: int, occupied: Collection[int], positions: Positions, seats: int
) -> int:
    """How many hands the player on ``seat`` (occupied, or an empty seat a newcomer takes) plays
    before he posts the big blind; 0: he posts it next hand. A seat strictly between the small
    and the big blind takes the next big blind at once; the small blind's own seat and the seats
    just after the button come last."""
    index = clockwise(positions.small_blind, seats).index
    mine = index(seat)
    return sum(1 for s in occupied if s != seat and index(s) < mine)


def waits_for_big_blind(seat: int, positions: Positions, seats: int) -> bool:
    """A newcomer on ``seat`` is dealt in except between the small blind and the button (TDA:
    "dealt in except between the small blind and button"): there he would take the button before
    paying any blind, so he waits until the big blind reaches him."""
    return between(seat, positions.button, positions.small_blind, seats)
