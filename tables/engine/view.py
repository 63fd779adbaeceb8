"""What one viewer may see: the table with other players' live hole cards redacted."""

from __future__ import annotations

from .actions import legal_actions
from .flow import pots_of
from .state import OVER, STREET_NAMES, HandState


def view_for(s: HandState, seat: int | None = None) -> dict:
    """A JSON-ready snapshot for ``seat`` (None = spectator). Hole cards appear only for the
    viewer's own seat and for hands shown at showdown; legal actions only on the viewer's turn."""
    players = s.players
    pots = collected_pots(s)
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
        "pots": pots,
        "pot_total": s.pot_total,
        "current_bet": s.current_bet,
        "commitment": s.commitment,
        "pending_deal": s.pending_deal,
        "is_over": s.street == OVER,
        "result": s.result,
    }


def collected_pots(s: HandState) -> list[dict]:
    """The pots of the finished betting rounds (this round's bets not yet in), main pot first,
    each with the seats that may win it."""
    players = s.players
    return [{"amount": a, "eligible": [players[i].seat for i in e]}
            for a, e in pots_of(s, with_bets=False) if a]


def street_name(s: HandState) -> str:
    return STREET_NAMES[s.street]
