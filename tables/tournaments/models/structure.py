"""Reusable tournament structures, edited in the admin: a template, its levels and its payout
table. A tournament copies its template's structure when it is created (`Tournament.structure`),
so editing a template never changes an event already announced or running.

Buy-in, fee and the rebuy and add-on prices are money (minor units of the template's currency,
typed in the admin in currency units); stacks, blinds, antes and the chips a rebuy or an add-on
buys are tournament chips, which are not money."""
from __future__ import annotations

import itertools

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from cashier.money import Currency
from tables.models import TimeoutPolicy

BASIS_POINTS = 10_000  # 100 %


class TournamentKind(models.TextChoices):
    SIT_AND_GO = "sit_and_go", "Sit & Go"
    SCHEDULED = "scheduled", "Scheduled"


class TournamentTemplate(models.Model):
    """What a tournament is played by. A Sit & Go starts when `entries_cap` players have
    registered (a single-table one: the seats per table); a scheduled event starts at its time
    if `min_field` players have registered, else it is cancelled and everyone refunded."""

    name = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=10, choices=TournamentKind.choices)
    currency = models.CharField(max_length=4, choices=Currency.choices, default=Currency.PLAY)
    buy_in = models.BigIntegerField(help_text="To the prize pool, in minor units.")
    fee = models.BigIntegerField(default=0, help_text="To the house, in minor units.")
    starting_stack = models.PositiveIntegerField(help_text="Tournament chips (not money).")
    seats_per_table = models.PositiveSmallIntegerField(
        default=9, validators=[MinValueValidator(2), MaxValueValidator(10)])
    entries_cap = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="Most entries. A Sit & Go needs it (the seats per table for a single-table "
        "one); empty for a scheduled event without a cap.")
    max_reentries = models.PositiveSmallIntegerField(
        default=0, help_text="Re-entries a player may buy after busting; 0 = freezeout.")
    late_registration_levels = models.PositiveSmallIntegerField(
        default=0, help_text="Registration (and re-entry) stays open until this level has "
        "ended; 0 = closes at the start.")
    max_rebuys = models.PositiveSmallIntegerField(
        default=0, help_text="Rebuys a player may buy per entry; 0 = none.")
    rebuy_levels = models.PositiveSmallIntegerField(
        default=0, help_text="Rebuys stay open until this level has ended (through the break "
        "after it), as late registration does.")
    rebuy_price = models.BigIntegerField(
        default=0, help_text="What a rebuy costs, all to the prize pool, in minor units.")
    rebuy_chips = models.PositiveIntegerField(default=0, help_text="Chips a rebuy buys.")
    rebuy_max_stack = models.PositiveIntegerField(
        default=0, help_text="A rebuy only while the player's chips (and chips bought not yet "
        "at the table) are at most this; 0 = only when busted. Usually the starting stack.")
    addon_price = models.BigIntegerField(
        default=0, help_text="What the add-on costs, all to the prize pool, in minor units.")
    addon_chips = models.PositiveIntegerField(
        default=0, help_text="Chips the add-on buys, once per entry, during the first break "
        "after the rebuy levels; 0 = no add-on.")
    min_field = models.PositiveIntegerField(
        default=2, validators=[MinValueValidator(2)],
        help_text="Scheduled: fewer entries at the start time cancel (and refund) the event.")
    guarantee = models.BigIntegerField(
        default=0, help_text="Scheduled: the least prize pool, in minor units; the house pays "
        "the overlay. 0 = none.")
    action_seconds = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1)], help_text="Quiet time to act.")
    countdown_seconds = models.PositiveSmallIntegerField(
        default=20, help_text="Visible countdown after the quiet time.")
    timeout_policy = models.CharField(
        max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.SEEDS)
    time_bank_seconds = models.PositiveSmallIntegerField(default=0)
    time_bank_refill_seconds = models.PositiveSmallIntegerField(default=0)
    time_bank_refill_hands = models.PositiveSmallIntegerField(default=10)
    time_bank_cap_seconds = models.PositiveSmallIntegerField(default=0)
    hand_pause_seconds = models.PositiveSmallIntegerField(
        default=3, help_text="Pause between hands at the tournament's tables.")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(buy_in__gt=0), name="tournament_buy_in_positive"),
            models.CheckConstraint(condition=Q(fee__gte=0), name="tournament_fee_not_negative"),
            models.CheckConstraint(condition=Q(guarantee__gte=0),
                                   name="tournament_guarantee_not_negative"),
            models.CheckConstraint(condition=Q(rebuy_price__gte=0, addon_price__gte=0),
                                   name="tournament_purchase_prices_not_negative"),
            models.CheckConstraint(condition=Q(seats_per_table__gte=2, seats_per_table__lte=10),
                                   name="tournament_seats_2_to_10"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.kind == TournamentKind.SIT_AND_GO:
            if not self.entries_cap:
                errors["entries_cap"] = "A Sit & Go starts when full: give its number of entries."
            elif self.entries_cap < 2:
                errors["entries_cap"] = "A Sit & Go needs at least 2 entries."
            elif self.entries_cap > self.seats_per_table:
                # Only a scheduled event balances and breaks tables (services/tables.py).
                errors["entries_cap"] = ("A Sit & Go plays at one table: at most its seats "
                                         "per table.")
            # It starts when full and seats nobody after its start (services/hands.py).
            if self.max_reentries:
                errors["max_reentries"] = "A Sit & Go has no re-entries (it starts when full)."
            if self.late_registration_levels:
                errors["late_registration_levels"] = ("A Sit & Go has no late registration "
                                                      "(it starts when full).")
            if self.guarantee:
                errors["guarantee"] = "Only a scheduled event has a guarantee."
        elif self.entries_cap is not None and self.entries_cap < self.min_field:
            errors["entries_cap"] = "The cap is below the minimum field."
        if self.time_bank_seconds and self.time_bank_cap_seconds < self.time_bank_seconds:
            errors["time_bank_cap_seconds"] = "The cap cannot be below the starting time bank."
        errors.update(self._purchases_errors())
        if errors:
            raise ValidationError(errors)

    def _purchases_errors(self) -> dict[str, str]:
        """Rebuy and add-on terms that cannot work: chips without a price (or the other way
        round), rebuys without a window, rebuy terms without rebuys."""
        errors: dict[str, str] = {}
        if self.max_rebuys:
            if not self.rebuy_chips:
                errors["rebuy_chips"] = "A rebuy needs the chips it buys."
            if not self.rebuy_price:
                errors["rebuy_price"] = "A rebuy needs a price (chips are never free)."
            if not self.rebuy_levels:
                errors["rebuy_levels"] = "Rebuys need a window: the levels they stay open."
        elif self.rebuy_chips or self.rebuy_price or self.rebuy_levels or self.rebuy_max_stack:
            errors["max_rebuys"] = "Rebuy terms without rebuys: give the number of rebuys."
        if self.addon_chips and not self.addon_price:
            errors["addon_price"] = "An add-on needs a price (chips are never free)."
        elif self.addon_price and not self.addon_chips:
            errors["addon_chips"] = "An add-on price without the chips it buys."
        return errors

    def structure_snapshot(self) -> dict:
        """The snapshot a tournament keeps (JSON): every rule it is played by."""
        fields = ("starting_stack", "seats_per_table", "entries_cap", "max_reentries",
                  "late_registration_levels", "max_rebuys", "rebuy_levels", "rebuy_price",
                  "rebuy_chips", "rebuy_max_stack", "addon_price", "addon_chips", "min_field",
                  "guarantee", "action_seconds", "countdown_seconds", "timeout_policy",
                  "time_bank_seconds", "time_bank_refill_seconds", "time_bank_refill_hands",
                  "time_bank_cap_seconds", "hand_pause_seconds")
        return {
            **{name: getattr(self, name) for name in fields},
            "levels": [level.snapshot() for level in self.levels.order_by("order")],
            "payouts": [tier.snapshot() for tier in self.payouts.order_by("min_entries")],
        }


class Level(models.Model):
    """One blind level (or a break: `is_break`, no blinds), `minutes` long."""

    template = models.ForeignKey(TournamentTemplate, on_delete=models.CASCADE,
                                 related_name="levels")
    order = models.PositiveSmallIntegerField()
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0, help_text="Per player (or the big blind's "
                                       "whole ante with a big-blind ante).")
    big_blind_ante = models.BooleanField(default=False,
                                         help_text="The big blind posts the table's ante.")
    minutes = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    is_break = models.BooleanField(default=False)

    class Meta:
        ordering = ["template", "order"]
        constraints = [models.UniqueConstraint(fields=["template", "order"],
                                               name="one_level_per_order")]

    def __str__(self) -> str:
        if self.is_break:
            return f"break ({self.minutes} min)"
        return f"{self.small_blind}/{self.big_blind} ante {self.ante} ({self.minutes} min)"

    def clean(self) -> None:
        if self.is_break:
            if self.small_blind or self.big_blind or self.ante:
                raise ValidationError("A break has no blinds or ante.")
            return
        if not self.big_blind or not self.small_blind:
            raise ValidationError("A level needs a small and a big blind.")
        if self.small_blind > self.big_blind:
            raise ValidationError({"small_blind": "The small blind is above the big blind."})
        if self.big_blind_ante and not self.ante:
            raise ValidationError({"ante": "A big-blind ante needs its amount."})

    def snapshot(self) -> dict:
        return {"order": self.order, "small_blind": self.small_blind,
                "big_blind": self.big_blind, "ante": self.ante,
                "big_blind_ante": self.big_blind_ante, "minutes": self.minutes,
                "is_break": self.is_break}


