"""Read-only queries behind the operator pages. Nothing here moves money or reads a running
hand: hands are listed only once finished, and never with their cards."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from cashier.models import (
    AccountKind,
    CashOut,
    Deposit,
    DepositStatus,
    LedgerEntry,
    LimitPeriod,
    ResponsibleGamingProfile,
    SelfExclusion,
    TransactionKind,
    Withdrawal,
    WithdrawalStatus,
)
from cashier.selectors import history_for
from cashier.services import deposit_limit_current, deposit_limit_pending, exclusion_active
from tables.models import Hand, HandSummary, Seat, TableConfig

RAKE_DAYS = 30


# Dashboard ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pending:
    count: int
    total: int  # cents


@dataclass(frozen=True)
class RoomNow:
    hands_running: int
    players_seated: int
    tables_in_play: int  # tables with two or more players seated
    hands_last_hour: int
    sockets: dict[str, int]  # open WebSockets by kind, the whole room (room_sockets_open)


def room_now() -> RoomNow:
    """What the room is doing now, as /metrics says it (pokerroom/scrape.py)."""
    from pokerroom import scrape

    tables = (Seat.objects.values("table").annotate(n=Count("id")).filter(n__gte=2).count())
    since = timezone.now() - datetime.timedelta(hours=1)
    return RoomNow(hands_running=scrape.hands_running(), players_seated=scrape.players_seated(),
                   tables_in_play=tables,
                   hands_last_hour=HandSummary.objects.filter(finished_at__gte=since).count(),
                   sockets=scrape.sockets_open())


def pending_withdrawals() -> Pending:
    row = Withdrawal.objects.filter(status=WithdrawalStatus.PENDING).aggregate(
        count=Count("id"), total=Sum("amount", default=0))
    return Pending(row["count"], row["total"])


def pending_withdrawal_rows(*, limit: int = 10) -> list[Withdrawal]:
    """The oldest pending withdrawals first: the ones waiting longest."""
    return list(Withdrawal.objects.filter(status=WithdrawalStatus.PENDING)
                .select_related("user").order_by("created_at", "id")[:limit])


def pending_deposits() -> Pending:
    row = Deposit.objects.filter(status=DepositStatus.PENDING).aggregate(
        count=Count("id"), total=Sum("amount", default=0))
    return Pending(row["count"], row["total"])


@dataclass(frozen=True)
class RakeDay:
    day: datetime.date
    table_id: int
    table: str
    currency: str
    hands: int  # raked hands
    rake: int  # minor units


@dataclass
class RakeReport:
    since: datetime.date
    days: list[RakeDay]
    by_table: list[RakeDay] = field(default_factory=list)  # 30-day totals, `day` = since
    by_currency: dict[str, int] = field(default_factory=dict)


def rake_by_table_and_day(*, days: int = RAKE_DAYS,
                          now: datetime.datetime | None = None) -> RakeReport:
    """What the house account received as rake, per table and calendar day (the current time
    zone), over the last `days` days including today; newest day first. Read from the ledger
    (the house leg of each rake transaction), so it is what the books say."""
    today = timezone.localdate(now or timezone.now())
    since = today - datetime.timedelta(days=days - 1)
    start = timezone.make_aware(datetime.datetime.combine(since, datetime.time.min))
    rows = (
        LedgerEntry.objects.filter(
            transaction__kind=TransactionKind.RAKE, account__kind=AccountKind.HOUSE,
            transaction__created_at__gte=start)
        .annotate(day=TruncDate("transaction__created_at"))
        .values("day", "transaction__table", "transaction__table__name", "account__currency")
        .annotate(rake=Sum("amount"), hands=Count("id"))
        .order_by("-day", "transaction__table__name")
    )
    report = RakeReport(since=since, days=[
        RakeDay(day=r["day"], table_id=r["transaction__table"],
                table=r["transaction__table__name"], currency=r["account__currency"],
                hands=r["hands"], rake=r["rake"])
        for r in rows
    ])
    totals: dict[int, RakeDay] = {}
    for row in report.days:
        seen = totals.get(row.table_id)
        totals[row.table_id] = RakeDay(
            day=since, table_id=row.table_id, table=row.table, currency=row.currency,
            hands=row.hands + (seen.hands if seen else 0),
            rake=row.rake + (seen.rake if seen else 0))
        report.by_currency[row.currency] = report.by_currency.get(row.currency, 0) + row.rake
    report.by_table = sorted(totals.values(), key=lambda r: (-r.rake, r.table))
    return report


# Player page ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Limit:
    period: str  # label, e.g. "Daily"
    amount: int | None  # cents; None = no limit
    waiting: Any  # a DepositLimit raise not yet in force, or None


def deposit_limits(*, user: Any) -> list[Limit]:
    return [Limit(period=label, amount=deposit_limit_current(user=user, period=period),
                  waiting=deposit_limit_pending(user=user, period=period))
            for period, label in LimitPeriod.choices]


def responsible_gaming(*, user: Any) -> dict[str, Any]:
    """Limits in force (and raises waiting), the running self-exclusion and its history, the
    session reminder."""
    profile = ResponsibleGamingProfile.objects.filter(user=user).first()
    return {
        "limits": deposit_limits(user=user),
        "exclusion": exclusion_active(user=user),
        "exclusions": list(SelfExclusion.objects.filter(user=user).order_by("-starts_at")[:10]),
        "reminder_minutes": profile.session_reminder_minutes if profile else None,
    }


@dataclass
class TableSession:
    """A stay at one table: bought in (plus top-ups, less refunds), left with, from the ledger
    and the cash-out records. `ended` None: still seated (or left before the window read)."""

    table: TableConfig
    started: datetime.datetime | None
    bought: int = 0
    left_with: int | None = None
    ended: datetime.datetime | None = None

    @property
    def net(self) -> int | None:
        """Left with less bought in; unknown while seated or when the buy-in is older than
        the transactions read."""
        if self.left_with is None or self.started is None:
            return None
        return self.left_with - self.bought


SESSION_MONEY = (TransactionKind.BUY_IN, TransactionKind.TOP_UP, TransactionKind.TOP_UP_REFUND,
                 TransactionKind.CASH_OUT)


def table_sessions(*, user: Any, limit: int = 10, window: int = 300) -> list[TableSession]:
    """The player's recent table sessions, newest first, rebuilt from his last `window` table
    transactions (wallet side) and cash-outs (a cash-out of nothing has no transaction)."""
    moves = list(history_for(user=user).filter(kind__in=SESSION_MONEY,
                                               table__isnull=False)[:window])
    change = {tx.pk: tx.wallet_change for tx in moves}
    timeline: list[tuple[datetime.datetime, int, Any]] = [
        (tx.created_at, tx.pk, tx) for tx in moves if tx.kind != TransactionKind.CASH_OUT]
    since = moves[-1].created_at if len(moves) == window else None
    cash_outs = CashOut.objects.filter(player=user).select_related("table").order_by("-id")
    if since is not None:
        cash_outs = cash_outs.filter(created_at__gte=since)
    timeline += [(row.created_at, row.transaction_id or 0, row) for row in cash_outs[:window]]
    timeline.sort(key=lambda item: (item[0], item[1]))

    open_at: dict[int, TableSession] = {}
    done: list[TableSession] = []
    for when, _, item in timeline:
        session = open_at.get(item.table_id)
        if session is None:
            session = open_at[item.table_id] = TableSession(table=item.table, started=None)
        if isinstance(item, CashOut):
            session.left_with = change.get(item.transaction_id, 0) if item.transaction_id else 0
            session.ended = when
            done.append(open_at.pop(item.table_id))
            continue
        if item.kind == TransactionKind.BUY_IN:
            session.started = when
        session.bought -= item.wallet_change  # a buy-in takes from the wallet: change < 0
    sessions = done + list(open_at.values())
    sessions.sort(key=lambda s: s.ended or s.started or timezone.now(), reverse=True)
    return sessions[:limit]


@dataclass(frozen=True)
class PlayedHand:
    hand: Hand
    result: int | None  # the player's chips after minus before (rake excluded); minor units


def finished_hands(*, user: Any, limit: int = 20) -> list[PlayedHand]:
    """The player's last finished hands (he was dealt in: his hole cards were addressed to
    him), newest first. A hand still running is never listed; no cards leave this function."""
    hands = (
        Hand.objects.filter(finished_at__isnull=False, events__recipient=user)
        .select_related("table").distinct().order_by("-finished_at", "-id")[:limit]
    )
    played = []
    for hand in hands:
        mine = [p for p in hand.state.get("players", []) if str(p.get("player_id")) == str(user.pk)]
        result = mine[0]["stack"] - mine[0]["start_stack"] if mine else None
        played.append(PlayedHand(hand=hand, result=result))
    return played


def players_named(text: str, *, limit: int = 20) -> list[Any]:
    """Users whose username, display name or email contains `text` (for the dashboard's
    player search)."""
    return list(get_user_model().objects.filter(
        Q(username__icontains=text) | Q(display_name__icontains=text) | Q(email__icontains=text)
    ).order_by("username")[:limit])


def money_at_tables(*, user: Any) -> list[dict[str, Any]]:
    """Where the player sits now and with how many chips (money in the tables' escrow)."""
    return [{"seat": seat, "table": seat.table, "chips": seat.chips,
             "currency": seat.table.currency}
            for seat in Seat.objects.filter(player=user).select_related("table").order_by("pk")]
