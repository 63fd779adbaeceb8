"""The cashier page (htmx). Views stay thin: validate a form, call one service, say what happened.

With htmx a POST answers with the refreshed panel (the notice inside it); without, it redirects
to the page with a message. Every refusal is a CashierError whose message is shown as is.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cashier import selectors, services
from cashier.errors import CashierError
from cashier.forms import (
    CancelWithdrawalForm,
    DepositForm,
    DepositLimitForm,
    HistoryFilterForm,
    ReloadForm,
    SelfExclusionForm,
    SessionReminderForm,
    WithdrawForm,
    dollars_to_cents,
)
from cashier.models import DepositStatus, LimitPeriod, ResponsibleGamingProfile, Withdrawal
from cashier.money import Currency, money_format

HISTORY_PAGE_SIZE = 20
REAL, PLAY = Currency.REAL, Currency.PLAY


def _panel_context(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    limits = [
        {
            "period": period,
            "current": services.deposit_limit_current(user=user, period=period),
            "pending": services.deposit_limit_pending(user=user, period=period),
        }
        for period in LimitPeriod
    ]
    profile = ResponsibleGamingProfile.objects.filter(user=user).first()
    withdrawals = list(selectors.withdrawals_for(user=user))
    for row in withdrawals:  # one key per row: cancelling two withdrawals are two requests
        row.cancel_form = CancelWithdrawalForm() if row.status == "pending" else None
    return {
        "balances": selectors.balances_for(user=user),
        # Several forms share field names on one page: distinct ids keep labels unambiguous.
        "deposit_form": DepositForm(auto_id="deposit_%s"),
        "withdraw_form": WithdrawForm(auto_id="withdraw_%s"),
        "reload_form": ReloadForm(auto_id="reload_%s"),
        "limit_form": DepositLimitForm(auto_id="limit_%s"),
        "exclusion_form": SelfExclusionForm(auto_id="exclusion_%s"),
        "reminder_form": SessionReminderForm(
            auto_id="reminder_%s",
            initial={"minutes": profile.session_reminder_minutes if profile else None},
        ),
        "withdrawals": withdrawals,
        "deposits": selectors.deposits_for(user=user),
        "limits": limits,
        "exclusion": services.exclusion_active(user=user),
    }


def _history_context(request: HttpRequest) -> dict[str, Any]:
    filters = HistoryFilterForm(request.GET or None)
    kind = currency = ""
    if filters.is_valid():
        kind, currency = filters.cleaned_data["kind"], filters.cleaned_data["currency"]
    rows = selectors.history_for(user=request.user, kind=kind, currency=currency)
    page = Paginator(rows, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    query = "&".join(f"{name}={value}" for name, value in
                     (("kind", kind), ("currency", currency)) if value)
    return {"filter_form": filters if filters.is_bound else HistoryFilterForm(),
            "page": page, "query": query}


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "cashier/home.html",
                  {**_panel_context(request), **_history_context(request)})


@login_required
def header_balances(request: HttpRequest) -> HttpResponse:
    """The header's balances, re-fetched by htmx whenever a cashier action changed them."""
    return render(request, "_header_balances.html")


@login_required
def history(request: HttpRequest) -> HttpResponse:
    if request.htmx:
        return render(request, "cashier/_history.html", _history_context(request))
    return home(request)


def _answer(request: HttpRequest, *, ok: bool, text: str) -> HttpResponse:
    if request.htmx:
        context = {**_panel_context(request), "notice": text,
                   "notice_level": "success" if ok else "error"}
        response = render(request, "cashier/_panel.html", context)
        response["HX-Trigger"] = "cashier-changed"  # the history reloads itself
        return response
    (messages.success if ok else messages.error)(request, text)
    return redirect("cashier:home")


def _first_error(form: Any) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        label = label or (field.replace("_", " ").capitalize() if field != "__all__" else "")
        return f"{label}: {errors[0]}" if label else errors[0]
    return "Please check the form."


