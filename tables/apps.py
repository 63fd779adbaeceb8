from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        """Give the scheduler the dealer of due hands: the services sit above the scheduler, which
        must not import them (tables/scheduling.py)."""
        from tables import scheduling
        from tables.services.starting import hand_start

        scheduling.dealer_set(hand_start)
