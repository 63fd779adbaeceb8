"""What one viewer may see: the table with other players' live hole cards redacted."""

from __future__ import annotations

from .actions import legal_actions
from .flow import pots_of
from .state import OVER, STREET_NAMES, HandState, Player


def hole_visible(p: Player, viewer_seat: int | None) -> bool:
    """The room's one card-visibility rule: a player's hole cards are seen by himself and,
    once shown, by everybody — by nobody else, ever: not opponents, spectators or admins, not
    after the hand, not a folded or mucked hand. Events (tables/events.py: hole cards only in
    their owner's copy), snapshots (`view_for`), histories (histories/record.py) and the fair
    deal's openings (services/dealing.py) all ask this; the fairness work changes it here."""
    return p.hole is not None and None not in p.hole and (p.seat == viewer_seat or p.shown)


def visible_hole(p: Player, viewer_seat: int | None) -> list[str] | None:
    """`p`'s hole cards if `viewer_seat` (None: a spectator) may see them (`hole_visible`)."""
    return list(p.hole) if hole_visible(p, viewer_seat) else None  # type: ignore[arg-type]


def view_for(s: HandState, seat: int | None = None) -> dict:
    """A JSON-ready snapshot for ``seat`` (None = spectator). Hole cards as `hole_visible`
    allows; legal actions only on the viewer's turn."""
    players = s.players
    pots = collected_pots(s)
    seats = []
    for p in players:
        seats.append({
            "seat": p.seat, "player_id": p.player_id, "stack": p.stack, "bet": p.bet,
            "contributed": p.total, "folded": p.folded, "allin": p.allin,
            "timed_out": p.timed_out, "has_cards": p.hole is not None and not p.folded
            and not p.mucked, "cards": visible_hole(p, seat), "shown": p.shown,
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
