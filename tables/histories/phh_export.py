"""Hand histories as PHH (https://phh.readthedocs.io), written by the engine's own PHH writer.

Seen by one player: his hole cards, and other players' cards only when shown (``????``
otherwise, mucked hands included). Amounts are the table's minor unit (cents at real-money
tables, recorded in ``currency`` and the ``_minor_units`` user field). Pokerkit reads these files
to our stacks, except where a player only calls a big blind all-in for less than its size
(pokerkit lowers the bet to the post; our rules and ``tables.engine.phh.replay`` do not).
Timeout all-ins, out-of-position big blinds and cards shown after the hand are written as
``tables.engine.phh.from_hand`` says.
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.engine import phh
from tables.histories.record import HandRecord


def hand_history(record: HandRecord, user_id: int | None) -> phh.HandHistory:
    """The PHH of one hand as ``user_id`` may see it."""
    hh = phh.from_hand(record.state, record.for_viewer(user_id))
    hh.extra["players"] = [record.names.get(seat, f"Seat {seat}") for seat in hh.extra["seats"]]
    started = record.started_at
    hh.extra.update({
        "venue": "Poker Room", "table": record.table_name, "hand": record.hand_id,
        "year": started.year, "month": started.month, "day": started.day,
        "time": started.time().replace(microsecond=0, tzinfo=None), "time_zone": "UTC",
    })
    if record.real_money:
        hh.extra["currency"] = "USD"
        hh.extra["_minor_units"] = 100
    return hh


def hand_text(record: HandRecord, user_id: int | None) -> str:
    return phh.dumps(hand_history(record, user_id))


def hands_text(records: Iterable[HandRecord], user_id: int | None) -> str:
    """Several hands in one ``.phhs`` text: ``[1]``, ``[2]``, ... TOML tables, the PHH spec's
    hand sets (``tables.engine.phh.loads_all`` and pokerkit's ``HandHistory.loads_all`` read
    them)."""
    return "\n".join(f"[{k}]\n" + hand_text(record, user_id)
                     for k, record in enumerate(records, start=1))