def _action(form_class: type, run: Callable[[HttpRequest, Any], str]) -> Callable[..., Any]:
    """A POST view: bind the form, run the service, answer with what happened."""

    @login_required
    @require_POST
    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        form = form_class(request.POST)
        if not form.is_valid():
            return _answer(request, ok=False, text=_first_error(form))
        try:
            text = run(request, form, **kwargs)
        except CashierError as refusal:
            return _answer(request, ok=False, text=refusal.message)
        return _answer(request, ok=True, text=text)

    view.__name__ = run.__name__
    return view


def _deposit(request: HttpRequest, form: DepositForm) -> str:
    amount = dollars_to_cents(form.cleaned_data["amount"])
    row = services.deposit(
        user=request.user, amount=amount, provider=form.cleaned_data["provider"],
        card_number=form.cleaned_data["card_number"], idempotency_key=form.key_for(request.user),
    )
    if row.status == DepositStatus.DECLINED:
        raise CashierError("card_declined", f"Deposit declined: {row.message}")
    if row.status == DepositStatus.PENDING:
        return (f"Deposit of {money_format(amount, REAL)} requested: it is credited when a "
                "cashier confirms your transfer.")
    return f"Deposited {money_format(amount, REAL)}."


def _withdraw(request: HttpRequest, form: WithdrawForm) -> str:
    amount = dollars_to_cents(form.cleaned_data["amount"])
    services.withdrawal_request(user=request.user, amount=amount,
                                idempotency_key=form.key_for(request.user))
    return f"Withdrawal of {money_format(amount, REAL)} requested: pending approval."


def _cancel(request: HttpRequest, form: CancelWithdrawalForm, pk: int) -> str:
    row = get_object_or_404(Withdrawal, pk=pk, user=request.user)
    row = services.withdrawal_cancel(withdrawal=row, user=request.user,
                                     idempotency_key=form.key_for(request.user))
    return f"Withdrawal cancelled: {money_format(row.amount, REAL)} is back in your wallet."


def _reload(request: HttpRequest, form: ReloadForm) -> str:
    services.play_money_reload(user=request.user, idempotency_key=form.key_for(request.user))
    balance = selectors.balances_for(user=request.user)[PLAY]
    return f"Reloaded: you have {money_format(balance, PLAY)}."


def _limit(request: HttpRequest, form: DepositLimitForm) -> str:
    amount = form.cleaned_data["amount"]
    cents = dollars_to_cents(amount) if amount is not None else None
    row = services.deposit_limit_set(user=request.user, period=form.cleaned_data["period"],
                                     amount=cents)
    what = (f"{row.get_period_display()} deposit limit "
            + (f"of {money_format(cents, REAL)}" if cents is not None else "removed"))
    if row.effective_at > row.created_at:
        return f"{what}: takes effect on {row.effective_at:%Y-%m-%d %H:%M} UTC (24 hours)."
    return f"{what}: in force now."


def _exclude(request: HttpRequest, form: SelfExclusionForm) -> str:
    row = services.self_exclusion_start(user=request.user, days=form.cleaned_data["days"])
    return (f"You are self-excluded until {row.ends_at:%Y-%m-%d %H:%M} UTC: no deposits and no "
            "seats until then. Withdrawals stay open.")


def _reminder(request: HttpRequest, form: SessionReminderForm) -> str:
    minutes = form.cleaned_data["minutes"]
    services.session_reminder_set(user=request.user, minutes=minutes)
    return f"Reminder set: every session, after {minutes} minutes." if minutes \
        else "Session reminder off."


deposit_create = _action(DepositForm, _deposit)
withdrawal_create = _action(WithdrawForm, _withdraw)
withdrawal_cancel = _action(CancelWithdrawalForm, _cancel)
play_reload = _action(ReloadForm, _reload)
limit_set = _action(DepositLimitForm, _limit)
exclusion_start = _action(SelfExclusionForm, _exclude)
reminder_set = _action(SessionReminderForm, _reminder)
