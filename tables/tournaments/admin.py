"""Tournaments in Django admin: templates with their levels and payouts inline, money in
currency units; tournaments and their entries to look at. Play is never shown here (no hand,
no card); entries, pools and events change only through the services."""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms import BaseInlineFormSet
from django.http import HttpRequest

from cashier.admin import ReadOnlyAdmin
from cashier.money import money_format
from tables.tournaments.engine.levels import Break
from tables.tournaments.engine.levels import Level as LevelTerms
from tables.tournaments.engine.purchases import addon_break_after
from tables.tournaments.forms import PayoutTierForm, TournamentTemplateForm
from tables.tournaments.models import (
    Entry,
    EntryState,
    Level,
    PayoutTier,
    Tournament,
    TournamentEvent,
    TournamentTemplate,
    tiers_error,
)


class LevelFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        """An add-on needs its break: one after the rebuy levels (engine/purchases.py)."""
        super().clean()
        template = self.instance
        if not getattr(template, "addon_chips", 0):
            return
        rows = sorted((form.cleaned_data for form in self.forms if form.cleaned_data
                       and not form.cleaned_data.get("DELETE") and "order" in form.cleaned_data),
                      key=lambda row: row["order"])
        structure = [Break(1) if row.get("is_break") else LevelTerms(1, 2, 1) for row in rows]
        if addon_break_after(structure, template.rebuy_levels or 0) is None:
            raise ValidationError("The add-on is offered during the first break after the "
                                  f"rebuy levels ({max(template.rebuy_levels or 0, 1)}): add "
                                  "that break.")


class LevelInline(admin.TabularInline):
    model = Level
    formset = LevelFormSet
    extra = 0
    fields = ("order", "small_blind", "big_blind", "ante", "big_blind_ante", "minutes",
              "is_break")


class PayoutFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        tiers = [(form.cleaned_data["min_entries"], form.cleaned_data["max_entries"])
                 for form in self.forms
                 if form.cleaned_data and not form.cleaned_data.get("DELETE")
                 and "min_entries" in form.cleaned_data and "max_entries" in form.cleaned_data]
        error = tiers_error(tiers)
        if error:
            raise ValidationError(error)


class PayoutInline(admin.TabularInline):
    model = PayoutTier
    form = PayoutTierForm
    formset = PayoutFormSet
    extra = 0


@admin.register(TournamentTemplate)
class TournamentTemplateAdmin(admin.ModelAdmin):
    form = TournamentTemplateForm
    inlines = (LevelInline, PayoutInline)
    list_display = ("name", "kind", "currency", "buy_in_label", "starting_stack",
                    "seats_per_table", "is_active")
    list_filter = ("kind", "currency", "is_active")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "kind", "currency", "is_active")}),
        ("Money", {"fields": ("buy_in", "fee", "guarantee"),
                   "description": "Amounts in currency units: dollars and cents for real money "
                   "(“10”, “10.00” or “$10.00”), chips for play money (“1,000”)."}),
        ("Field", {"fields": ("starting_stack", "seats_per_table", "entries_cap", "min_field",
                              "max_reentries", "late_registration_levels")}),
        ("Rebuys and add-on", {"fields": ("max_rebuys", "rebuy_levels", "rebuy_price",
                                          "rebuy_chips", "rebuy_max_stack", "addon_price",
                                          "addon_chips"),
                               "description": "Prices in currency units, all to the prize "
                               "pool; chips are tournament chips. The add-on is offered once "
                               "per entry during the first break after the rebuy levels (at "
                               "least one level)."}),
        ("Timing", {"fields": ("action_seconds", "countdown_seconds", "timeout_policy",
                               "time_bank_seconds", "time_bank_refill_seconds",
                               "time_bank_refill_hands", "time_bank_cap_seconds",
                               "hand_pause_seconds")}),
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        """A saved template's currency is fixed: its amounts are in it."""
        fixed = ("currency",) if obj is not None else ()
        return (*super().get_readonly_fields(request, obj), *fixed)

    @admin.display(description="Buy-in")
    def buy_in_label(self, template: TournamentTemplate) -> str:
        return (f"{money_format(template.buy_in, template.currency)} + "
                f"{money_format(template.fee, template.currency)}")


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("user", "number", "state", "chips", "table", "seat", "place", "prize_label",
              "times_moved")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Prize")
    def prize_label(self, entry: Entry) -> str:
        return money_format(entry.prize, entry.tournament.currency)


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Read-only: tournaments change through the services (registration, cancellation)."""

    list_display = ("name", "pk", "kind", "state", "starts_at", "buy_in_label", "entries_count",
                    "level", "version")
    list_filter = ("state", "kind", "currency")
    search_fields = ("name",)
    inlines = (EntryInline,)
    fields = ("template", "name", "kind", "currency", "buy_in_label", "state", "starts_at",
              "level", "version", "structure", "created_at", "started_at", "finished_at")
    readonly_fields = fields

    @admin.display(description="Buy-in")
    def buy_in_label(self, tournament: Tournament) -> str:
        return (f"{money_format(tournament.buy_in, tournament.currency)} + "
                f"{money_format(tournament.fee, tournament.currency)}")

    @admin.display(description="Entries")
    def entries_count(self, tournament: Tournament) -> int:
        return tournament.entries.exclude(state=EntryState.UNREGISTERED).count()


@admin.register(TournamentEvent)
class TournamentEventAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "version", "type", "created_at")
    list_filter = ("type",)
    fields = ("tournament", "version", "type", "payload", "created_at")
    readonly_fields = fields
