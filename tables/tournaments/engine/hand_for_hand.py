"""Hand-for-hand on the bubble: no table deals its next hand until every table has finished the
current one, so nobody can stall his way into the money.

When: from the moment the next bust is the bubble, that is ``players_left == paid + 1`` with
more than one table playing (PokerStars starts it there; some live rooms start a few players
earlier, which only slows the game), until the money is reached (``players_left <= paid``).
A single table plays hand for hand by nature.

State: per table, how many hands it has dealt since hand-for-hand began and whether one is in
play. A table that has finished its hand number ``h`` may deal hand ``h + 1`` once every other
table has finished hand ``h`` too (or already dealt ``h + 1``). Tables that cannot deal
(fewer than two players: they wait for balancing) are not waited for. Everything is a count the
caller stores with its tables, so a restart resumes where it stopped. The hands with the same
count form one synchronised hand: busts in them rank together (``ranking.places``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableHands:
    """One table under hand-for-hand: ``hands`` dealt since it began, ``in_hand`` one in play,
    ``players`` seated now."""

    hands: int
    in_hand: bool
    players: int


def hand_for_hand_on(players_left: int, paid_places: int, tables: int) -> bool:
    return tables > 1 and players_left == paid_places + 1


def may_deal(table: Hashable, tables: Mapping[Hashable, TableHands]) -> bool:
    """Whether ``table`` may deal its next hand now."""
    me = tables[table]
    if me.in_hand or me.players < 2:
        return False
    return all(t.hands > me.hands or (t.hands == me.hands and not t.in_hand)
               for t in tables.values() if t.players >= 2)
