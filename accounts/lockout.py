"""The page a throttled log-in gets (django-axes' AXES_LOCKOUT_CALLABLE): the login form again,
with a message that says why and when to retry, as HTTP 429 with Retry-After."""
from __future__ import annotations

import math

from axes.helpers import get_client_username, get_cool_off
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


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
    }
    response = render(request, "accounts/login.html", context, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
