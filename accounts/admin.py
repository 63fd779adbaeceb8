"""Users in Django admin, each linked to the operator's player page (balances, limits,
self-exclusion, sessions and finished hands: pokerroom/operators)."""
from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html

from accounts.models import User


@admin.register(User)
class RoomUserAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Player", {"fields": ("player_page", "display_name", "date_of_birth", "is_bot")}),
    )
    readonly_fields = ("player_page",)
    list_display = ("username", "display_name", "email", "is_staff", "is_bot", "date_joined",
                    "player_page")
    list_filter = (*UserAdmin.list_filter, "is_bot")

    @admin.display(description="Player page")
    def player_page(self, user: User) -> str:
        if user.pk is None:
            return "—"
        return format_html('<a href="{}">Balances, limits, sessions and hands</a>',
                           reverse("operators:player", args=(user.pk,)))
