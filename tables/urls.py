from __future__ import annotations

from django.urls import path

from tables import player_views, tiles, views
from tables.histories import views as histories

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="list"),
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/tile/", tiles.table_tile, name="tile"),
    path("tile/", tiles.tiles, name="tiles"),
    path("<int:table_id>/waitlist/", views.waitlist_panel, name="waitlist"),
    path("<int:table_id>/waitlist/join/", views.waitlist_join, name="waitlist_join"),
    path("<int:table_id>/waitlist/leave/", views.waitlist_leave, name="waitlist_leave"),
    path("hands/<int:hand_id>/", histories.hand_history, name="hand"),
    path("hands/<int:hand_id>.json", histories.hand_history_json, name="hand_json"),
    path("hands/<int:hand_id>/download/<str:fmt>/", histories.hand_download,
         name="hand_download"),
    path("hands/mine/", histories.my_hands, name="my_hands"),
    path("hands/mine/download/<str:fmt>/", histories.my_hands_download,
         name="my_hands_download"),
    path("<int:table_id>/auto-top-up/", views.auto_top_up, name="auto_top_up"),
    path("players/notes/", player_views.player_notes, name="player_notes"),
    path("players/<int:player_id>/", player_views.player_card, name="player_card"),
    path("players/<int:player_id>/note/", player_views.player_note, name="player_note"),
]
