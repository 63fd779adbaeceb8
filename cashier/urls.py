from __future__ import annotations

from django.urls import path

from cashier import views

app_name = "cashier"
urlpatterns = [
    path("", views.home, name="home"),
    path("history/", views.history, name="history"),
    path("balances/", views.header_balances, name="balances"),
    path("deposit/", views.deposit_create, name="deposit"),
    path("withdraw/", views.withdrawal_create, name="withdraw"),
    path("withdrawals/<int:pk>/cancel/", views.withdrawal_cancel, name="withdrawal_cancel"),
    path("reload/", views.play_reload, name="reload"),
    path("limits/", views.limit_set, name="limit"),
    path("self-exclusion/", views.exclusion_start, name="exclusion"),
    path("reminder/", views.reminder_set, name="reminder"),
]
