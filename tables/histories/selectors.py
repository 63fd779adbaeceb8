"""Which finished hands a player sees on "My hands": filters by table, dates and outcome."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from tables.histories.record import hands_of

MAX_DOWNLOAD = 500  # hands in one download of a selection


@dataclass(frozen=True)
class HandFilters:
    table_id: int | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    outcome: str = ""  # "", "won" (net > 0), "lost" (net < 0)


def net_of(state: dict, user_id: int) -> int:
    """The player's winnings (negative: losses) in a finished hand's saved engine state."""
    for p in (state.get("result") or {}).get("players", []):
        if str(p["player_id"]) == str(user_id):
            return int(p["net"])
    return 0


def my_hand_ids(user_id: int, filters: HandFilters) -> list[int]:
    """Ids of the user's finished hands matching ``filters``, newest first.

    Table and dates are filtered in the database; won/lost needs each hand's result, read from
    its saved state."""
    hands = hands_of(user_id)
    if filters.table_id is not None:
        hands = hands.filter(table_id=filters.table_id)
    if filters.since is not None:
        hands = hands.filter(started_at__date__gte=filters.since)
    if filters.until is not None:
        hands = hands.filter(started_at__date__lte=filters.until)
    if not filters.outcome:
        return list(hands.values_list("id", flat=True))
    ids = []
    for hand_id, state in hands.values_list("id", "state").iterator(chunk_size=200):
        net = net_of(state, user_id)
        if (net > 0) if filters.outcome == "won" else (net < 0):
            ids.append(hand_id)
    return ids
