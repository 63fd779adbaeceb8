from __future__ import annotations

from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="list"),
    path("<int:table_id>/", views.table, name="table"),
    path("hands/<int:hand_id>/", views.hand_history, name="hand"),
    path("hands/<int:hand_id>.json", views.hand_history_json, name="hand_json"),
]
