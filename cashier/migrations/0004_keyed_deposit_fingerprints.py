"""Deposit fingerprints written before keying were a bare SHA-256 of parameters that include the
card number: rewrite each as the keyed HMAC of that digest (cashier/fingerprints.py), which is
what a replay of its request now computes. Other operations' fingerprints hold no card number
and are left as they are (comparison still accepts a bare digest)."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import migrations
from django.utils.crypto import salted_hmac

SALT = "cashier.idempotency.fingerprint"  # cashier.fingerprints.SALT, frozen here
BATCH = 1000


def key_deposit_fingerprints(apps: Any, schema_editor: Any) -> None:
    """In batches by primary key (not an open cursor over rows being written: SQLite)."""
    record_model = apps.get_model("cashier", "IdempotencyRecord")
    last = 0
    while batch := list(record_model.objects.filter(operation="deposit", pk__gt=last)
                        .order_by("pk").only("pk", "fingerprint")[:BATCH]):
        for row in batch:
            row.fingerprint = salted_hmac(SALT, row.fingerprint, secret=settings.SECRET_KEY,
                                          algorithm="sha256").hexdigest()
        record_model.objects.bulk_update(batch, ["fingerprint"])
        last = batch[-1].pk


class Migration(migrations.Migration):

    dependencies = [
        ("cashier", "0003_verbose_names"),
    ]

    operations = [
        migrations.RunPython(key_deposit_fingerprints, migrations.RunPython.noop, elidable=True),
    ]
