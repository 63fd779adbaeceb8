"""The ledger audit: every invariant the cashier promises, checked from the stored rows.

1. every transaction sums to zero, has its declared number of entries (at least two) and all
   its entries are on accounts of its currency;
2. every account balance equals the sum of its entries;
3. no account other than the world account is negative;
4. per currency, all balances sum to zero (a consequence of 1 and 2, reported for clarity);
5. each table's escrow equals the chips seated there plus its pending top-ups — true between
   hands (during a hand's settlement transaction the seats move first); a tournament's
   tables hold tournament chips, which are not money, and have no escrow;
6. the pending-withdrawal account equals the sum of pending withdrawals;
7. each tournament's prize pool equals its entries' buy-ins + its rebuys and add-ons (purchases)
   - refunds (of entries and of purchases) - prizes (+ the house's overlay), counted from the transactions tagged with the tournament, and only those kinds
   of transaction move a pool; once the tournament is finished or cancelled its pool is 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from cashier.models import (
    POOL_KINDS,
    AccountKind,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    PendingTopUp,
    TopUpStatus,
    Withdrawal,
    WithdrawalStatus,
)


@dataclass
class AuditReport:
    transactions: int = 0
    entries: int = 0
    accounts: int = 0
    totals: dict[str, dict[str, int]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def summary(self) -> str:
        lines = [
            f"Ledger audit: {self.transactions} transactions, {self.entries} entries, "
            f"{self.accounts} accounts."
        ]
        for currency, by_kind in sorted(self.totals.items()):
            parts = ", ".join(f"{kind} {amount}" for kind, amount in sorted(by_kind.items()))
            lines.append(f"  {currency}: {parts}")
        if self.ok:
            lines.append("OK: no violations.")
        else:
            lines.append(f"FAILED: {len(self.violations)} violation(s):")
            lines.extend(f"  - {violation}" for violation in self.violations)
        return "\n".join(lines)


def ledger_audit(*, max_reported: int = 50) -> AuditReport:
    report = AuditReport(
        transactions=LedgerTransaction.objects.count(),
        entries=LedgerEntry.objects.count(),
        accounts=LedgerAccount.objects.count(),
    )
    bad = report.violations

    unbalanced = (
        LedgerTransaction.objects.annotate(
            total=Coalesce(Sum("entries__amount"), 0),
            entry_rows=Count("entries"),
            foreign=Count("entries", filter=~Q(entries__account__currency=F("currency"))),
        )
        .filter(~Q(total=0) | ~Q(entry_rows=F("entry_count")) | Q(entry_rows__lt=2)
                | Q(foreign__gt=0))
        .values_list("pk", "total", "entry_rows", "entry_count", "foreign")[:max_reported]
    )
    for pk, total, rows, declared, foreign in unbalanced:
        bad.append(
            f"transaction {pk}: sum {total}, {rows} of {declared} entries, "
            f"{foreign} in another currency"
        )

    accounts = LedgerAccount.objects.annotate(entry_sum=Coalesce(Sum("entries__amount"), 0))
    for account in accounts.filter(~Q(balance=F("entry_sum")))[:max_reported]:
        bad.append(
            f"account {account.pk} ({account}): balance {account.balance} != entries "
            f"{account.entry_sum}"
        )
    for account in LedgerAccount.objects.filter(balance__lt=0).exclude(kind=AccountKind.WORLD):
        bad.append(f"account {account.pk} ({account}) is negative: {account.balance}")

    for row in LedgerAccount.objects.values("currency", "kind").annotate(total=Sum("balance")):
        report.totals.setdefault(row["currency"], {})[row["kind"]] = row["total"]
    for currency, by_kind in report.totals.items():
        if sum(by_kind.values()) != 0:
            bad.append(f"{currency} balances sum to {sum(by_kind.values())}, not 0")

    seat = PendingTopUp._meta.get_field("seat").related_model  # the tables' Seat, not imported
    # A tournament's table seats tournament chips, not money: no escrow holds them.
    chips = dict(seat._default_manager.filter(table__tournament__isnull=True)
                 .values_list("table_id").annotate(total=Sum("chips")))
    waiting = dict(
        PendingTopUp.objects.filter(status=TopUpStatus.PENDING)
        .values_list("table_id").annotate(total=Sum("amount"))
    )
    escrows = dict(
        LedgerAccount.objects.filter(kind=AccountKind.ESCROW).values_list("table_id", "balance")
    )
    for table_id in sorted(set(chips) | set(waiting) | set(escrows)):
        expected = chips.get(table_id, 0) + waiting.get(table_id, 0)
        if escrows.get(table_id, 0) != expected:
            bad.append(
                f"table {table_id}: escrow {escrows.get(table_id, 0)} != seated chips "
                f"{chips.get(table_id, 0)} + pending top-ups {waiting.get(table_id, 0)}"
            )

    pending_rows = dict(
        Withdrawal.objects.filter(status=WithdrawalStatus.PENDING)
        .values_list("status").annotate(total=Sum("amount"))
    ).get(WithdrawalStatus.PENDING, 0)
    pending_accounts = LedgerAccount.objects.filter(kind=AccountKind.PENDING_WITHDRAWAL).aggregate(
        total=Sum("balance"))["total"] or 0
    if pending_rows != pending_accounts:
        bad.append(
            f"pending withdrawals {pending_rows} != pending account balance {pending_accounts}"
        )
    bad.extend(_pool_violations())
    return report


# The tournaments app's states in which a tournament is over (its pool must then be empty).
# Read through the pool's foreign key, by value: the cashier imports nothing from the tables.
TOURNAMENT_OVER = ("finished", "cancelled")


def _pool_violations() -> list[str]:
    """Invariant 7, for every tournament prize pool."""
    bad: list[str] = []
    pools = {pk: (tournament_id, balance) for pk, tournament_id, balance in
             LedgerAccount.objects.filter(kind=AccountKind.POOL)
             .values_list("pk", "tournament_id", "balance")}
    if not pools:
        return bad
    by_kind: dict[int, dict[str, int]] = {pk: {} for pk in pools}
    legs = (LedgerEntry.objects.filter(account_id__in=pools)
            .values_list("account_id", "transaction__kind", "transaction__tournament_id")
            .annotate(total=Sum("amount")).order_by())
    for account_id, kind, tagged, total in legs:
        tournament_id = pools[account_id][0]
        if kind not in POOL_KINDS or tagged != tournament_id:
            bad.append(f"tournament {tournament_id}: its pool was moved by {kind} transactions "
                       f"of tournament {tagged} ({total:+})")
            continue
        if total * POOL_KINDS[kind] < 0:
            bad.append(f"tournament {tournament_id}: {kind} moved its pool the wrong way "
                       f"({total:+})")
        by_kind[account_id][kind] = total
    tournament = LedgerAccount._meta.get_field("tournament").related_model
    over = set(tournament._default_manager.filter(
        pk__in=[t for t, _ in pools.values()], state__in=TOURNAMENT_OVER)
        .values_list("pk", flat=True))
    for account_id, (tournament_id, balance) in sorted(pools.items()):
        kinds = by_kind[account_id]
        expected = sum(kinds.values())  # entries, purchases, overlay in; refunds, prizes out
        if balance != expected:
            parts = ", ".join(f"{kind} {kinds.get(kind, 0):+}" for kind in POOL_KINDS)
            bad.append(f"tournament {tournament_id}: pool {balance} != {expected} ({parts})")
        if tournament_id in over and balance != 0:
            bad.append(f"tournament {tournament_id} is over but its pool holds {balance}")
    return bad
