"""The ledger: double-entry accounts, append-only transactions and the cashier's request rows.

Amounts are integers in the currency's minor unit (cents for REAL, chips for PLAY). A
`LedgerTransaction` has two or more `LedgerEntry` rows of one currency that sum to zero; the
account's `balance` is the running sum of its entries, updated with F() in the same database
transaction. PostgreSQL enforces the zero sum (a deferred constraint trigger), the single
currency and the append-only rule with triggers (see migrations/0002_ledger_triggers.py).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from cashier.money import Currency

__all__ = [
    "AccountKind",
    "CashOut",
    "Currency",
    "Deposit",
    "DepositLimit",
    "HandSettlement",
    "IdempotencyRecord",
    "LedgerAccount",
    "LedgerEntry",
    "LedgerTransaction",
    "PendingTopUp",
    "ResponsibleGamingProfile",
    "SelfExclusion",
    "TransactionKind",
    "Withdrawal",
]


class AccountKind(models.TextChoices):
    WALLET = "wallet", "Player wallet"
    ESCROW = "escrow", "Table escrow"
    HOUSE = "house", "House rake"
    WORLD = "world", "World (money in and out)"
    PENDING_WITHDRAWAL = "pending", "Pending withdrawals"
    POOL = "pool", "Tournament prize pool"


SYSTEM_KINDS = (AccountKind.HOUSE, AccountKind.WORLD, AccountKind.PENDING_WITHDRAWAL)


class LedgerAccount(models.Model):
    """One account of one currency. Only the world account may go below zero: money that
    entered the room is a debt of the room to the outside world."""

    kind = models.CharField(max_length=8, choices=AccountKind.choices)
    currency = models.CharField(max_length=4, choices=Currency.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="ledger_accounts",
    )
    table = models.ForeignKey(
        "tables.TableConfig", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", help_text="The tournament whose prize pool this is (pool accounts).",
    )
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind="world"), name="ledger_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(kind="wallet", user__isnull=False, table__isnull=True,
                            tournament__isnull=True)
                | Q(kind="escrow", user__isnull=True, table__isnull=False,
                    tournament__isnull=True)
                | Q(kind="pool", user__isnull=True, table__isnull=True,
                    tournament__isnull=False)
                | Q(kind__in=["house", "world", "pending"], user__isnull=True, table__isnull=True,
                    tournament__isnull=True),
                name="ledger_account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["user", "currency"], condition=Q(kind="wallet"),
                name="one_wallet_per_user_and_currency",
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(kind="escrow"), name="one_escrow_per_table"
            ),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(kind="pool"), name="one_pool_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["kind", "currency"], condition=Q(kind__in=["house", "world", "pending"]),
                name="one_system_account_per_kind_and_currency",
            ),
        ]

    def __str__(self) -> str:
        owner = self.user or self.table or self.tournament or "room"
        return f"{self.get_kind_display()} {self.currency} · {owner}"


class TransactionKind(models.TextChoices):
    DEPOSIT = "deposit", "Deposit"
    WITHDRAWAL_REQUEST = "withdrawal_request", "Withdrawal requested"
    WITHDRAWAL_CANCEL = "withdrawal_cancel", "Withdrawal cancelled"
    WITHDRAWAL_APPROVE = "withdrawal_approve", "Withdrawal paid out"
    WITHDRAWAL_REJECT = "withdrawal_reject", "Withdrawal rejected"
    PLAY_GRANT = "play_grant", "Play-money grant"
    PLAY_RELOAD = "play_reload", "Play-money reload"
    BUY_IN = "buy_in", "Buy-in"
    TOP_UP = "top_up", "Top-up"
    TOP_UP_REFUND = "top_up_refund", "Top-up refund"
    CASH_OUT = "cash_out", "Cash-out"
    RAKE = "rake", "Rake"
    TRANSFER = "transfer", "Transfer"
    TOURNAMENT_ENTRY = "tournament_entry", "Tournament entry"
    TOURNAMENT_REFUND = "tournament_refund", "Tournament refund"
    TOURNAMENT_OVERLAY = "tournament_overlay", "Tournament overlay"
    TOURNAMENT_PRIZE = "tournament_prize", "Tournament prize"
    TOURNAMENT_PURCHASE = "tournament_purchase", "Tournament rebuy or add-on"
    PURCHASE_REFUND = "purchase_refund", "Tournament rebuy or add-on refund"


# The transaction kinds that may move a tournament's prize pool, and the sign of their pool leg.
POOL_KINDS = {
    TransactionKind.TOURNAMENT_ENTRY: +1,
    TransactionKind.TOURNAMENT_OVERLAY: +1,
    TransactionKind.TOURNAMENT_REFUND: -1,
    TransactionKind.TOURNAMENT_PRIZE: -1,
    TransactionKind.TOURNAMENT_PURCHASE: +1,
    TransactionKind.PURCHASE_REFUND: -1,
}


class LedgerTransaction(models.Model):
    """A balanced set of entries. Never updated or deleted: a correction is a new transaction.

    `entry_count` is declared up front so the database can tell when the transaction is complete
    (the SQLite trigger checks the zero sum when the last declared entry arrives)."""

    kind = models.CharField(max_length=20, choices=TransactionKind.choices)
    currency = models.CharField(max_length=4, choices=Currency.choices)
    entry_count = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="ledger_transactions", help_text="The player the transaction concerns.",
    )
    table = models.ForeignKey(
        "tables.TableConfig", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )
    memo = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"])]
        constraints = [
            models.CheckConstraint(condition=Q(entry_count__gte=2), name="ledger_tx_two_entries"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()} ({self.currency})"


class LedgerEntry(models.Model):
    """One side of a transaction: a signed amount on one account (+ credit, - debit)."""

    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "ledger entries"
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_entry_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+} on {self.account}"


class IdempotencyRecord(models.Model):
    """The first outcome of a money-moving request, claimed by a unique insert before any lock.

    `fingerprint` is a hash of the operation's parameters: the same key with other parameters
    is refused; with the same parameters the stored `result` is returned."""

    key = models.CharField(max_length=200, unique=True)
    operation = models.CharField(max_length=40)
    fingerprint = models.CharField(max_length=64)
    result = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.operation} {self.key}"


class DepositStatus(models.TextChoices):
    PENDING = "pending", "Waiting for approval"
    APPROVED = "approved", "Credited"
    DECLINED = "declined", "Declined by the provider"
    REJECTED = "rejected", "Rejected"


class Deposit(models.Model):
    """A real-money deposit attempt through a payment provider."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField()
    provider = models.CharField(max_length=16)
    status = models.CharField(max_length=10, choices=DepositStatus.choices)
    provider_reference = models.CharField(max_length=64, blank=True)
    message = models.CharField(max_length=200, blank=True)
    transaction = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="deposit_positive")]

    def __str__(self) -> str:
        return f"Deposit #{self.pk} {self.amount} by {self.user} ({self.status})"


class WithdrawalStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Paid out"
    REJECTED = "rejected", "Rejected"
    CANCELLED = "cancelled", "Cancelled"


class Withdrawal(models.Model):
    """A real-money withdrawal: the amount waits in the pending account until a decision."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=WithdrawalStatus.choices)
    request_transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, related_name="+"
    )
    decision_transaction = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="withdrawal_positive")
        ]

    def __str__(self) -> str:
        return f"Withdrawal #{self.pk} {self.amount} by {self.user} ({self.status})"


class TopUpStatus(models.TextChoices):
    PENDING = "pending", "Waiting for the next hand"
    APPLIED = "applied", "Added to the stack"
    REFUNDED = "refunded", "Returned to the wallet"


class PendingTopUp(models.Model):
    """Money already in the table's escrow, added to the seat when the next hand starts."""

    table = models.ForeignKey("tables.TableConfig", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seat = models.ForeignKey(
        "tables.Seat", null=True, blank=True, on_delete=models.SET_NULL, related_name="top_ups"
    )
    amount = models.BigIntegerField()
    applied_amount = models.BigIntegerField(default=0)
    status = models.CharField(max_length=10, choices=TopUpStatus.choices)
    transaction = models.ForeignKey(LedgerTransaction, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "pending top-up"
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="top_up_positive")]

    def __str__(self) -> str:
        return f"Top-up #{self.pk} of {self.amount} ({self.status})"


class CashOut(models.Model):
    """A player leaving a table with `amount` chips: what the ratholing rule looks at."""

    table = models.ForeignKey("tables.TableConfig", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField()
    transaction = models.ForeignKey(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "cash-out"
        ordering = ["-id"]
        indexes = [models.Index(fields=["table", "player", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.player} left {self.table} with {self.amount}"


class HandSettlement(models.Model):
    """A finished hand's chip movements (one per table and hand) and its rake transaction."""

    table = models.ForeignKey("tables.TableConfig", on_delete=models.PROTECT, related_name="+")
    hand_id = models.CharField(max_length=64)
    deltas = models.JSONField()
    rake = models.BigIntegerField()
    transaction = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "hand_id"], name="one_settlement_per_hand"),
            models.CheckConstraint(condition=Q(rake__gte=0), name="settlement_rake_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.hand_id} (rake {self.rake})"


class LimitPeriod(models.TextChoices):
    DAY = "day", "Daily"
    WEEK = "week", "Weekly"
    MONTH = "month", "Monthly"


class DepositLimit(models.Model):
    """One setting of a deposit limit (append-only history). The limit in force for a period is
    the newest row whose `effective_at` has passed; `amount` None means no limit."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    period = models.CharField(max_length=5, choices=LimitPeriod.choices)
    amount = models.BigIntegerField(null=True, blank=True)
    effective_at = models.DateTimeField()
    superseded = models.BooleanField(
        default=False, help_text="A raise still waiting when a newer setting replaced it."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-effective_at", "-id"]
        indexes = [models.Index(fields=["user", "period", "-effective_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gt=0), name="deposit_limit_positive"
            )
        ]

    def __str__(self) -> str:
        return f"{self.period} limit {self.amount} from {self.effective_at:%Y-%m-%d %H:%M}"


class SelfExclusion(models.Model):
    """A period during which the player may not deposit or sit down. Never shortened."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "self-exclusion"
        ordering = ["-ends_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="self_exclusion_has_length"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} excluded until {self.ends_at:%Y-%m-%d %H:%M}"


class ResponsibleGamingProfile(models.Model):
    """Per-player preferences that are not limits: the optional session-length reminder."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gaming_profile"
    )
    session_reminder_minutes = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: reminder {self.session_reminder_minutes} min"
