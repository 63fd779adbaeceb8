from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from pokerroom import health
from tables import views as table_views

urlpatterns = [
    path("", table_views.lobby, name="lobby"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("cashier/", include("cashier.urls")),
    path("tables/", include("tables.urls")),
    path("admin/", admin.site.urls),
]
