"""The waiting list of a full table."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.config import TableConfig


class WaitingListEntry(models.Model):
    """A player waiting for a seat at a full table (tables/services/waitlist.py).

    While `offered_seat` is set and `offer_expires_at` has not passed, that seat is held for
    this player: others are refused it (`seat_reserved`). The database is the whole state, so
    a restart or a lost expiry task loses nothing: expiry is also checked whenever it is read."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="waiting_list")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="waiting_entries")
    joined_at = models.DateTimeField(db_index=True)
    offered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "joined_at", "id"]
        verbose_name_plural = "waiting list entries"
        constraints = [
            models.UniqueConstraint(fields=["table", "player"],
                                    name="one_waiting_entry_per_player_per_table"),
            models.UniqueConstraint(fields=["table", "offered_seat"],
                                    condition=models.Q(offered_seat__isnull=False),
                                    name="one_offer_per_seat"),
            models.CheckConstraint(
                condition=models.Q(offered_seat__isnull=True, offer_expires_at__isnull=True)
                | models.Q(offered_seat__isnull=False, offer_expires_at__isnull=False),
                name="offer_has_seat_and_expiry"),
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.table}"
