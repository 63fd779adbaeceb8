from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from accounts.avatars import avatar_svg
from accounts.forms import ProfileForm, SignUpForm
from accounts.hotkeys import ACTIONS, DEFAULTS, HotkeyError, check_hotkeys, hotkeys_of, key_label
from accounts.services import user_email_change, user_sign_up
from accounts.throttle import SignUpThrottled


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        try:
            user = user_sign_up(user=form.save(commit=False), email=email,
                                address=request.META.get("REMOTE_ADDR"))
        except SignUpThrottled as refused:
            response = render(request, "accounts/signup.html",
                              {"form": form, "throttled": refused.message}, status=429)
            response["Retry-After"] = str(refused.retry_after)
            return response
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to the room, {user.username}! We sent a note to {email}.")
        return redirect("lobby")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    old_email = request.user.email
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        new_email, user.email = user.email, old_email  # the address changes only through the service
        user.save()
        user_email_change(user=user, email=new_email)
        note = f" We sent a note to {new_email}." if new_email and new_email.lower() != old_email.lower() else ""
        messages.success(request, "Profile saved." + note)
        return redirect("accounts:profile")
    return _profile_page(request, form)


def _profile_page(request: HttpRequest, form: ProfileForm, *, keys: dict[str, str] | None = None,
                  hotkeys_error: str = "", status: int = 200) -> HttpResponse:
    keys = keys if keys is not None else hotkeys_of(request.user.hotkeys)
    hotkeys = [{"action": a, "label": words, "key": key_label(keys.get(a, ""))}
               for a, words in ACTIONS.items()]
    return render(request, "accounts/profile.html", {
        "form": form, "hotkeys": hotkeys, "hotkeys_error": hotkeys_error,
        "hotkey_defaults": json.dumps({a: key_label(k) for a, k in DEFAULTS.items()}),
    }, status=status)


@login_required
@require_POST
def hotkeys(request: HttpRequest) -> HttpResponse:
    """Save his table hotkeys, one POST field per action (fold=f&check_call=c...). The page's
    script asks for JSON ({"message", "keys"}); a plain form gets the profile back. Refused:
    400 with the reason (a reserved key, a key set twice, an action without a key)."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    sent = {a: request.POST[a] for a in ACTIONS if a in request.POST}
    try:
        keys = check_hotkeys(sent)
    except HotkeyError as e:
        if wants_json:
            return JsonResponse({"error": str(e)}, status=400)
        return _profile_page(request, ProfileForm(instance=request.user), keys=sent,
                             hotkeys_error=str(e), status=400)
    request.user.hotkeys = keys
    request.user.save(update_fields=["hotkeys"])
    if wants_json:
        return JsonResponse({"message": "Hotkeys saved.", "keys": keys})
    messages.success(request, "Hotkeys saved.")
    return redirect("accounts:profile")


@require_safe
def avatar(request: HttpRequest, key: str) -> HttpResponse:
    """An avatar drawn from its key (accounts/avatars.py): anyone may fetch it, and a key
    always draws the same picture, so browsers keep it for a year."""
    svg = avatar_svg(key)
    if svg is None:
        raise Http404("No such avatar.")
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
