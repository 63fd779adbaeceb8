"""Sign-ups per address: at most SIGNUPS_PER_ADDRESS_PER_DAY accounts from one network
(pokerroom/addresses.py) per UTC day, since each sign-up grants play money.

Counted in the database (one row per network and day, so every server process shares it) and
in the sign-up's own transaction: the row's UPDATE serialises two sign-ups from one network, and
a refused one rolls back its count with its account."""
from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from accounts.models import SignUpCount
from pokerroom.addresses import client_network


class SignUpThrottled(Exception):
    def __init__(self, limit: int, retry_after: int) -> None:
        super().__init__(f"more than {limit} sign-ups from one address today")
        self.limit, self.retry_after = limit, retry_after
        self.message = (
            f"Too many accounts were created from your network today: at most {limit} a day, "
            "because each new account receives free play chips. Try again tomorrow (after "
            "midnight UTC), or log in to an account you already have.")


def signup_count(*, address: str | None) -> None:
    """Count a sign-up from `address`, or raise SignUpThrottled. Needs the caller's transaction
    (the sign-up's), so that a refused or failed sign-up does not count."""
    now = timezone.now().astimezone(datetime.UTC)
    today, network = now.date(), client_network(address)
    SignUpCount.objects.filter(day__lt=today).delete()
    row, _ = SignUpCount.objects.get_or_create(network=network, day=today)
    SignUpCount.objects.filter(pk=row.pk).update(count=F("count") + 1)
    count = SignUpCount.objects.values_list("count", flat=True).get(pk=row.pk)
    limit = settings.SIGNUPS_PER_ADDRESS_PER_DAY
    if count > limit:
        midnight = datetime.datetime.combine(today + datetime.timedelta(days=1), datetime.time(),
                                             tzinfo=datetime.UTC)
        raise SignUpThrottled(limit, retry_after=int((midnight - now).total_seconds()) + 1)
