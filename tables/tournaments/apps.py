from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments live under `tables/` (they play on its engine, pipeline and timers) as their
    own app, label `tournaments` (DESIGN.md, "Layout")."""

    name = "tables.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
