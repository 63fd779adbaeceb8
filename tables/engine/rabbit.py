"""The rabbit hunt: after a hand that everyone folded to one player before the river, the board
cards that would have come. Pure; the service (tables/services/rabbit_hunting.py) decides who
may ask and records what is shown.

Why only the board: the rabbit cards sit at the board's own deal positions (a burn before each
street, as `fairness.board_deals` lays them out), so showing them opens those positions of the
deck's commitment and nothing else — never a burn card, never a folded player's hole cards.
The hand's result is settled and stays so: the rabbit cards change no state."""

from __future__ import annotations

from .errors import IllegalAction
from .fairness import board_deals
from .state import HandState

BOARD_SIZE = 5


def rabbit_deals(players: int, board: int) -> list[int]:
    """Deal positions of the board cards not dealt when the hand ended with ``board`` of them
    out: the positions the rabbit hunt opens."""
    return board_deals(players, BOARD_SIZE)[board:]


def verify_rabbit_hunt(s: HandState, player_id: str) -> None:
    """Raise IllegalAction unless ``player_id`` may see ``s``'s rabbit: the hand is over
    (``hand_not_over``), its board is short (``board_complete``: a showdown or an all-in ran it
    out) and he was dealt into it (``not_dealt_in``)."""
    if not s.is_over:
        raise IllegalAction("hand_not_over", "the hand is still being played")
    if len(s.board) >= BOARD_SIZE:
        raise IllegalAction("board_complete", "the whole board was dealt")
    p = next((p for p in s.players if p.player_id == player_id), None)
    if p is None or p.hole is None or None in p.hole:
        raise IllegalAction("not_dealt_in", "only a player dealt into the hand may ask")


def can_rabbit_hunt(s: HandState, player_id: str) -> bool:
    try:
        verify_rabbit_hunt(s, player_id)
    except IllegalAction:
        return False
    return True


def rabbit_cards(s: HandState) -> list[str]:
    """The board cards that would have come, from the hand's dealt deck (server side only:
    ``s.deck`` is secret). An over hand with a short board only; empty otherwise."""
    if not s.is_over or s.deck is None or len(s.board) >= BOARD_SIZE:
        return []
    return [s.deck[k] for k in rabbit_deals(len(s.players), len(s.board))]
