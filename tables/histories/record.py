"""A finished hand as the histories read it: the engine's final state, the engine's events in
order, the players' names and the table's labels.

This module is the only place that knows how hands are stored: ``engine_events`` turns the
table's HandEvent rows back into the engine's own event vocabulary (``tables/engine``), and
``hands_of`` finds the hands a player was dealt into. A change of the table event protocol
touches these two functions only; everything else (hand page, replayer, PokerStars text, PHH)
works on ``HandRecord``. Hole cards come from the engine's final state (``Hand.state``), never
from the events, and ``for_viewer`` decides who sees which.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tables.engine import HandState, describe, visible_hole

# The engine's event types (tables/engine/state.py, flow.py, actions.py) the histories replay.
ENGINE_EVENTS = frozenset((
    "hand_start", "posted_ante", "posted_blind", "hole_cards", "action", "board",
    "returned_uncalled", "shown", "mucked", "pot_awarded", "rake", "hand_end",
    "run_twice_offer", "run_twice_vote", "run_twice_decided", "second_board",  # run it twice
))


@dataclass
class HandRecord:
    """One finished hand, with every card known; ``for_viewer`` makes the copy a player sees."""

    hand_id: int
    number: int
    table_id: int
    table_name: str
    max_seats: int
    structure: str  # "NL", "PL", "FL" (TableConfig.Structure)
    real_money: bool
    started_at: datetime.datetime
    finished_at: datetime.datetime
    state: HandState
    events: list[dict[str, Any]]
    names: dict[int, str] = field(default_factory=dict)  # seat -> display name
    users: dict[int, int] = field(default_factory=dict)  # seat -> user id
    commitment: str = ""

    def seat_of(self, user_id: int | None) -> int | None:
        for seat, uid in self.users.items():
            if uid == user_id:
                return seat
        return None

    def visible_cards(self, seat: int, viewer_seat: int | None) -> list[str] | None:
        """A player's hole cards as ``viewer_seat`` may see them (the engine's one rule,
        ``visible_hole``: his own, or shown ones)."""
        return visible_hole(self.state.player(seat), viewer_seat)

    def description(self, seat: int) -> str | None:
        """A player's best hand in words on the final board ("a pair of Aces"), once five
        board cards are out and his cards are known (call it for shown hands only)."""
        p = self.state.player(seat)
        board = self.state.board
        if len(board) != 5 or not p.hole or None in p.hole:
            return None
        return describe(board + list(p.hole))

    def for_viewer(self, user_id: int | None) -> list[dict[str, Any]]:
        """The events as the viewer's own copy of the table's events has them: the deal
        (``hole_cards``) with cards only for his own seat (others: ``None`` cards; the engine's
        rule, ``visible_hole``, for the one seat the deal is addressed to); mucked hands stay
        unknown, shown ones are in the ``shown`` events."""
        mine = self.seat_of(user_id)
        out = []
        for e in self.events:
            if e["type"] == "hole_cards":
                own = self.visible_cards(e["seat"], mine) if e["seat"] == mine else None
                e = {**e, "cards": own or [None, None]}
            out.append(e)
        return out


def engine_events(rows: Iterable[Any], state: HandState) -> list[dict[str, Any]]:
    """The adapter: HandEvent rows (public ``payload``) -> the engine's events, in order.

    Table events that are not the engine's (turns, seating, stacks) are dropped; hole cards,
    which the public payload leaves out, are filled in from the final engine state."""
    out: list[dict[str, Any]] = []
    for row in rows:
        payload = row.payload
        kind = payload.get("type", row.type)
        if kind not in ENGINE_EVENTS:
            continue
        e = dict(payload)
        e["type"] = kind
        if kind == "hole_cards":
            hole = state.player(e["seat"]).hole
            e["cards"] = list(hole) if hole else [None, None]
        out.append(e)
    return out


def hands_of(user_id: int):
    """Finished hands the user was dealt into (a queryset of ``Hand``), newest first."""
    from tables.models import Hand, HandEvent

    dealt = HandEvent.objects.filter(recipient_id=user_id, type="hole_cards").values("hand_id")
    return Hand.objects.filter(pk__in=dealt, finished_at__isnull=False).order_by("-id")


def load_record(hand: Any) -> HandRecord:
    """Build the record of a finished ``Hand`` (its table selected with it)."""
    from accounts.models import User
    from cashier.money import Currency
    from tables.models import HandEvent

    state = HandState.from_json(hand.state)
    rows = HandEvent.objects.filter(hand=hand).order_by("version").only("type", "payload")
    events = engine_events(rows, state)
    users = {p.seat: int(p.player_id) for p in state.players}
    by_id = {u.pk: u for u in User.objects.filter(pk__in=users.values())}
    names = {}
    for seat, uid in users.items():
        user = by_id.get(uid)
        names[seat] = user.table_name if user is not None else f"Seat {seat}"
    table = hand.table
    return HandRecord(
        hand_id=hand.pk, number=hand.number, table_id=table.pk, table_name=table.name,
        max_seats=table.max_seats, structure=table.structure,
        real_money=table.currency == Currency.REAL, started_at=hand.started_at,
        finished_at=hand.finished_at, state=state, events=events, names=names, users=users,
        commitment=hand.commitment,
    )
