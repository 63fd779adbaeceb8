"""Create the demo users and tables; safe to run again (idempotent)."""
from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.signals import user_signed_up
from cashier.money import Currency
from tables.models import SmallBlindRule, Structure, TableConfig, TimeoutPolicy
from tables.tournaments.demo import demo_template

DEMO_USERS = [
    # username, password, staff
    ("admin", "admin-pass-123", True),
    ("alice", "alice-pass-123", False),
    ("bob", "bob-pass-123", False),
]

DEMO_TABLES: list[dict[str, Any]] = [
    dict(name="Limit Hold'em $5/$10", structure=Structure.FIXED_LIMIT, currency=Currency.REAL,
         lower_stake=500, upper_stake=1000, small_blind_rule=SmallBlindRule.ROUND_DOWN,
         max_seats=10, min_buy_in_bb=10, max_buy_in_bb=100, rake_percent=5, rake_cap=300),
    dict(name="No-Limit 1/2 Play 6-max", structure=Structure.NO_LIMIT, currency=Currency.PLAY,
         lower_stake=2, small_blind_rule=SmallBlindRule.EXACT_HALF, max_seats=6,
         min_buy_in_bb=40, max_buy_in_bb=100),
    dict(name="Pot-Limit 2/5 Play 9-max", structure=Structure.POT_LIMIT, currency=Currency.PLAY,
         lower_stake=5, small_blind_rule=SmallBlindRule.EXPLICIT, small_blind=2, max_seats=9,
         min_buy_in_bb=40, max_buy_in_bb=100),
    dict(name="Heads-up No-Limit $5/$10", structure=Structure.NO_LIMIT, currency=Currency.REAL,
         lower_stake=1000, small_blind_rule=SmallBlindRule.EXACT_HALF, max_seats=2,
         min_buy_in_bb=50, max_buy_in_bb=200, rake_percent=5, rake_cap=500,
         timeout_policy=TimeoutPolicy.SEEDS),
]


class Command(BaseCommand):
    help = "Create demo users (admin, alice, bob) and demo tables. Idempotent. Development only."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:  # published passwords: admin/admin-pass-123 would be a way in
            raise CommandError("seed_demo creates accounts whose passwords are published "
                               "(admin / admin-pass-123): it does not run with ROOM_ENV=production.")
        self.seed()

    @transaction.atomic
    def seed(self) -> None:
        User = get_user_model()
        for username, password, staff in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={"email": f"{username}@example.com", "is_staff": staff,
                          "is_superuser": staff, "date_of_birth": datetime.date(1990, 1, 1)},
            )
            if created:
                user.set_password(password)
                user.save()
                user_signed_up.send(sender=User, user=user)
        for spec in DEMO_TABLES:
            table = TableConfig.objects.filter(name=spec["name"]).first() or TableConfig(**spec)
            if table.pk is None:
                table.full_clean()
                table.save()
        template = demo_template(6)
        self.stdout.write("Demo logins (username / password):")
        for username, password, staff in DEMO_USERS:
            self.stdout.write(f"  {username} / {password}{'  (admin)' if staff else ''}")
        self.stdout.write(f"Tables: {', '.join(t['name'] for t in DEMO_TABLES)}")
        self.stdout.write(f"Tournament template: {template.name}")
