"""What a player keeps on his opponents: private notes and colour tags, and statistics counted
from the hands he played with them (tables/services/notes.py, tables/services/hand_stats.py).
Every row belongs to one player (`owner` / `viewer`) and is shown to him alone."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.hands import Hand

NOTE_MAX_LENGTH = 1000


class NoteTag(models.TextChoices):
    """A small fixed palette, like the clients regulars know (none, or one colour)."""

    NONE = "", "No tag"
    RED = "red", "Red"
    ORANGE = "orange", "Orange"
    YELLOW = "yellow", "Yellow"
    GREEN = "green", "Green"
    BLUE = "blue", "Blue"
    PURPLE = "purple", "Purple"


class PlayerNote(models.Model):
    """`owner`'s note and colour tag on `subject`: private to the owner."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="player_notes")
    subject = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    tag = models.CharField(max_length=8, choices=NoteTag.choices, blank=True, default="")
    text = models.TextField(max_length=NOTE_MAX_LENGTH, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "player note"
        constraints = [
            models.UniqueConstraint(fields=["owner", "subject"], name="one_note_per_owner_subject"),
            models.CheckConstraint(condition=~models.Q(owner=models.F("subject")),
                                   name="no_note_on_oneself"),
        ]

    def __str__(self) -> str:
        return f"note by {self.owner_id} on {self.subject_id}"


class PlayerStats(models.Model):
    """`subject`'s running counters in the hands `viewer` was dealt into with him
    (tables/engine/hand_stats.py defines them); viewer == subject is the player's own."""

    viewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    subject = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    hands = models.PositiveIntegerField(default=0)
    vpip = models.PositiveIntegerField(default=0)
    pfr = models.PositiveIntegerField(default=0)
    three_bet_chances = models.PositiveIntegerField(default=0)
    three_bets = models.PositiveIntegerField(default=0)
    postflop_aggressive = models.PositiveIntegerField(default=0)
    postflop_calls = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "player statistics row"
        verbose_name_plural = "player statistics rows"
        constraints = [
            models.UniqueConstraint(fields=["viewer", "subject"], name="one_stats_per_pair"),
        ]

    def __str__(self) -> str:
        return f"stats of {self.subject_id} seen by {self.viewer_id}"


class HandStatsCounted(models.Model):
    """The hand's statistics were added (once: the task's claim, so a redelivery adds
    nothing)."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")
    counted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "counted hand"
        verbose_name_plural = "counted hands"

    def __str__(self) -> str:
        return f"hand {self.hand_id} counted"
