"""Tournaments, their entries and their event log.

A tournament keeps a copy of its template's structure (`structure`), so later edits of the
template change nothing it plays by. Its `version` numbers its own append-only event log
(`TournamentEvent`), as a table's version numbers its `HandEvent` rows. The lock order
(tables/services/locks.py) puts the tournament row before any table row and the cashier's
rows; its entries and events are changed only while that row is held."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from cashier.money import Currency, money_format
from tables.tournaments.engine.purchases import PurchaseTerms
from tables.tournaments.models.structure import TournamentKind, TournamentTemplate


class TournamentState(models.TextChoices):
    ANNOUNCED = "announced", "Announced"
    REGISTERING = "registering", "Registering"
    RUNNING = "running", "Running"
    ON_BREAK = "on_break", "On break"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


STARTED = (TournamentState.RUNNING, TournamentState.ON_BREAK)
OVER = (TournamentState.FINISHED, TournamentState.CANCELLED)


class Tournament(models.Model):
    """One event. `level` is the level being played (1, 2, ...; 0 before the start)."""

    template = models.ForeignKey(TournamentTemplate, on_delete=models.PROTECT,
                                 related_name="tournaments")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=TournamentKind.choices)
    currency = models.CharField(max_length=4, choices=Currency.choices)
    buy_in = models.BigIntegerField(help_text="Minor units, to the prize pool.")
    fee = models.BigIntegerField(help_text="Minor units, to the house.")
    structure = models.JSONField(help_text="The template's structure when this was created.")
    state = models.CharField(max_length=12, choices=TournamentState.choices,
                             default=TournamentState.ANNOUNCED, db_index=True)
    starts_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Scheduled: the start time. Sit & Go: none.")
    level = models.PositiveSmallIntegerField(default=0)
    version = models.BigIntegerField(default=0, help_text="The last event's version.")
    hand_for_hand = models.JSONField(
        null=True, blank=True, help_text="On the bubble: each table's hands dealt when "
        "hand-for-hand began ({table id: count}); None when off.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["state", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.name} #{self.pk}"

    def money_label(self, amount: int) -> str:
        return money_format(amount, self.currency)

    @property
    def entries_cap(self) -> int | None:
        return self.structure.get("entries_cap")

    @property
    def max_reentries(self) -> int:
        return self.structure.get("max_reentries", 0)

    @property
    def purchase_terms(self) -> PurchaseTerms:
        """The rebuy and add-on terms it copied (none for a tournament made before them)."""
        s = self.structure
        return PurchaseTerms(
            max_rebuys=s.get("max_rebuys", 0), rebuy_levels=s.get("rebuy_levels", 0),
            rebuy_chips=s.get("rebuy_chips", 0), rebuy_max_stack=s.get("rebuy_max_stack", 0),
            addon_chips=s.get("addon_chips", 0))

    @property
    def rebuy_price(self) -> int:
        return self.structure.get("rebuy_price", 0)

    @property
    def addon_price(self) -> int:
        return self.structure.get("addon_price", 0)

    @property
    def registration_open(self) -> bool:
        """Before the start while registering; after it, through the late-registration levels."""
        if self.state == TournamentState.REGISTERING:
            return True
        late = self.structure.get("late_registration_levels", 0)
        return self.state in STARTED and 0 < self.level <= late


class EntryState(models.TextChoices):
    REGISTERED = "registered", "Registered"
    PLAYING = "playing", "Playing"
    BUSTED = "busted", "Busted"
    UNREGISTERED = "unregistered", "Unregistered (refunded)"


ACTIVE = (EntryState.REGISTERED, EntryState.PLAYING)


class Entry(models.Model):
    """One buy-in of one player: `number` 1 for the first, 2 for the first re-entry, ...
    `idempotency` is the register request's client-made key (a retry finds this row);
    `refund_key` the key of the request that refunded it (None until refunded)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    number = models.PositiveSmallIntegerField(default=1)
    state = models.CharField(max_length=12, choices=EntryState.choices,
                             default=EntryState.REGISTERED)
    chips = models.BigIntegerField(default=0, help_text="Tournament chips (not money).")
    table = models.ForeignKey("tables.TableConfig", null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    prize = models.BigIntegerField(default=0, help_text="Minor units.")
    times_moved = models.PositiveIntegerField(default=0)
    idempotency = models.CharField(max_length=200, unique=True)
    refund_key = models.CharField(max_length=200, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    busted_at = models.DateTimeField(null=True, blank=True)
    refunded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "number"],
                                    name="one_entry_number_per_player"),
            models.UniqueConstraint(fields=["tournament", "user"],
                                    condition=Q(state__in=["registered", "playing"]),
                                    name="one_live_entry_per_player"),
            models.CheckConstraint(condition=Q(chips__gte=0), name="entry_chips_not_negative"),
            models.CheckConstraint(condition=Q(prize__gte=0), name="entry_prize_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id} (entry {self.number}, {self.state})"


class TournamentEvent(models.Model):
    """Append-only log of one tournament, ordered by its version: what its page and lobby
    replay after a reconnect. Public: tournament events carry nothing private."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    version = models.BigIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "version"]
        constraints = [models.UniqueConstraint(fields=["tournament", "version"],
                                               name="event_version_unique_per_tournament")]

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.version} {self.type}"
