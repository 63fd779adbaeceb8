from __future__ import annotations

from django.urls import path

from observability.metrics import socket_observed
from tables import consumers

websocket_urlpatterns = [
    path("ws/lobby/", socket_observed("lobby", consumers.LobbyConsumer.as_asgi())),
    path("ws/tables/<int:table_id>/", socket_observed("table", consumers.TableConsumer.as_asgi())),
]
