"""Django admin: decide deposits and withdrawals (who and when is recorded by the services);
the ledger itself is read-only — nothing here can add, edit or delete an entry. Every amount
is shown as money ("$12.34", "2,500 chips"), never as bare minor units."""
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
    Currency,
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
from cashier.money import money_format

REAL = Currency.REAL


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable by staff with the view permission; never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _money(description: str, field: str, currency: Any = None) -> Any:
    """An admin column showing `field` as money in the row's currency (or a fixed one)."""

    @admin.display(description=description, ordering=field)
    def show(self: Any, obj: Any) -> str:
        amount = getattr(obj, field)
        if amount is None:
            return "—"
        return money_format(amount, currency or _currency_of(obj))

    return show


def _currency_of(obj: Any) -> str:
    for owner in ("currency", "account", "table"):
        value = getattr(obj, owner, None)
        if isinstance(value, str):
            return value
        if value is not None:
            return value.currency
    raise AttributeError(f"{obj!r} has no currency")


class EntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ("account", "amount_money")
    readonly_fields = fields
    amount_money = _money("Amount", "amount")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "currency", "user", "table", "tournament", "balance_money")
    list_filter = ("kind", "currency")
    list_select_related = ("user", "table", "tournament")
    search_fields = ("user__username", "table__name")
    fields = ("kind", "currency", "user", "table", "tournament", "balance_money", "created_at")
    readonly_fields = fields
    balance_money = _money("Balance", "balance")


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "kind", "currency", "user", "table", "tournament",
                    "memo")
    list_filter = ("kind", "currency")
    list_select_related = ("user", "table", "tournament")
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

    amount_display = _money("Amount", "amount", REAL)

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

    amount_display = _money("Amount", "amount", REAL)

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


# The other cashier rows: read-only lists with their amounts as money.
for model, fields, amounts, currency in (
    (PendingTopUp, ("id", "created_at", "table", "player", "status"),
     ("amount", "applied_amount"), None),
    (CashOut, ("id", "created_at", "table", "player"), ("amount",), None),
    (HandSettlement, ("id", "created_at", "table", "hand_id"), ("rake",), None),
    (IdempotencyRecord, ("id", "created_at", "operation", "key"), (), None),
    (DepositLimit, ("id", "created_at", "user", "period", "effective_at", "superseded"),
     ("amount",), REAL),
    (SelfExclusion, ("id", "created_at", "user", "starts_at", "ends_at"), (), None),
):
    columns = {f"{name}_money": _money(name.replace("_", " ").capitalize(), name, currency)
               for name in amounts}
    admin.site.register(model, type(f"{model.__name__}Admin", (ReadOnlyAdmin,), {
        "list_display": (*fields, *columns), **columns,
        "list_select_related": tuple(n for n in ("table", "player", "user")
                                     if n in fields),
    }))
