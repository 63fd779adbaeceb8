"""Hands: the engine's state while one runs, its events, the deck's secrets and entropy, the
lobby's summaries, and the daily count of timeout all-ins."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.config import TableConfig


class HandSummary(models.Model):
    """One row per finished hand: what the lobby's statistics are computed from."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="hand_summaries")
    finished_at = models.DateTimeField(db_index=True)
    pot = models.BigIntegerField()
    players_dealt = models.PositiveSmallIntegerField()
    players_saw_flop = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name_plural = "hand summaries"
        ordering = ["-finished_at"]
        indexes = [models.Index(fields=["table", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.table} hand at {self.finished_at:%Y-%m-%d %H:%M}"


# Live play ------------------------------------------------------------------------------------
# The lock order (table row, seats, hands, events...) is stated in tables/services/locks.py only.


class Hand(models.Model):
    """One hand: the engine's state as JSON (the truth while it runs) plus its timer."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1, 2, ... per table.")
    state = models.JSONField()
    version = models.PositiveIntegerField(help_text="The engine state's version (timers check it).")
    seat_ids = models.JSONField(help_text='Seat number → Seat id, e.g. {"1": 17}.')
    deadline = models.DateTimeField(null=True, blank=True, help_text="Turn deadline, if any.")
    bonus_used = models.BooleanField(default=False, help_text="Reconnect bonus used this turn.")
    turn_started_at = models.DateTimeField(null=True, blank=True,
                                           help_text="When the current turn began.")
    timer_at = models.DateTimeField(null=True, blank=True,
                                    help_text="When the timeout task last queued fires.")
    bank_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat whose time bank runs this turn, if any.")
    bank_started_at = models.DateTimeField(null=True, blank=True,
                                           help_text="When that time bank started to run.")
    bank_seconds = models.PositiveIntegerField(
        default=0, help_text="The seconds that time bank held when it started.")
    commitment = models.CharField(max_length=64, help_text="Published at the deal.")
    fairness = models.CharField(
        max_length=12, default="merkle-v2",
        help_text="merkle-v2: the private fair deal (tables/engine/fairness.py); seed-v1: "
                  "dealt before it, its seed published.")
    deck_key = models.CharField(
        max_length=64, blank=True,
        help_text="Secret for ever (merkle-v2): staff see the deck only through the audited "
                  "reveal.")
    entropy = models.JSONField(
        default=list, blank=True,
        help_text='The players\' contributions that fixed the deal order: [{"seat", "value"}].')
    seed = models.CharField(max_length=64, blank=True,
                            help_text="seed-v1 hands only: the seed published after the hand.")
    players_saw_flop = models.PositiveSmallIntegerField(default=0)
    leavers = models.JSONField(
        default=list, blank=True,
        help_text="Seats that asked to leave during the hand: folded when the action reaches "
                  "them (tables/services/leaving.py).")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} hand {self.number}"


class DeckEntropy(models.Model):
    """A seated player's contribution to the deal order of the hand dealt under `commitment`
    (fairness.py): sent after the commitment was published, used and deleted at its deal."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="+")
    commitment = models.CharField(max_length=64)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    value = models.CharField(max_length=64)

    class Meta:
        verbose_name_plural = "deck entropies"
        constraints = [models.UniqueConstraint(fields=["table", "commitment", "player"],
                                               name="one_entropy_per_player_and_deck")]

    def __str__(self) -> str:
        return f"table {self.table_id} deck {self.commitment[:12]} from {self.player_id}"


class DeckReveal(models.Model):
    """Audit trail of staff opening a finished hand's whole deck (a dispute): who, when, why."""

    hand = models.ForeignKey("Hand", on_delete=models.PROTECT, related_name="+")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"hand {self.hand_id} deck revealed to {self.staff_id}"


class HandEvent(models.Model):
    """Append-only table event log, ordered by the per-table version: the source of hand
    histories and of reconnect resync. `payload` is what everyone may see; `private_payload`
    (hole cards) goes to `recipient` only."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="events")
    version = models.BigIntegerField()
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="events")
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    private_payload = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="event_version_unique_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version} {self.type}"

    def for_user(self, user_id: int | None) -> dict:
        if self.private_payload is not None and user_id is not None and user_id == self.recipient_id:
            return self.private_payload
        return self.payload


class TimeoutAllIn(models.Model):
    """A timeout all-in a player was granted: counted for the per-day cap."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "timeout all-in"

    def __str__(self) -> str:
        return f"timeout all-in by {self.player_id} in hand {self.hand_id}"
