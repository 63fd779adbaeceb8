"""Hand records of scripted hands (known cards, no database) for worked examples."""
from __future__ import annotations

import datetime

from tables.engine import TableRules
from tables.engine.scripted import ScriptedHand
from tables.histories.record import HandRecord

STARTED = datetime.datetime(2026, 11, 23, 13, 41, 10, tzinfo=datetime.UTC)


def record_of(h: ScriptedHand, names: dict[int, str], *, structure: str = "NL",
              real: bool = True, table: str = "Oak", max_seats: int = 6) -> HandRecord:
    """Seat s is user 100 + s."""
    assert h.state.is_over
    return HandRecord(
        hand_id=42, number=7, table_id=1, table_name=table, max_seats=max_seats,
        structure=structure, real_money=real, started_at=STARTED,
        finished_at=STARTED + datetime.timedelta(seconds=50), state=h.state, events=h.events,
        names=names, users={seat: 100 + seat for seat in names},
    )


def heads_up_fold() -> HandRecord:
    """$1/$2 no-limit heads-up: bob (button, small blind) raises to $6, alice folds."""
    h = ScriptedHand(TableRules(lower_stake=200), {1: 20000, 3: 20000}, button=3,
                     holes={1: "AhKd", 3: "7c2d"})
    h.act(3, "raise", 600)
    h.act(1, "fold")
    return record_of(h, {1: "alice", 3: "bob"})


def short_big_blind_side_pot() -> HandRecord:
    """Play money 5/10: carl's big blind is all-in for 4. alice (button) raises to 30, bob calls;
    they check to the river, alice bets 20, bob calls. alice shows kings, bob mucks queens,
    carl's aces win the main pot 12, alice's kings the side pot 92."""
    h = ScriptedHand(TableRules(lower_stake=10), {1: 100, 2: 100, 3: 4}, button=1,
                     holes={1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3s4c")
    h.act(1, "raise", 30)
    h.act(2, "call")
    for _street in ("flop", "turn"):
        h.act(2, "check")
        h.act(1, "check")
    h.act(2, "check")
    h.act(1, "bet", 20)
    h.act(2, "call")
    h.act(1, "show")
    h.act(2, "muck")
    h.act(3, "show")
    return record_of(h, {1: "alice", 2: "bob", 3: "carl"}, real=False)
