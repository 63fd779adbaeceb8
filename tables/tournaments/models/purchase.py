"""Rebuys and add-ons: chips an entry bought during play (engine/purchases.py decides who may).

A purchase is money (its `price`, minor units, moved wallet → prize pool by the cashier with
the request's key) for tournament chips (`chips`, not money), which join the entry's stack at
its table's next hand start (`applied_at`), never during a hand. Changed only while the
tournament's row is held (the lock order, tables/services/locks.py)."""
from __future__ import annotations

from django.db import models
from django.db.models import Q

from tables.tournaments.models.tournament import Entry, Tournament


class PurchaseKind(models.TextChoices):
    REBUY = "rebuy", "Rebuy"
    ADDON = "addon", "Add-on"


class Purchase(models.Model):
    """One rebuy or add-on of one entry. `idempotency` is the request's client-made key (a
    retry finds this row); `refund_key` the key of the cancellation's refund (None until)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT,
                                   related_name="purchases")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="purchases")
    kind = models.CharField(max_length=5, choices=PurchaseKind.choices)
    price = models.BigIntegerField(help_text="Minor units, to the prize pool.")
    chips = models.PositiveIntegerField(help_text="Tournament chips (not money).")
    idempotency = models.CharField(max_length=200, unique=True)
    applied_at = models.DateTimeField(
        null=True, blank=True, help_text="When the chips joined the stack (a hand start).")
    refund_key = models.CharField(max_length=200, null=True, blank=True, unique=True)
    refunded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["entry"], condition=Q(kind="addon"),
                                    name="one_addon_per_entry"),
            models.CheckConstraint(condition=Q(price__gt=0, chips__gt=0),
                                   name="purchase_price_and_chips_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of entry {self.entry_id} ({self.chips} chips)"
