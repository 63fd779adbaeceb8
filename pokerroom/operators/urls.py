"""/admin/operators/...: every view behind `admin.site.admin_view` (staff login required)."""
from __future__ import annotations

from django.contrib import admin
from django.urls import path

from pokerroom.operators import views

app_name = "operators"
urlpatterns = [
    path("", admin.site.admin_view(views.dashboard), name="dashboard"),
    path("players/<int:user_id>/", admin.site.admin_view(views.player), name="player"),
]
