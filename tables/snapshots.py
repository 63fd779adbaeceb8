"""What one viewer sees of a live table: the snapshot and the missed events (resync).

Read-only; hole cards as the engine's one rule allows (`hole_visible`, through `view_for`).
The snapshot's shape is declared with the events' (tables/events.py `Snapshot`)."""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from tables.engine import HandState, blind_seats, view_for
from tables.events import (
    Blinds,
    RunOffer,
    Snapshot,
    SnapshotHand,
    SnapshotSeat,
    TimeBankTerms,
)
from tables.models import Hand, HandEvent, Seat, TableConfig, TableState
from tables.recent import iso, recent_hands
from tables.services.chat import chat_muted_players, chat_recent
from tables.services.next_turn import countdown_at

RESYNC_LIMIT = 500


def table_snapshot(*, table_id: int, user_id: int | None) -> Snapshot:
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
    seat_rows: list[SnapshotSeat] = []
    for s in seats:
        live = in_hand.get(s.number) if hand and hand.seat_ids.get(str(s.number)) == s.pk else None
        seat_rows.append({
            "seat": s.number, "player_id": s.player_id, "name": s.player.table_name,
            "avatar": s.player.avatar_key,
            "stack": live["stack"] if live else s.chips, "status": s.status,
            "in_hand": live is not None, "bet": live["bet"] if live else 0,
            "contributed": live["contributed"] if live else 0,
            "folded": bool(live and live["folded"]), "allin": bool(live and live["allin"]),
            "timed_out": bool(live and live["timed_out"]),
            "has_cards": bool(live and live["has_cards"]),
            "cards": live["cards"] if live else _shown_after(view, s.number),
            "shown": bool(live and live["shown"]), "mucked": bool(live and live["mucked"]),
            "missed_blinds": s.missed_blinds, "post_bb": s.post_bb,
            "sit_out_next_bb": s.sit_out_next_bb,
            "leaving": s.leave_after_hand,
            "time_bank": s.time_bank,
            "time_bank_running": bool(live is not None and hand.finished_at is None
                                      and hand.bank_seat == s.number),
        })
    hand_view: SnapshotHand | None = None
    if hand is not None and view is not None:
        running = hand.finished_at is None
        deadline = hand.deadline if running else None
        deal_order, blinds = _seats_of_hand(state)
        hand_view = {
            "id": hand.pk, "number": hand.number, "street": view["street"],
            "board": view["board"], "pots": view["pots"], "pot_total": view["pot_total"],
            "current_bet": view["current_bet"], "to_act": view["to_act"] if running else None,
            "deadline": iso(deadline), "countdown_at": iso(countdown_at(hand, table)) if deadline
            else None,
            "seconds_left": max((deadline - now).total_seconds(), 0.0) if deadline else None,
            "commitment": hand.commitment,
            "is_over": not running, "result": view["result"] if not running else None,
            "deal_order": deal_order, "blinds": blinds,
            "rabbit": _rabbit(hand, table) if not running else None,
            "board2": state.board2 if state is not None else None,
            "run_offer": _run_offer(state, deadline),
        }
    muted = chat_muted_players(user_id=user_id)
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
            "chat_spectators": table.chat_spectators,
            "straddle_allowed": table.straddle_allowed,
            "run_it_twice_allowed": table.run_it_twice_allowed,
            "time_bank": _time_bank_terms(table),
            "rabbit_hunt": table.rabbit_hunt_allowed and not table.is_tournament,
        },
        "button": ts.button_seat if ts else None,
        "next_hand_at": iso(ts.next_hand_at) if ts else None,
        "next_commitment": ts.next_commitment if ts else "",
        "seats": seat_rows,
        "hand": hand_view,
        "you": {
            "user_id": user_id, "name": mine.player.table_name if mine else None,
            "seat": mine.number if mine else None,
            "always_show": bool(mine and mine.always_show),
            "straddle": bool(mine and mine.straddle),
            "legal": view["legal"] if view and mine and hand and hand.finished_at is None
            else None,
            "muted": [m["player_id"] for m in muted],
            "muted_players": muted,
        },
        "recent_hands": recent_hands(table=table),
        "chat": chat_recent(table_id=table_id),
    }


def _time_bank_terms(table: TableConfig) -> TimeBankTerms | None:
    """The table's time bank (None: it has none)."""
    if not table.time_bank_on:
        return None
    return {"seconds": table.time_bank_seconds, "refill_seconds": table.time_bank_refill_seconds,
            "refill_hands": table.time_bank_refill_hands, "cap_seconds": table.time_bank_cap_seconds}


def _seats_of_hand(state: HandState | None) -> tuple[list[int], Blinds | None]:
    """The deal order (the engine deals clockwise from the button's left: its player order)
    and the blinds posted (heads-up the button posts the small blind), with the straddle."""
    if state is None:
        return [], None
    order = [p.seat for p in state.players]
    sb, bb = blind_seats(state.button, order)
    return order, {"sb": sb, "bb": bb, "straddle": state.straddle}


def _run_offer(state: HandState | None, deadline: Any) -> RunOffer | None:
    """The run-it-twice question while it is open: who is asked, who answered what (None: not
    yet), and its deadline (the hand's)."""
    if state is None or state.votes is None:
        return None
    return {"seats": list(state.votes), "votes": {str(k): v for k, v in state.votes.items()},
            "deadline": iso(deadline)}


def _rabbit(hand: Hand, table: TableConfig) -> list[str] | None:
    """The cards of a finished hand's rabbit hunt, once asked for (services/rabbit_hunting.py);
    None before, and on tables without it (no query)."""
    if not table.rabbit_hunt_allowed:
        return None
    event = HandEvent.objects.filter(hand=hand, type="rabbit_hunt").only("payload").first()
    return list(event.payload["cards"]) if event is not None else None


def _shown_after(view: dict[str, Any] | None, number: int) -> list[str] | None:
    """After the hand: the cards the viewer may see (the engine's rule, in `view_for`: shown
    ones, and his own)."""
    if not view or not view["is_over"]:
        return None
    return next((s["cards"] for s in view["seats"] if s["seat"] == number), None)


def events_since(*, table_id: int, last_version: int, user_id: int | None,
                 limit: int = RESYNC_LIMIT) -> list[dict[str, Any]] | None:
    """The events after `last_version` as `user_id` may see them, or None when a snapshot is
    needed instead (too far behind, or a version from the future)."""
    current = TableState.objects.filter(pk=table_id).values_list("version", flat=True).first() or 0
    if last_version < 0 or last_version > current or current - last_version > limit:
        return None
    rows = HandEvent.objects.filter(table_id=table_id, version__gt=last_version).order_by("version")
    return [{"type": "event", "version": e.version, "event": e.for_user(user_id)} for e in rows]
