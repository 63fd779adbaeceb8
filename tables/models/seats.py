"""Who sits where and with what: seats (their stacks), the table's runtime row, presence on
the table page, and standing top-up orders."""
from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from tables.models.config import TableConfig


class SeatStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    SITTING_OUT = "sitting_out", "Sitting out"
    WAITING_BB = "waiting_bb", "Waiting for the big blind"


class Seat(models.Model):
    """A player's seat at a table; `chips` are the player's money in the table's escrow."""

    table = models.ForeignKey(TableConfig, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(10)])
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    chips = models.BigIntegerField(default=0)
    status = models.CharField(max_length=16, choices=SeatStatus.choices, default=SeatStatus.PLAYING)
    created_at = models.DateTimeField(auto_now_add=True)
    post_bb = models.BooleanField(
        default=False, help_text="Posts a live extra big blind in the next hand (new/returning)."
    )
    missed_blinds = models.BooleanField(
        default=False, help_text="Missed a blind while sitting out: owes a big blind on return."
    )
    sat_out_at = models.DateTimeField(null=True, blank=True)
    leave_after_hand = models.BooleanField(
        default=False, help_text="Asked to leave during a hand: cashed out when it ends."
    )
    sit_out_next_bb = models.BooleanField(
        default=False, help_text="Sits out instead of posting when the big blind comes to him."
    )
    always_show = models.BooleanField(
        default=False, help_text="Shows a losing hand at showdown instead of mucking it."
    )
    straddle = models.BooleanField(
        default=False, help_text="Straddles (two big blinds) whenever he is under the gun, at a "
        "table that allows it, from the next hand on.",
    )
    time_bank = models.PositiveIntegerField(
        default=0, help_text="Seconds in the player's time bank (set when he sits down)."
    )
    time_bank_hands = models.PositiveIntegerField(
        default=0, help_text="Hands dealt in since his time bank's last refill."
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_per_player_per_table"),
            models.CheckConstraint(condition=models.Q(chips__gte=0), name="seat_chips_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}: {self.player}"


class TableState(models.Model):
    """The runtime row of one table: "the table row" every tables service locks first.

    `version` counts the table's events (HandEvent.version); clients resync from it.
    `hand_moved_version` is the version of the current hand's last event that changed the hand
    (every hand event but a deadline extension): an action decided on an earlier version is
    stale, one decided after it is not, whatever table events (seating, top-ups) came since."""

    table = models.OneToOneField(TableConfig, on_delete=models.CASCADE, primary_key=True,
                                 related_name="state")
    version = models.BigIntegerField(default=0)
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Tournament tables: the last hand's small blind seat "
        "(the dead button follows the blinds' seats).")
    big_blind_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Tournament tables: the last hand's big blind seat.")
    hand = models.ForeignKey("Hand", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", help_text="The current or last hand.")
    hands_dealt = models.PositiveIntegerField(default=0)
    next_hand_at = models.DateTimeField(null=True, blank=True)
    hand_moved_version = models.BigIntegerField(default=0)
    next_deck_key = models.CharField(
        max_length=64, blank=True, help_text="Secret: the key of the next hand's deck.")
    next_commitment = models.CharField(
        max_length=64, blank=True,
        help_text="The next hand's deck commitment, published before players send entropy.")

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version}"

    @property
    def hand_running(self) -> bool:
        return self.hand is not None and self.hand.finished_at is None


class TablePresence(models.Model):
    """How many sockets a logged-in user has open at a table through one server process, and
    when the last one closed: a reconnect earns the turn bonus only if every socket had dropped
    during his own turn. In the database, not a process's memory: his sockets may be served by
    different processes; rows of a process that died are ignored (tables/services/presence.py)."""

    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    server = models.CharField(max_length=64,
                              help_text="The server process holding the sockets (its boot id).")
    sockets = models.PositiveIntegerField(default=0)
    dropped_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When the last open socket closed.")
    open_since = models.DateTimeField(
        null=True, blank=True,
        help_text="When this process's sockets went from none to one: a hand that started "
                  "after it was watched whole (statistics count it for a spectator).")

    class Meta:
        verbose_name_plural = "table presences"
        constraints = [
            models.UniqueConstraint(fields=["table", "user", "server"],
                                    name="presence_unique_per_server"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}: {self.sockets} sockets"


class AutoTopUpMode(models.TextChoices):
    TO_MAX = "max", "Before every hand, top up to the maximum buy-in"
    BELOW = "below", "When below a number of big blinds, top up to the maximum buy-in"


class AutoTopUp(models.Model):
    """A player's standing order at one table: buy chips between hands, through the cashier
    like a manual top-up (a busted stack included: that is an automatic rebuy)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="auto_top_ups")
    table = models.ForeignKey(TableConfig, on_delete=models.CASCADE, related_name="auto_top_ups")
    mode = models.CharField(max_length=8, choices=AutoTopUpMode.choices)
    threshold_bb = models.PositiveIntegerField(
        default=0, help_text="Mode 'below': top up when the stack is under this many big blinds."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "table"], name="auto_top_up_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}: {self.get_mode_display()}"
