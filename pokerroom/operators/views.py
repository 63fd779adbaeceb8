"""The operator dashboard and the player page (custom admin views, wrapped in
`admin.site.admin_view` by urls.py: staff only, others go to the admin login).

Viewing needs the cashier's ledger view permission (and the user view permission for player
pages): staff without them get 403."""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from cashier.audit import ledger_audit
from cashier.models import AccountKind
from cashier.money import Currency
from cashier.selectors import balances_for, deposits_for, pending_withdrawals_for, withdrawals_for
from pokerroom.operators import selectors

LEDGER_VIEW = "cashier.view_ledgeraccount"
USER_VIEW = "accounts.view_user"


def _require(request: HttpRequest, *perms: str) -> None:
    if not request.user.has_perms(perms):
        raise PermissionDenied


def _page(request: HttpRequest, template: str, title: str, **context: Any) -> HttpResponse:
    return render(request, template, {**admin.site.each_context(request), "title": title,
                                      **context})


def dashboard(request: HttpRequest) -> HttpResponse:
    """The room now (hands running, players seated, hands in the last hour, sockets), pending
    withdrawals and deposits, rake by table and day (30 days), the ledger audit on
    request (`?audit=1`: it reads every entry, so it runs on a click, not on every visit) and
    a player search (`?player=...`; an exact username goes straight to the player page)."""
    _require(request, LEDGER_VIEW)
    query = request.GET.get("player", "").strip()
    matches = selectors.players_named(query) if query else []
    if query and request.user.has_perm(USER_VIEW):
        exact = [user for user in matches if user.username.lower() == query.lower()]
        if len(exact) == 1:
            return redirect("operators:player", user_id=exact[0].pk)
    audit = ledger_audit() if request.GET.get("audit") else None
    return _page(
        request, "admin/operators/dashboard.html", "Operator dashboard",
        now=selectors.room_now(), audit=audit,
        trial_balance=_trial_balance(audit) if audit else [],
        withdrawals=selectors.pending_withdrawals(),
        oldest_withdrawals=selectors.pending_withdrawal_rows(),
        deposits=selectors.pending_deposits(),
        rake=selectors.rake_by_table_and_day(),
        query=query, matches=matches,
        withdrawals_url=reverse("admin:cashier_withdrawal_changelist") + "?status__exact=pending",
        deposits_url=reverse("admin:cashier_deposit_changelist") + "?status__exact=pending",
    )


def _trial_balance(audit: Any) -> list[dict[str, Any]]:
    """The audit's balances per currency and account kind, and their sum (0 when sound)."""
    labels = dict(AccountKind.choices)
    return [{"currency": currency,
             "rows": [(labels.get(kind, kind), amount) for kind, amount in sorted(kinds.items())],
             "total": sum(kinds.values())}
            for currency, kinds in sorted(audit.totals.items())]


def player(request: HttpRequest, user_id: int) -> HttpResponse:
    """One player for the operator: balances and money at tables, responsible-gaming limits and
    self-exclusion, pending and recent cashier requests, table sessions and finished hands
    (linked to their public hand history: never a running hand, never hidden cards)."""
    _require(request, LEDGER_VIEW, USER_VIEW)
    user = get_object_or_404(get_user_model(), pk=user_id)
    wallets = balances_for(user=user)
    return _page(
        request, "admin/operators/player.html", f"Player {user.username}",
        player=user,
        balances=[(label, currency, wallets[currency]) for currency, label in Currency.choices],
        at_tables=selectors.money_at_tables(user=user),
        gaming=selectors.responsible_gaming(user=user),
        pending=pending_withdrawals_for(user=user),
        withdrawals=withdrawals_for(user=user),
        deposits=deposits_for(user=user),
        sessions=selectors.table_sessions(user=user),
        hands=selectors.finished_hands(user=user),
        ledger_url=reverse("admin:cashier_ledgertransaction_changelist")
        + f"?user__id__exact={user.pk}",
    )
