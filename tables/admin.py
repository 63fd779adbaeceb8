"""Table configuration for operators, in currency units ("$2.00", "2,000 chips"), with a live
one-line preview of the table. Admins configure tables; they never see live hole cards (the
hand state is not exposed here at all)."""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from cashier.admin import ReadOnlyAdmin
from cashier.money import money_format
from tables import chat_admin, deck_admin  # noqa: F401  (register their models)
from tables.forms import TableConfigForm
from tables.models import HandSummary, Seat, TableConfig, WaitingListEntry
from tables.preview import buy_in_range, rake_line, table_line

PREVIEW_EMPTY = "Fill in the stakes and the buy-in to see the table's line."


@admin.register(TableConfig)
class TableConfigAdmin(admin.ModelAdmin):
    form = TableConfigForm
    list_display = ("name", "structure", "currency", "stakes", "buy_in", "rake", "max_seats",
                    "is_active")
    list_filter = ("structure", "currency", "is_active")
    search_fields = ("name",)
    readonly_fields = ("preview",)
    fieldsets = (
        (None, {"fields": ("preview", "name", "structure", "currency", "max_seats",
                           "is_active")}),
        ("Stakes and blinds", {
            "fields": ("small_blind", "big_blind", "small_bet", "big_bet", "small_blind_rule",
                       "ante"),
            "description": "Amounts in currency units: dollars and cents for real money "
            "(“2”, “2.00” or “$2.00”), chips for play money (“2,000”). No-limit and pot-limit: "
            "the small and big blind (“1” and “2” for NL $1/$2). Fixed-limit: the small and "
            "big bet (“2” and “4” for Limit $2/$4); its blinds follow the small bet.",
        }),
        ("Buy-in", {"fields": ("min_buy_in", "max_buy_in", "ratholing_window_minutes")}),
        ("Rake", {"fields": ("rake_percent", "rake_cap", "rake_cap_by_players",
                             "no_flop_no_drop")}),
        ("Timing", {"fields": (
            "action_seconds", "countdown_seconds", "timeout_policy", "timeout_allin_daily_cap",
            "sit_out_limit_minutes", "hand_pause_seconds",
        )}),
        ("Chat", {"fields": ("chat_spectators",)}),
        ("Game options", {"fields": ("straddle_allowed", "run_it_twice_allowed", "rabbit_hunt_allowed")}),
        ("Time bank", {
            "fields": ("time_bank_seconds", "time_bank_refill_seconds", "time_bank_refill_hands",
                       "time_bank_cap_seconds"),
            "description": "Off by default (0 s): the turn is the action time, then the "
            "countdown, then the timeout rule. With a time bank, a player whose countdown ends "
            "uses his bank first; the timeout rule applies when it is empty too.",
        }),
    )

    class Media:
        js = ("js/admin/table-preview.js", "js/admin/table-stakes.js")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        """A saved table's currency is fixed: its escrow, ledger and amounts are in it."""
        fixed = ("currency",) if obj is not None else ()
        return (*super().get_readonly_fields(request, obj), *fixed)

    @admin.display(description="Stakes")
    def stakes(self, table: TableConfig) -> str:
        return table.stakes_label()

    @admin.display(description="Buy-in")
    def buy_in(self, table: TableConfig) -> str:
        return buy_in_range(table)

    @admin.display(description="Rake")
    def rake(self, table: TableConfig) -> str:
        return rake_line(table)

    @admin.display(description="Preview")
    def preview(self, table: TableConfig | None) -> str:
        """The saved line; static/js/admin/table-preview.js refreshes it from `preview_view`
        as the operator types."""
        line = table_line(table) if table is not None and table.pk else PREVIEW_EMPTY
        url = reverse("admin:tables_tableconfig_preview",
                      args=(table.pk,) if table is not None and table.pk else ())
        return format_html('<output id="table-preview" data-preview-url="{}" aria-live="polite">'
                           "{}</output>", url, line)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.preview_view)
        return [
            path("preview/", view, name="tables_tableconfig_preview"),
            path("<int:object_id>/preview/", view, name="tables_tableconfig_preview"),
            *super().get_urls(),
        ]

    def preview_view(self, request: HttpRequest, object_id: int | None = None) -> JsonResponse:
        """The line for the form's current values (GET), validated by the admin's own form;
        nothing is saved. {"ok": true, "line": ...} or {"ok": false, "line": <first error>}."""
        table = self.get_object(request, str(object_id)) if object_id is not None else None
        if object_id is not None and table is None:
            raise Http404("No such table.")
        allowed = (self.has_change_permission(request, table) if table is not None
                   else self.has_add_permission(request))
        if not allowed:
            raise PermissionDenied
        form = self.get_form(request, table, change=table is not None)(
            request.GET, instance=table if table is not None else TableConfig())
        if form.is_valid():
            return JsonResponse({"ok": True, "line": table_line(form.instance)})
        field, messages = next(iter(form.errors.items()))
        label = form.fields[field].label if field in form.fields else ""
        return JsonResponse({"ok": False, "line": f"{label or 'Table'}: {messages[0]}"})


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):  # seats move money: the services only
    list_display = ("table", "number", "player", "stack", "status")
    list_filter = ("table", "status")
    list_select_related = ("table", "player")
    fields = ("table", "number", "player", "stack", "status", "time_bank", "created_at")
    readonly_fields = fields

    @admin.display(description="Chips")
    def stack(self, seat: Seat) -> str:
        return money_format(seat.chips, seat.table.currency)


@admin.register(HandSummary)
class HandSummaryAdmin(ReadOnlyAdmin):
    list_display = ("table", "finished_at", "pot_money", "players_dealt", "players_saw_flop")
    list_filter = ("table",)
    list_select_related = ("table",)
    fields = ("table", "finished_at", "pot_money", "players_dealt", "players_saw_flop")
    readonly_fields = fields

    @admin.display(description="Pot")
    def pot_money(self, summary: HandSummary) -> str:
        return money_format(summary.pot, summary.table.currency)


@admin.register(WaitingListEntry)
class WaitingListEntryAdmin(admin.ModelAdmin):
    """Operators see who waits where and which seat is held for whom. Entries are made by the
    players (tables/services/waitlist.py); removing one frees its held seat for the next."""

    list_display = ("table", "player", "joined_at", "offered_seat", "offer_expires_at")
    list_filter = ("table",)
    readonly_fields = ("table", "player", "joined_at", "offered_seat", "offer_expires_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False
