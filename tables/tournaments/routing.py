from __future__ import annotations

from django.urls import path

from observability.metrics import socket_observed
from tables.tournaments import consumers

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/",
         socket_observed("tournament", consumers.TournamentConsumer.as_asgi())),
]
