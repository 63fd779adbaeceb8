"""Pure Texas Hold'em hand engine: no Django, Channels or Celery imports (a test enforces it)."""

from __future__ import annotations

from .actions import (
    LegalActions,
    apply_action,
    can_act,
    choose_runs,
    deal_board,
    deal_hole,
    leavers_fold,
    legal_actions,
    verify_action,
)
from .deck import commitment, new_seed, shuffled_deck, verify
from .errors import IllegalAction
from .showdown import describe, hand_rank
from .state import HandState, Player, SeatIn, start_hand
from .structures import (
    RakeRule,
    SmallBlindRule,
    Structure,
    TableRules,
    TimeoutPolicy,
    blind_seats,
    next_button,
)
from .view import collected_pots, hole_visible, street_name, view_for, visible_hole

__all__ = [
    "HandState",
    "IllegalAction",
    "LegalActions",
    "Player",
    "RakeRule",
    "SeatIn",
    "SmallBlindRule",
    "Structure",
    "TableRules",
    "TimeoutPolicy",
    "apply_action",
    "blind_seats",
    "can_act",
    "choose_runs",
    "collected_pots",
    "commitment",
    "deal_board",
    "deal_hole",
    "describe",
    "hand_rank",
    "hole_visible",
    "leavers_fold",
    "legal_actions",
    "new_seed",
    "next_button",
    "shuffled_deck",
    "start_hand",
    "street_name",
    "verify",
    "verify_action",
    "view_for",
    "visible_hole",
]
