from __future__ import annotations

from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Only so that `manage.py bots` exists: the client has no models and serves nothing."""

    name = "bots"
    verbose_name = "Bots (a client of the room)"
