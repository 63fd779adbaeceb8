"""Every WebSocket route of the room, gathered from the apps."""
from __future__ import annotations

from tables.routing import websocket_urlpatterns as table_routes
from tables.tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [*table_routes, *tournament_routes]
