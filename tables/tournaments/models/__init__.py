"""The tournaments app's models; every name is importable from here."""
from __future__ import annotations

from tables.tournaments.models.purchase import Purchase, PurchaseKind
from tables.tournaments.models.structure import (
    BASIS_POINTS,
    Level,
    PayoutTier,
    TournamentKind,
    TournamentTemplate,
    places_error,
    tiers_error,
)
from tables.tournaments.models.tournament import (
    ACTIVE,
    OVER,
    STARTED,
    Entry,
    EntryState,
    Tournament,
    TournamentEvent,
    TournamentState,
)

__all__ = [
    "ACTIVE", "BASIS_POINTS", "OVER", "STARTED", "Entry", "EntryState", "Level", "PayoutTier",
    "Purchase", "PurchaseKind", "Tournament", "TournamentEvent", "TournamentKind",
    "TournamentState", "TournamentTemplate", "places_error", "tiers_error",
]
