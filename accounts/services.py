"""Sign-up and email changes that do not tell anyone which addresses are registered: the answer
is the same for a new address and a known one. A known address is not linked a second time; its
owner gets a note instead (a real room answers this way; a form that said "already registered"
would let anyone test addresses)."""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction

from accounts.models import User
from accounts.signals import user_signed_up
from accounts.throttle import signup_count

log = logging.getLogger(__name__)


def user_sign_up(*, user: User, email: str, address: str | None) -> User:
    """Save the new account built by SignUpForm, with `email` unless another account has it.
    Raises SignUpThrottled (nothing saved) past the day's sign-ups from `address`."""
    with transaction.atomic():
        signup_count(address=address)
        user.email = "" if _email_taken(email, user_pk=None) else email
        user.save()
        _write_after_commit(user=user, email=email, linked=bool(user.email), signing_up=True)
    user_signed_up.send(sender=User, user=user)
    return user


def user_email_change(*, user: User, email: str) -> None:
    """Give `user` the new address unless another account has it (its owner is told)."""
    if email.lower() == user.email.lower():
        return
    if not email:  # removing one's address tells nothing about anyone else's
        User.objects.filter(pk=user.pk).update(email="")
        user.email = ""
        return
    with transaction.atomic():
        linked = not _email_taken(email, user_pk=user.pk)
        if linked:
            User.objects.filter(pk=user.pk).update(email=email)
            user.email = email
        _write_after_commit(user=user, email=email, linked=linked, signing_up=False)


def _email_taken(email: str, *, user_pk: int | None) -> bool:
    return User.objects.exclude(pk=user_pk).filter(email__iexact=email).exists()


def _write_after_commit(*, user: User, email: str, linked: bool, signing_up: bool) -> None:
    if linked:
        subject = "Welcome to the Poker Room" if signing_up else "Your Poker Room email address"
        body = (f"This address now belongs to the Poker Room account {user.username}.\n"
                "If that was not you, reply to this message.")
    else:
        subject = "Someone used your email address at the Poker Room"
        body = (f"Someone just {'signed up as' if signing_up else 'gave this address to'} "
                f"{user.username} with this address. It already belongs to an account of yours, "
                "so it was not linked to the new one. If that was you, log in to your account "
                "instead; if not, you need do nothing.")

    def write() -> None:
        try:
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email])
        except OSError:  # the mail server is down: the account is made all the same
            log.exception("could not send the account email to %s", email)

    transaction.on_commit(write)
