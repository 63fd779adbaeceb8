from __future__ import annotations

from django.urls import path

from tables.tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.tournament_page, name="page"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/unregister/", views.unregister, name="unregister"),
    path("<int:tournament_id>/rebuy/", views.rebuy, name="rebuy"),
    path("<int:tournament_id>/addon/", views.addon, name="addon"),
]