def places_error(places: object) -> str | None:
    """Why a list of prizes by place in basis points is not a payout (None when it is)."""
    if not isinstance(places, list) or not places:
        return "Give at least one paid place."
    if any(not isinstance(p, int) or isinstance(p, bool) or p <= 0 for p in places):
        return "Every paid place gets a positive share."
    if sum(places) != BASIS_POINTS:
        return f"The shares add up to {sum(places) / 100:g} %, not 100 %."
    if any(later > earlier for earlier, later in itertools.pairwise(places)):
        return "A place cannot pay more than the place above it."
    return None


class PayoutTier(models.Model):
    """The payout for fields of `min_entries` to `max_entries` entries: each paid place's share
    of the prize pool in basis points (1st first, summing to 10,000). Rounding remainders go to
    first place (the engine's payouts do the arithmetic)."""

    template = models.ForeignKey(TournamentTemplate, on_delete=models.CASCADE,
                                 related_name="payouts")
    min_entries = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    max_entries = models.PositiveIntegerField()
    places = models.JSONField(help_text="Basis points by place, e.g. [5000, 3000, 2000].")

    class Meta:
        ordering = ["template", "min_entries"]
        constraints = [models.CheckConstraint(condition=Q(max_entries__gte=models.F("min_entries")),
                                              name="payout_range_ordered")]

    def __str__(self) -> str:
        return f"{self.min_entries} to {self.max_entries} entries: {len(self.places or [])} paid"

    def clean(self) -> None:
        error = places_error(self.places)
        if error:
            raise ValidationError({"places": error})
        if self.max_entries is not None and self.min_entries is not None:
            if self.max_entries < self.min_entries:
                raise ValidationError({"max_entries": "The range ends before it starts."})
            if len(self.places) > self.min_entries:
                raise ValidationError({"places": f"{len(self.places)} paid places for a field "
                                       f"that may have only {self.min_entries} entries."})

    def snapshot(self) -> dict:
        return {"min_entries": self.min_entries, "max_entries": self.max_entries,
                "places": list(self.places)}


def tiers_error(tiers: list[tuple[int, int]]) -> str | None:
    """Why payout ranges (min, max entries) overlap (None when they do not)."""
    ordered = sorted(tiers)
    for (_, high), (low, _) in itertools.pairwise(ordered):
        if low <= high:
            return f"The field sizes {low} to {high} have two payouts."
    return None
