from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.forms import ProfileForm, SignUpForm
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
    return render(request, "accounts/profile.html", {"form": form})
