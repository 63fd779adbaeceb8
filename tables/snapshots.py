"""What one viewer sees of a live table: the snapshot and the missed events (resync).

Read-only; hole cards appear only for the viewer's own seat or once shown (engine `view_for`)."""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from tables.engine import HandState, blind_seats, view_for
from tables.models import Hand, HandEvent, Seat, TableConfig, TableState
from tables.services.hands import countdown_at, iso

RESYNC_LIMIT = 500
RECENT_HANDS = 10


def table_snapshot(*, table_id: int, user_id: int | None) -> dict[str, Any]:
    """The full table as `user_id` (None: a spectator) may see it, at the current version."""
    table = TableConfig.objects.get(pk=table_id)
    ts = TableState.objects.select_related("hand").filter(pk=table_id).first()
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player").order_by("number"))
    mine = next((s for s in seats if s.player_id == user_id), None) if user_id else None
    hand = ts.hand if ts else None
    view, state = None, None
    if hand is not None:
        state = HandState.from_json(hand.state)
        view = view_for(state, mine.number if mine and str(mine.number) in hand.seat_ids
                        and hand.seat_ids[str(mine.number)] == mine.pk else None)
    in_hand = {s["seat"]: s for s in view["seats"]} if view and not view["is_over"] else {}
    now = timezone.now()
    seat_rows = []
    for s in seats:
        live = in_hand.get(s.number) if hand and hand.seat_ids.get(str(s.number)) == s.pk else None
        seat_rows.append({
            "seat": s.number, "player_id": s.player_id, "name": s.player.table_name,
            "stack": live["stack"] if live else s.chips, "status": s.status,
            "in_hand": live is not None, "bet": live["bet"] if live else 0,
            "contributed": live["contributed"] if live else 0,
            "folded": bool(live and live["folded"]), "allin": bool(live and live["allin"]),
            "timed_out": bool(live and live["timed_out"]),
            "has_cards": bool(live and live["has_cards"]),
            "cards": live["cards"] if live else _shown_after(view, s.number),
            "shown": bool(live and live["shown"]), "mucked": bool(live and live["mucked"]),
            "missed_blinds": s.missed_blinds, "post_bb": s.post_bb,
            "leaving": s.leave_after_hand,
        })
    hand_view = None
    if hand is not None and view is not None:
        running = hand.finished_at is None
        deadline = hand.deadline if running else None
        hand_view = {
            "id": hand.pk, "number": hand.number, "street": view["street"],
            "board": view["board"], "pots": view["pots"], "pot_total": view["pot_total"],
            "current_bet": view["current_bet"], "to_act": view["to_act"] if running else None,
            "deadline": iso(deadline), "countdown_at": iso(countdown_at(hand, table)) if deadline
            else None,
            "seconds_left": max((deadline - now).total_seconds(), 0.0) if deadline else None,
            "commitment": hand.commitment, "seed": None if running else hand.seed or None,
            "is_over": not running, "result": view["result"] if not running else None,
            **_seats_of_hand(state),
        }
    return {
        "type": "snapshot",
        "version": ts.version if ts else 0,
        "server_time": now.isoformat(),
        "table": {
            "id": table.pk, "name": table.name, "structure": table.structure,
            "currency": table.currency, "stakes": table.stakes_label(),
            "small_blind": table.small_blind_amount, "big_blind": table.big_blind,
            "upper_stake": table.upper_stake, "ante": table.ante, "max_seats": table.max_seats,
            "min_buy_in": table.min_buy_in, "max_buy_in": table.max_buy_in,
            "action_seconds": table.action_seconds, "countdown_seconds": table.countdown_seconds,
            "hand_pause_seconds": table.hand_pause_seconds,
        },
        "button": ts.button_seat if ts else None,
        "next_hand_at": iso(ts.next_hand_at) if ts else None,
        "seats": seat_rows,
        "hand": hand_view,
        "you": {
            "user_id": user_id, "name": mine.player.table_name if mine else None,
            "seat": mine.number if mine else None,
            "legal": view["legal"] if view and mine and hand and hand.finished_at is None
            else None,
        },
        "recent_hands": recent_hands(table=table),
    }


def _seats_of_hand(state: HandState | None) -> dict[str, Any]:
    """`deal_order` (the engine deals clockwise from the button's left: its player order) and
    the `blinds` posted (heads-up the button posts the small blind)."""
    if state is None:
        return {"deal_order": [], "blinds": None}
    order = [p.seat for p in state.players]
    sb, bb = blind_seats(state.button, order)
    return {"deal_order": order, "blinds": {"sb": sb, "bb": bb}}


def recent_hands(*, table: TableConfig, limit: int = RECENT_HANDS) -> list[dict[str, Any]]:
    """The last finished hands, newest first: seed (finished, so revealed), commitment and a
    one-line summary of who collected what."""
    hands = list(Hand.objects.filter(table=table, finished_at__isnull=False)
                 .only("id", "number", "finished_at", "commitment", "seed", "state")
                 .order_by("-id")[:limit])
    names: dict[int, dict[int, str]] = {}
    starts = HandEvent.objects.filter(hand_id__in=[h.pk for h in hands], type="hand_start")
    for hand_id, payload in starts.values_list("hand_id", "payload"):
        names[hand_id] = {p["seat"]: p["name"] for p in payload.get("players", [])}
    return [{
        "id": h.pk, "number": h.number, "finished_at": iso(h.finished_at),
        "commitment": h.commitment, "seed": h.seed or None,
        "summary": hand_summary(h.state.get("result") or {}, names.get(h.pk, {}), table),
    } for h in hands]


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


def _shown_after(view: dict[str, Any] | None, number: int) -> list[str] | None:
    """After the hand: cards that were shown (public)."""
    if not view or not view["is_over"]:
        return None
    for s in view["seats"]:
        if s["seat"] == number and s["shown"]:
            return s["cards"]
    return None


def events_since(*, table_id: int, last_version: int, user_id: int | None,
                 limit: int = RESYNC_LIMIT) -> list[dict[str, Any]] | None:
    """The events after `last_version` as `user_id` may see them, or None when a snapshot is
    needed instead (too far behind, or a version from the future)."""
    current = TableState.objects.filter(pk=table_id).values_list("version", flat=True).first() or 0
    if last_version < 0 or last_version > current or current - last_version > limit:
        return None
    rows = HandEvent.objects.filter(table_id=table_id, version__gt=last_version).order_by("version")
    return [{"type": "event", "version": e.version, "event": e.for_user(user_id)} for e in rows]
