from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class RoomUserAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "date_of_birth", "is_bot")}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "is_bot", "date_joined")
    list_filter = (*UserAdmin.list_filter, "is_bot")
