from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from pokerroom import health, scrape
from tables import views as table_views

urlpatterns = [
    path("", table_views.lobby, name="lobby"),
    path("livez", health.livez, name="livez"),
    path("readyz", health.readyz, name="readyz"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", scrape.metrics_view, name="metrics"),
    path("accounts/", include("accounts.urls")),
    path("cashier/", include("cashier.urls")),
    path("tables/", include("tables.urls")),
    path("tournaments/", include("tables.tournaments.urls")),
    path("admin/operators/", include("pokerroom.operators.urls")),  # before the admin's own
    path("admin/", admin.site.urls),
]
