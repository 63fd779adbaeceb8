"""Log-in throttling on django-axes' settings: the failure limit (AXES_FAILURE_LIMIT) and the page
a throttled log-in gets (AXES_LOCKOUT_CALLABLE).

Axes counts failures per username and address together (AXES_LOCKOUT_PARAMETERS), against one
limit. Locking a username everywhere would let anyone lock its owner out from anywhere; locking
only the pair would let one address try every username. So an address has a limit of its own,
higher (LOGIN_ADDRESS_FAILURE_LIMIT): once its failures across all usernames reach it,
`failure_limit` answers 0, and axes refuses that address whatever the username."""
from __future__ import annotations

import math

from axes.helpers import get_client_ip_address, get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def address_failures(request: HttpRequest) -> int:
    """Failed log-ins from the request's address within the cool-off, all usernames together
    (the same window axes counts a pair's failures in)."""
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    since = (getattr(request, "axes_attempt_time", None) or timezone.now()) - (
        get_cool_off(request) or settings.AXES_COOLOFF_TIME)
    total = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since).aggregate(
        total=Sum("failures_since_start"))["total"]
    return total or 0


def address_locked(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


def failure_limit(request: HttpRequest, credentials: dict | None) -> int:
    """AXES_FAILURE_LIMIT: how many failures this username may have from this address: 0 (none:
    locked) when the address as a whole is over its own limit."""
    return 0 if address_locked(request) else settings.LOGIN_FAILURE_LIMIT


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """Every refused try counts as a failure and restarts the cool-off, so the wait is the whole
    cool-off from now."""
    cool_off = get_cool_off(request) or settings.AXES_COOLOFF_TIME
    username = get_client_username(request, credentials) or ""
    form = AuthenticationForm(request, initial={"username": username})
    context = {
        "form": form,
        "next": request.POST.get("next", request.GET.get("next", "")),
        "locked_until": timezone.now() + cool_off,
        "locked_minutes": math.ceil(cool_off.total_seconds() / 60),
        "address_locked": address_locked(request),
    }
    response = render(request, "accounts/login.html", context, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
