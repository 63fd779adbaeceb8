"""`python manage.py audit_ledger`: check the ledger's invariants; exit 1 on any violation."""
from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from cashier.audit import ledger_audit


class Command(BaseCommand):
    help = (
        "Check that every transaction sums to zero, every balance equals its entries, no "
        "wallet is negative and each table's escrow equals its chips. Exits 1 on a violation."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = ledger_audit()
        stream = self.stdout if report.ok else self.stderr
        stream.write(report.summary())
        if not report.ok:
            sys.exit(1)
