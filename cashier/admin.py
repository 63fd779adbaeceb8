"""Django admin: decide deposits and withdrawals (who and when is recorded by the services);
the ledger itself is read-only — nothing here can add, edit or delete an entry."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest

from cashier import services
from cashier.errors import CashierError
from cashier.models import (
    CashOut,
    Deposit,
    DepositLimit,
    HandSettlement,
    IdempotencyRecord,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    PendingTopUp,
    SelfExclusion,
    Withdrawal,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable by staff with the view permission; never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ("account", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "currency", "user", "table", "balance")
    list_filter = ("kind", "currency")
    search_fields = ("user__username", "table__name")


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "kind", "currency", "user", "table", "memo")
    list_filter = ("kind", "currency")
    search_fields = ("user__username", "memo")
    date_hierarchy = "created_at"
    inlines = [EntryInline]


def _decide(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet, decide: Any,
    noun: str,
) -> None:
    done = refused = 0
    for row in queryset.order_by("pk"):
        try:
            decide(row, request.user)
            done += 1
        except CashierError as refusal:
            refused += 1
            modeladmin.message_user(request, f"{noun} #{row.pk}: {refusal.message}",
                                    messages.WARNING)
    if done:
        modeladmin.message_user(request, f"{done} {noun.lower()}(s) done.", messages.SUCCESS)
    if refused and not done:
        modeladmin.message_user(request, "Nothing was changed.", messages.WARNING)


class ReasonActionForm(ActionForm):
    reason = forms.CharField(required=False, max_length=200, label="Reason (for rejections)")


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "").strip() or "Rejected by the cashier."


class DecisionAdmin(ReadOnlyAdmin):
    """Decisions only through the actions below (they call the cashier services)."""

    action_form = ReasonActionForm

    date_hierarchy = "created_at"
    search_fields = ("user__username",)

    def has_decide_permission(self, request: HttpRequest) -> bool:
        """Approving or rejecting needs the model's change permission (superusers have it)."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")


@admin.register(Deposit)
class DepositAdmin(DecisionAdmin):
    list_display = ("id", "created_at", "user", "amount_display", "provider", "status",
                    "decided_by", "decided_at")
    list_filter = ("status", "provider")
    actions = ("approve", "reject")

    @admin.display(description="Amount")
    def amount_display(self, obj: Deposit) -> str:
        return f"${obj.amount / 100:,.2f}"

    @admin.action(description="Approve selected pending deposits (credit the wallet)",
                  permissions=["decide"])
    def approve(self, request: HttpRequest, queryset: QuerySet) -> None:
        _decide(self, request, queryset,
                lambda row, by: services.deposit_approve(deposit=row, by=by), "Deposit")

    @admin.action(description="Reject selected pending deposits", permissions=["decide"])
    def reject(self, request: HttpRequest, queryset: QuerySet) -> None:
        _decide(self, request, queryset,
                lambda row, by: services.deposit_reject(deposit=row, by=by,
                                                        reason=_reason(request)),
                "Deposit")


@admin.register(Withdrawal)
class WithdrawalAdmin(DecisionAdmin):
    list_display = ("id", "created_at", "user", "amount_display", "status", "decided_by",
                    "decided_at", "reason")
    list_filter = ("status",)
    actions = ("approve", "reject")

    @admin.display(description="Amount")
    def amount_display(self, obj: Withdrawal) -> str:
        return f"${obj.amount / 100:,.2f}"

    @admin.action(description="Approve selected pending withdrawals (pay out)",
                  permissions=["decide"])
    def approve(self, request: HttpRequest, queryset: QuerySet) -> None:
        _decide(self, request, queryset,
                lambda row, by: services.withdrawal_approve(withdrawal=row, by=by),
                "Withdrawal")

    @admin.action(description="Reject selected pending withdrawals (back to the wallet)",
                  permissions=["decide"])
    def reject(self, request: HttpRequest, queryset: QuerySet) -> None:
        _decide(self, request, queryset,
                lambda row, by: services.withdrawal_reject(withdrawal=row, by=by,
                                                           reason=_reason(request)),
                "Withdrawal")


for model, fields in (
    (PendingTopUp, ("id", "created_at", "table", "player", "amount", "applied_amount",
                    "status")),
    (CashOut, ("id", "created_at", "table", "player", "amount")),
    (HandSettlement, ("id", "created_at", "table", "hand_id", "rake")),
    (IdempotencyRecord, ("id", "created_at", "operation", "key")),
    (DepositLimit, ("id", "created_at", "user", "period", "amount", "effective_at",
                    "superseded")),
    (SelfExclusion, ("id", "created_at", "user", "starts_at", "ends_at")),
):
    admin.site.register(model, type(f"{model.__name__}Admin", (ReadOnlyAdmin,),
                                    {"list_display": fields}))
