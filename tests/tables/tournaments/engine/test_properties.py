"""Random tournaments: entries (re-entries and late registrations included), busts, breaking and
balancing. Whatever happens:

- the chips in play equal entries x starting stack + the chips bought (rebuys, add-ons): a
  re-entry or a late registration buys a fresh stack, a rebuy (a busted player's, before his
  bust is taken, or a short stack's) or an add-on adds its chips between hands, and an entry
  re-enters only once it has busted, with 0 chips, so nothing is ever forfeited (the TDA's
  "forfeited chips are removed from play" never applies here);
- balancing never leaves tables more than one apart (when no table is in a hand), uses no more
  tables than the field needs, never moves a player twice in one rebalance, and never seats two
  players on one seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.tournaments.engine.balancing import (
    SeatedPlayer,
    TableView,
    rebalance,
    seat_newcomer,
    tables_needed,
)
from tables.tournaments.engine.levels import Break, Level
from tables.tournaments.engine.positions import next_positions
from tables.tournaments.engine.purchases import Holding, PurchaseTerms, can_addon, can_rebuy

STACK = 1500
REBUY = PurchaseTerms(max_rebuys=2, rebuy_levels=1, rebuy_chips=STACK, rebuy_max_stack=STACK,
                      addon_chips=2 * STACK)


@dataclass
class Table:
    seats: dict[int, str] = field(default_factory=dict)  # seat -> entry
    sb: int | None = None
    bb: int | None = None
    busy: bool = False


@dataclass
class Room:
    size: int
    tables: dict[int, Table] = field(default_factory=dict)
    chips: dict[str, int] = field(default_factory=dict)  # entry -> chips (0 once busted)
    moved: dict[str, int] = field(default_factory=dict)
    entries: int = 0
    bought: int = 0  # chips bought by rebuys and add-ons
    rebuys: dict[str, int] = field(default_factory=dict)
    addons: set[str] = field(default_factory=set)
    next_table: int = 1

    def views(self) -> list[TableView]:
        return [TableView(tid, tuple(SeatedPlayer(e, s, self.moved.get(e, 0))
                                     for s, e in sorted(t.seats.items())),
                          t.sb, t.bb, t.busy) for tid, t in self.tables.items()]

    def seated(self) -> list[str]:
        return [e for t in self.tables.values() for e in t.seats.values()]

    def new_table(self) -> Table:
        self.tables[self.next_table] = table = Table()
        self.next_table += 1
        return table

    def enter(self, entry: str, rng: random.Random) -> None:
        self.entries += 1
        self.chips[entry] = STACK
        where = seat_newcomer(self.views(), seats=self.size, rng=rng)
        if where is None:
            self.new_table().seats[1] = entry
        else:
            assert where.seat not in self.tables[where.table_id].seats
            self.tables[where.table_id].seats[where.seat] = entry


def check_rebalance(room: Room, rng: random.Random) -> None:
    views = room.views()
    moves = rebalance(views, seats=room.size, rng=rng)
    moved = [m.player_id for m in moves]
    assert len(moved) == len(set(moved)), "a player moved twice"
    for m in moves:
        source, target = room.tables[m.from_table], room.tables[m.to_table]
        assert not source.busy and source.seats.get(m.from_seat) == m.player_id
        assert 1 <= m.to_seat <= room.size and m.to_seat not in target.seats, "seat taken"
        del source.seats[m.from_seat]
        target.seats[m.to_seat] = m.player_id
        room.moved[m.player_id] = room.moved.get(m.player_id, 0) + 1
    room.tables = {tid: t for tid, t in room.tables.items() if t.seats}
    sizes = [len(t.seats) for t in room.tables.values()]
    if not any(v.busy for v in views):
        assert max(sizes) - min(sizes) <= 1, sizes
        assert len(sizes) == tables_needed(sum(sizes), room.size)


def buy(room: Room, entry: str, *, rebuys_open: bool, addon_break: bool,
        draw: st.DataObject) -> None:
    """Between hands: the entry may rebuy (if the rules let it) and take the add-on."""
    holding = Holding(room.chips[entry], room.rebuys.get(entry, 0), entry in room.addons)
    if can_rebuy(REBUY, level=1 if rebuys_open else 2, holding=holding) and draw.draw(
            st.booleans()):
        room.chips[entry] += REBUY.rebuy_chips
        room.bought += REBUY.rebuy_chips
        room.rebuys[entry] = holding.rebuys + 1
    if can_addon(REBUY, [Level(1, 2, 1), Break(1), Level(1, 2, 1)], level=1,
                 on_break=addon_break, holding=holding) and draw.draw(st.booleans()):
        room.chips[entry] += REBUY.addon_chips
        room.bought += REBUY.addon_chips
        room.addons.add(entry)


def play_hand(room: Room, tid: int, draw: st.DataObject, *, rebuys_open: bool = False,
              addon_break: bool = False) -> list[str]:
    """One hand: chips change hands; then, before busts are taken, rebuys and add-ons join
    the stacks (a busted player who rebuys plays on); the rest bust. Returns the busted."""
    table = room.tables[tid]
    pos = next_positions(table.seats, seats=room.size, last_small_blind=table.sb,
                         last_big_blind=table.bb)
    table.sb, table.bb = pos.small_blind, pos.big_blind
    players = sorted(table.seats.values())
    winner = draw.draw(st.sampled_from(players))
    others = [p for p in players if p != winner]
    busted = draw.draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    for loser in others:
        lost = room.chips[loser] if loser in busted else draw.draw(
            st.integers(0, room.chips[loser] - 1))
        room.chips[loser] -= lost
        room.chips[winner] += lost
    for entry in players:
        buy(room, entry, rebuys_open=rebuys_open, addon_break=addon_break, draw=draw)
    busted = [e for e in busted if room.chips[e] == 0]
    for seat, entry in list(table.seats.items()):
        if entry in busted:
            del table.seats[seat]
    return busted


@settings(max_examples=120, deadline=None)
@given(draw=st.data(), size=st.integers(2, 10), field_size=st.integers(2, 40),
       reentries=st.integers(0, 2), late_hands=st.integers(0, 40), seed=st.integers(0, 2**32))
def test_chips_are_conserved_and_balancing_stays_sound(
        draw: st.DataObject, size: int, field_size: int, reentries: int, late_hands: int,
        seed: int) -> None:
    rng = random.Random(seed)
    room = Room(size)
    for k in range(field_size):
        room.enter(f"p{k}", rng)
    check_rebalance(room, rng)
    hands = 0
    while len(room.seated()) > 1 and hands < 300:
        playable = [tid for tid, t in room.tables.items() if len(t.seats) >= 2]
        if not playable:  # lone players wait for a table that was in a hand to break
            check_rebalance(room, rng)
            continue
        tid = draw.draw(st.sampled_from(playable))
        busted = play_hand(room, tid, draw, rebuys_open=hands < late_hands,
                           addon_break=hands == late_hands)
        hands += 1
        for entry in busted:  # re-entry while late registration is open, up to the limit
            player, _, count = entry.partition("#")
            n = int(count or 0)
            if hands <= late_hands and n < reentries and draw.draw(st.booleans()):
                room.enter(f"{player}#{n + 1}", rng)
        if hands <= late_hands and draw.draw(st.booleans()):
            room.enter(f"late{hands}", rng)  # a late registration
        for t in room.tables.values():  # some tables are mid-hand when balancing runs
            t.busy = len(t.seats) >= 2 and draw.draw(st.integers(0, 4)) == 0
        check_rebalance(room, rng)
        for t in room.tables.values():
            t.busy = False
        assert sum(room.chips[e] for e in room.seated()) == room.entries * STACK + room.bought
        assert all(room.chips[e] > 0 for e in room.seated())
        assert sum(room.chips.values()) == room.entries * STACK + room.bought  # busted: 0
    check_rebalance(room, rng)
