"""Breaking and balancing tables between hands: ``rebalance(tables) -> moves``.

The rules, with their sources (docs/tournaments.md has the worked examples):

- **How many players a table holds.** With ``n`` players and tables of ``seats``, the field
  needs ``ceil(n / seats)`` tables and no table holds more than DD Poker's target
  ``ceil(n / ceil(n / seats))`` (DD Poker, ``OtherTables.getMaxPlayersPerTable``); every table
  is within one player of every other (PokerStars balances tables to equal counts, or as close
  as possible; the TDA leaves how close to the TD).
- **Breaking.** While there are more tables than the field needs, the table with the fewest
  players breaks (DD Poker and poker-network break the emptiest table first; on equal counts the
  table listed last breaks, the rooms' "predetermined procedure", TDA Rule 10-C). Its players
  are seated by a two-step random draw (TDA: "assigned new tables and seats by a 2-step random
  process"): a table drawn among those with the fewest players, then an empty seat drawn at
  it. They may land on any seat, blinds and button included, and are dealt in except between the
  small blind and the button, where they wait for the big blind (TDA; ``Move.waits_for_big_blind``).
- **Balancing.** While two tables differ by two or more, one player moves from the table with the
  most players to the table with the fewest. At the giving table the player moved is the one due
  to be big blind next (TDA: "the player to be big blind next moves to the worst position"),
  unless he has been moved more often than another player there: the candidates are ordered by
  (times moved, hands until his big blind), so among the players moved fewest times (PokerStars:
  "the system tries to choose a player who has been moved fewer times than others") the one
  nearest the big blind goes. He takes the worst seat at the short table: the empty seat that
  posts the big blind soonest, which may be the very next big blind ("including single big blind
  if available"), never the small blind ("worst position is never the small blind").
- **Spreading.** Equal giving tables: the one that gave fewest in this rebalance, then the one
  listed first; equal receiving tables: the one that received fewest, then the one listed first.
  Nobody moves twice in one rebalance and a table that received never gives.
- **The final table.** When the field fits one table every other table breaks into it (no
  redraw of the final table's seats).

A table in the middle of a hand (``TableView.busy``) gives no player and does not break (its
players are in the hand); it may receive players, who sit down for its next hand. Moves are
applied between hands only, which is why a busy giver is skipped until its hand ends and the
caller calls again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .positions import (
    Positions,
    clockwise,
    hands_until_big_blind,
    next_positions,
    waits_for_big_blind,
)

TableId = Hashable


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """One entry sitting at a table; ``times_moved`` counts its earlier balancing moves."""

    player_id: str
    seat: int
    times_moved: int = 0


@dataclass(frozen=True, slots=True)
class TableView:
    """A table as balancing sees it. ``last_small_blind``/``last_big_blind``: the last hand's
    ``Positions.small_blind``/``big_blind`` (the small blind's seat even when it was dead; None
    before the table's first hand); ``busy``: a hand is being played there now."""

    table_id: TableId
    players: tuple[SeatedPlayer, ...]
    last_small_blind: int | None = None
    last_big_blind: int | None = None
    busy: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """One player's move. ``waits_for_big_blind``: he sits out until the big blind reaches his
    seat (he landed between the small blind and the button)."""

    player_id: str
    from_table: TableId
    from_seat: int
    to_table: TableId
    to_seat: int
    reason: Literal["break", "balance"]
    waits_for_big_blind: bool = False


def tables_needed(players: int, seats: int) -> int:
    return max(1, math.ceil(players / seats))


def target_size(players: int, seats: int) -> int:
    """DD Poker's most players a table may hold: ``ceil(n / ceil(n / seats))``."""
    return math.ceil(players / tables_needed(players, seats)) if players else 0


@dataclass(slots=True)
class _Table:
    view: TableView
    order: int
    seats: dict[int, SeatedPlayer] = field(default_factory=dict)
    gave: int = 0
    received: int = 0
    arrived: set[str] = field(default_factory=set)


def _positions(view: TableView, seats: int) -> Positions | None:
    """The table's next-hand positions from its seats as they stand (None before its first hand
    or with one player)."""
    occupied = {p.seat for p in view.players}
    if view.last_big_blind is None or len(occupied) < 2:
        return None
    return next_positions(occupied, seats=seats, last_small_blind=view.last_small_blind,
                          last_big_blind=view.last_big_blind)


@dataclass(frozen=True, slots=True)
class _Arrival:
    until: int  # hands he plays before he posts the big blind
    waits: bool  # he waits for the big blind (between the small blind and the button)


def _arrival(view: TableView, taken: set[int], seat: int, seats: int) -> _Arrival:
    """A newcomer on free ``seat`` of a table whose ``taken`` seats are occupied, judged by the
    positions the table's next hand will have with him (so a heads-up table that receives plays
    its next hand three-handed). Before the table's first hand everybody is dealt in."""
    occupied = taken | {seat}
    if view.last_big_blind is None or len(occupied) < 2:
        return _Arrival(0, False)
    pos = next_positions(occupied, seats=seats, last_small_blind=view.last_small_blind,
                         last_big_blind=view.last_big_blind)
    return _Arrival(hands_until_big_blind(seat, occupied, pos, seats),
                    waits_for_big_blind(seat, pos, seats))


def rebalance(tables: Sequence[TableView], *, seats: int, rng: random.Random) -> list[Move]:
    """The moves that break and balance ``tables`` (tables of ``seats`` seats), in order."""
    state = [_Table(view=t, order=k, seats={p.seat: p for p in t.players})
             for k, t in enumerate(tables)]
    for t in state:
        if len(t.seats) != len(t.view.players) or any(not 1 <= s <= seats for s in t.seats):
            raise ValueError(f"table {t.view.table_id!r}: bad or shared seats")
    n = sum(len(t.seats) for t in state)
    moves: list[Move] = []
    live = [t for t in state if t.seats]
    # The tables to break are chosen at once, so nobody seated from one broken table is moved
    # again when the next one breaks.
    by_size = sorted(live, key=lambda t: (len(t.seats), -t.order))
    victims = by_size[:max(0, len(live) - tables_needed(n, seats))]
    live = [t for t in live if t not in victims]
    for victim in victims:
        if not victim.view.busy:
            _break(victim, live, seats, rng, moves)
    if any(v.view.busy for v in victims):
        return moves  # a table in a hand breaks after it; balancing waits for that
    while live:
        short = min(live, key=lambda t: (len(t.seats), t.received, t.order))
        givers = [t for t in live if not t.view.busy and not t.arrived
                  and len(t.seats) >= len(short.seats) + 2]
        if not givers:
            break
        giver = min(givers, key=lambda t: (-len(t.seats), t.gave, t.order))
        moves.append(_balance_one(giver, short, seats))
    return moves


def _break(victim: _Table, live: list[_Table], seats: int, rng: random.Random,
           moves: list[Move]) -> None:
    leaving = sorted(victim.seats.values(), key=lambda p: p.seat)
    rng.shuffle(leaving)
    for p in leaving:
        fewest = min(len(t.seats) for t in live)
        table = rng.choice([t for t in live if len(t.seats) == fewest and len(t.seats) < seats])
        seat = rng.choice([s for s in range(1, seats + 1) if s not in table.seats])
        waits = _arrival(table.view, set(table.seats), seat, seats).waits
        del victim.seats[p.seat]
        _seat(table, p, seat)
        moves.append(Move(p.player_id, victim.view.table_id, p.seat, table.view.table_id, seat,
                          "break", waits))


def _balance_one(giver: _Table, short: _Table, seats: int) -> Move:
    pos = _positions(giver.view, seats)
    occupied = set(giver.seats)

    def due(p: SeatedPlayer) -> tuple[int, int, int]:
        # Hands until his big blind: 0 for the player due to be big blind next.
        until = 0 if pos is None else hands_until_big_blind(p.seat, occupied, pos, seats)
        return (p.times_moved, until, p.seat)

    player = min(giver.seats.values(), key=due)
    taken = set(short.seats)
    empty = [s for s in range(1, seats + 1) if s not in taken]
    arrivals = {s: _arrival(short.view, taken, s, seats) for s in empty}
    # The worst seat posts the big blind soonest; of seats equally soon, the first clockwise from
    # the small blind (the last big blind's seat), whose own seat comes last: never the small
    # blind while another seat is free, and a short table always has two free seats or more (it
    # is two players short of the giver).
    order = clockwise(short.view.last_big_blind or seats, seats).index
    seat = min(empty, key=lambda s: (arrivals[s].until, order(s)))
    waits = arrivals[seat].waits
    del giver.seats[player.seat]
    giver.gave += 1
    _seat(short, player, seat)
    return Move(player.player_id, giver.view.table_id, player.seat, short.view.table_id, seat,
                "balance", waits)


def _seat(table: _Table, p: SeatedPlayer, seat: int) -> None:
    table.seats[seat] = SeatedPlayer(p.player_id, seat, p.times_moved + 1)
    table.received += 1
    table.arrived.add(p.player_id)


@dataclass(frozen=True, slots=True)
class Seating:
    """Where a newcomer (late registration, re-entry) sits."""

    table_id: TableId
    seat: int
    waits_for_big_blind: bool


def seat_newcomer(tables: Sequence[TableView], *, seats: int, rng: random.Random) -> Seating | None:
    """A random seat for a late registrant or a re-entry, with a full starting stack (TDA:
    "randomly draw a seat ... dealt in except between small blind and button"; issue 28: "a random
    seat, not between the small blind and the button").

    The table is drawn among those with the fewest players, so the field stays balanced; the seat
    among its empty seats that are not between the small blind and the button, or, when every
    empty seat there is, among those, and he waits for the big blind. None: every table is full
    (the caller opens a new table and rebalances).
    """
    open_tables = [t for t in tables if len(t.players) < seats]
    if not open_tables:
        return None
    fewest = min(len(t.players) for t in open_tables)
    table = rng.choice([t for t in open_tables if len(t.players) == fewest])
    taken = {p.seat for p in table.players}
    empty = [s for s in range(1, seats + 1) if s not in taken]
    dealt_in = [s for s in empty if not _arrival(table, taken, s, seats).waits]
    if dealt_in:
        return Seating(table.table_id, rng.choice(dealt_in), False)
    return Seating(table.table_id, rng.choice(empty), True)
