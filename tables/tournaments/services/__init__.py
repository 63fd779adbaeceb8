"""Tournament services (keyword-only, typed): each one transaction that locks the tournament's
row first (tables/services/locks.py), records its events on the tournament's own log and
publishes them after the commit."""
from __future__ import annotations

from tables.tournaments.services.cancelling import tournament_cancel
from tables.tournaments.services.clock import tournament_clock
from tables.tournaments.services.creating import tournament_create
from tables.tournaments.services.purchases import tournament_addon, tournament_rebuy
from tables.tournaments.services.registration import tournament_register, tournament_unregister
from tables.tournaments.services.starting import tournament_start
from tables.tournaments.services.sweeps import tournaments_sweep

__all__ = ["tournament_addon", "tournament_cancel", "tournament_clock", "tournament_create",
           "tournament_rebuy", "tournament_register", "tournament_start",
           "tournament_unregister", "tournaments_sweep"]
