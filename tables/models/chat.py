"""Table chat: lines, mutes between players, and bans by staff (tables/services/chat.py)."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.config import TableConfig


class ChatMessage(models.Model):
    """One line said at a table. Stored as typed (plain text, never HTML: pages render it as
    text); staff may hide it, which removes it from every page (`chat_hidden` event)."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_messages")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "chat message"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["table", "author", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author} at {self.table}: {self.text[:40]}"


class ChatMute(models.Model):
    """`muter` no longer sees `muted`'s chat lines (at every table). Private to the muter."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat mute"
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~models.Q(muter=models.F("muted")),
                                   name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.muter} mutes {self.muted}"


class ChatBan(models.Model):
    """Staff took the player's chat away (at every table) until `until`."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_bans")
    until = models.DateTimeField(db_index=True)
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat ban"
        ordering = ["-until"]

    def __str__(self) -> str:
        return f"{self.player} banned from chat until {self.until:%Y-%m-%d %H:%M}"
