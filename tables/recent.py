"""The recent hands list a table shows: one line for people per finished hand, with its
commitment (the proof of its deal is fetched from the hand's JSON when a player opens it). Built by the snapshot and, for the hand that just ended, carried by
its `hand_end` event (`recent`), so a client never asks for a snapshot to update it."""
from __future__ import annotations

import datetime
from typing import Any

from tables.events import RecentHand
from tables.models import Hand, HandEvent, TableConfig

RECENT_HANDS = 10


def iso(moment: datetime.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def recent_entry(hand: Hand, names: dict[int, str], table: TableConfig) -> RecentHand:
    """`hand`'s line (tables/events.py RecentHand). `names`: seat → name of those dealt in."""
    return {"id": hand.pk, "number": hand.number, "finished_at": iso(hand.finished_at),
            "commitment": hand.commitment,
            "summary": hand_summary(hand.state.get("result") or {}, names, table)}


def recent_hands(*, table: TableConfig, limit: int = RECENT_HANDS) -> list[RecentHand]:
    """The last finished hands, newest first."""
    hands = list(Hand.objects.filter(table=table, finished_at__isnull=False)
                 .only("id", "number", "finished_at", "commitment", "state")
                 .order_by("-id")[:limit])
    names: dict[int, dict[int, str]] = {}
    starts = HandEvent.objects.filter(hand_id__in=[h.pk for h in hands], type="hand_start")
    for hand_id, payload in starts.values_list("hand_id", "payload"):
        names[hand_id] = {p["seat"]: p["name"] for p in payload.get("players", [])}
    return [recent_entry(h, names.get(h.pk, {}), table) for h in hands]


def hand_summary(result: dict[str, Any], names: dict[int, str], table: TableConfig) -> str:
    """E.g. "bob wins 12 with two pair, Kings and Sevens" or "ann wins 3, bob wins 3": each
    winner's total collected (after rake), with his best hand when it came to a showdown."""
    won: dict[int, int] = {}
    hands: dict[int, str] = {}
    for pot in result.get("pots", []):
        for seat, share in pot.get("shares", []):
            won[seat] = won.get(seat, 0) + share
        for seat, description in pot.get("hands", []):
            hands.setdefault(seat, description)
    parts = []
    for seat in sorted(won, key=lambda s: (-won[s], s)):
        text = f"{names.get(seat, f'seat {seat}')} wins {table.money_label(won[seat])}"
        parts.append(f"{text} with {hands[seat]}" if seat in hands else text)
    return ", ".join(parts)
