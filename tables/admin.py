"""Table configuration for operators. Admins configure tables; they never see live hole cards
(the hand state is not exposed here at all)."""
from __future__ import annotations

from django.contrib import admin

from tables.models import HandSummary, Seat, TableConfig


@admin.register(TableConfig)
class TableConfigAdmin(admin.ModelAdmin):
    list_display = ("name", "structure", "currency", "stakes", "max_seats", "rake_percent", "is_active")
    list_filter = ("structure", "currency", "is_active")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "structure", "currency", "max_seats", "is_active")}),
        ("Stakes and blinds", {
            "fields": ("lower_stake", "upper_stake", "small_blind_rule", "small_blind", "ante"),
            "description": "Amounts in minor units: cents for real money, chips for play money. "
            "The big blind is the lower stake.",
        }),
        ("Buy-in", {"fields": ("min_buy_in_bb", "max_buy_in_bb", "ratholing_window_minutes")}),
        ("Rake", {"fields": ("rake_percent", "rake_cap", "rake_cap_by_players", "no_flop_no_drop")}),
        ("Timing", {"fields": (
            "action_seconds", "countdown_seconds", "timeout_policy", "timeout_allin_daily_cap",
            "sit_out_limit_minutes", "hand_pause_seconds",
        )}),
    )

    @admin.display(description="Stakes")
    def stakes(self, table: TableConfig) -> str:
        return table.stakes_label()


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "player", "chips", "status")
    list_filter = ("table", "status")
    readonly_fields = ("table", "number", "player", "chips", "status", "created_at")

    def has_add_permission(self, request, obj=None) -> bool:  # seats move money: services only
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(HandSummary)
class HandSummaryAdmin(admin.ModelAdmin):
    list_display = ("table", "finished_at", "pot", "players_dealt", "players_saw_flop")
    list_filter = ("table",)
    readonly_fields = ("table", "finished_at", "pot", "players_dealt", "players_saw_flop")

    def has_add_permission(self, request, obj=None) -> bool:
        return False
