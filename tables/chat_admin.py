"""Chat moderation for staff: the lines said at the tables (hide them: pages drop them live),
and chat bans (ban a line's author for a chosen time, or edit a ban directly). Hiding and
banning go through tables/services/chat.py."""
from __future__ import annotations

import datetime

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from tables.models import ChatBan, ChatMessage
from tables.services.chat import CHAT_BAN_HOURS, chat_ban, chat_hide

BAN_CHOICES = [(1, "1 hour"), (CHAT_BAN_HOURS, "24 hours"), (24 * 7, "7 days"),
               (24 * 30, "30 days")]


class ChatActionForm(ActionForm):
    """The admin's action bar, with how long "Ban authors from chat" lasts."""

    ban_hours = forms.TypedChoiceField(label="Ban for", choices=BAN_CHOICES, coerce=int,
                                       initial=CHAT_BAN_HOURS, required=False)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "table", "author", "text", "hidden")
    list_filter = ("hidden", "table", "created_at")
    list_select_related = ("table", "author")
    search_fields = ("text", "author__username", "author__display_name")
    date_hierarchy = "created_at"
    fields = ("table", "author", "text", "created_at", "hidden", "hidden_by", "hidden_at")
    readonly_fields = fields
    action_form = ChatActionForm
    actions = ("hide_messages", "ban_authors")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # lines are said at the tables

    @admin.action(description="Hide selected messages", permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        hidden = sum(chat_hide(message_id=pk, by_user_id=request.user.pk)
                     for pk in queryset.values_list("pk", flat=True))
        self.message_user(request, f"{hidden} message(s) hidden.", messages.SUCCESS)

    @admin.action(description="Ban authors from chat", permissions=["change"])
    def ban_authors(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        hours = int(request.POST.get("ban_hours") or CHAT_BAN_HOURS)
        if hours not in dict(BAN_CHOICES):
            hours = CHAT_BAN_HOURS
        until = timezone.now() + datetime.timedelta(hours=hours)
        authors = sorted(set(queryset.values_list("author_id", flat=True)))
        for author in authors:
            chat_ban(player_id=author, by_user_id=request.user.pk, until=until,
                     reason=f"Banned from the chat admin for {hours} h.")
        self.message_user(request, f"{len(authors)} author(s) banned from chat until "
                          f"{timezone.localtime(until):%Y-%m-%d %H:%M}.", messages.SUCCESS)


@admin.register(ChatBan)
class ChatBanAdmin(admin.ModelAdmin):
    list_display = ("player", "until", "active", "reason", "created_by", "created_at")
    list_filter = ("until",)
    list_select_related = ("player", "created_by")
    search_fields = ("player__username", "player__display_name", "reason")
    raw_id_fields = ("player",)
    fields = ("player", "until", "reason", "created_by", "created_at")
    readonly_fields = ("created_by", "created_at")

    @admin.display(boolean=True, description="Running")
    def active(self, ban: ChatBan) -> bool:
        return ban.until > timezone.now()

    def save_model(self, request: HttpRequest, obj: ChatBan, form: object, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
