"""What one viewer may see: the table with other players' live hole cards redacted."""

from __future__ import annotations

from .actions import legal_actions
from .flow import pots_of
from .state import OVER, STREET_NAMES, HandState


def view_for(s: HandState, seat: int | None = None) -> dict:
    """A JSON-ready snapshot for ``seat`` (None = spectator). Hole cards appear only for the
    viewer's own seat and for hands shown at showdown; legal actions only on the viewer's turn."""
    players = s.players
    pots = pots_of(s, with_bets=False)
    seats = []
    for p in players:
        visible = p.hole is not None and (p.seat == seat or p.shown)
        seats.append({
            "seat": p.seat, "player_id": p.player_id, "stack": p.stack, "bet": p.bet,
            "contributed": p.total, "folded": p.folded, "allin": p.allin,
            "timed_out": p.timed_out, "has_cards": p.hole is not None and not p.folded
            and not p.mucked, "cards": list(p.hole) if visible else None, "shown": p.shown,
            "mucked": p.mucked,
        })
    la = legal_actions(s)
    to_act = s.to_act_seat
    return {
        "version": s.version,
        "rules": s.rules.to_json(),
        "street": STREET_NAMES[s.street],
        "button": s.button,
        "board": list(s.board),
        "seats": seats,
        "to_act": to_act,
        "legal": la.to_json() if la is not None and seat is not None and la.seat == seat else None,
        "pots": [{"amount": a, "eligible": [players[i].seat for i in e]} for a, e in pots if a],
        "pot_total": s.pot_total,
        "current_bet": s.current_bet,
        "commitment": s.commitment,
        "pending_deal": s.pending_deal,
        "is_over": s.street == OVER,
        "seed": s.seed if s.street == OVER else None,
        "result": s.result,
    }


def redact_event(event: dict, seat: int | None) -> dict:
    """The event as ``seat`` may receive it: private hole cards of others lose their cards."""
    to_seat = event.get("to_seat")
    if to_seat is None or to_seat == seat:
        return event
    return {k: v for k, v in event.items() if k not in ("cards", "to_seat")}
