"""Table money: buy-ins, queued top-ups, cash-outs and hand settlement (called by tables).

The table's escrow account holds every chip at the table: escrow balance = sum(Seat.chips)
+ pending top-ups, whenever no hand is being settled. Chips moving between seats inside a
hand do not touch the ledger; only rake leaves the escrow (to the house account).

Locks (global order in cashier.services.ledger): the caller (tables) may already hold the
TableConfig row; then the idempotency record, the ledger accounts (ascending id), the seats
(ascending id), the pending top-ups. "Between hands" is the tables service's job.
"""
from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from cashier.errors import CashierError
from cashier.models import (
    AccountKind,
    CashOut,
    HandSettlement,
    LedgerTransaction,
    PendingTopUp,
    TopUpStatus,
    TransactionKind,
)
from cashier.money import Currency, money_format
from cashier.services.ledger import (
    Statement,
    accounts_find,
    amounts_add,
    amounts_add_statement,
    escrow_lookup,
    for_no_key_update,
    idempotent_run,
    insert_unless_exists,
    ledger_post,
    sql_names,
    system_lookup,
    wallet_lookup,
)
from cashier.services.responsible import exclusion_check
from tables.models import Hand, Seat, Structure, TableConfig


def _positive(amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise CashierError("invalid_amount", "The amount must be positive.")


class _MoneyIn:
    """What a buy-in or a top-up works on, locked in the cashier's order. The seat's table is
    the one the caller loaded under its table lock, if it did (`seat.table`)."""

    def __init__(self, seat: Seat, *, action: str) -> None:
        self.table = seat.table
        self.player = seat.player_id
        exclusion_check(user=self.player, action=action)
        self.wallet, self.escrow = accounts_find(
            [wallet_lookup(user_id=self.player, currency=self.table.currency),
             escrow_lookup(table=self.table)], lock=True)
        self.seat = _seat_locked(seat.pk)
        self.on_table = self.seat.chips + self.seat.pending

    def post(self, *, kind: str, amount: int) -> LedgerTransaction:
        """Wallet → table escrow."""
        return ledger_post(
            kind=kind, currency=self.table.currency, user=self.player, table=self.table,
            legs=[(self.wallet, -amount), (self.escrow, amount)],
        )


def ratholing_minimum(*, table: TableConfig, player: Any) -> int:
    """What the player left this table with within its ratholing window (0 if the rule does not
    apply: play money, fixed limit, window 0, or no recent cash-out)."""
    if (
        table.currency != Currency.REAL
        or table.structure == Structure.FIXED_LIMIT
        or not table.ratholing_window_minutes
    ):
        return 0
    since = timezone.now() - datetime.timedelta(minutes=table.ratholing_window_minutes)
    last = (
        CashOut.objects.filter(table=table, player=player, created_at__gte=since)
        .order_by("-id").values_list("amount", flat=True).first()
    )
    return last or 0


def buy_in(*, seat: Seat, amount: int, idempotency_key: str) -> LedgerTransaction:
    """Move `amount` from the player's wallet to the table's escrow and onto the seat.

    The seat's total (existing chips + pending top-ups + amount) must lie within the table's
    min/max buy-in; on real-money NL/PL tables a player who left within the ratholing window
    with X must bring at least X (and may bring X even above the maximum).
    Refusals: `invalid_amount`, `self_excluded`, `ratholing`, `below_min_buy_in`,
    `above_max_buy_in`, `insufficient_funds`.
    Locks: idempotency record, wallet + escrow accounts (ascending id), then the seat."""
    _positive(amount)

    def apply() -> dict[str, Any]:
        money_in = _MoneyIn(seat, action="sit down at a table")
        table, player = money_in.table, money_in.player
        total = money_in.on_table + amount
        rathole = ratholing_minimum(table=table, player=player)
        minimum, maximum = max(table.min_buy_in, rathole), max(table.max_buy_in, rathole)
        money = table.currency
        if total < minimum:
            if rathole > table.min_buy_in:
                raise CashierError(
                    "ratholing",
                    f"You left this table with {money_format(rathole, money)} less than "
                    f"{table.ratholing_window_minutes} minutes ago: come back with at least "
                    f"{money_format(rathole, money)}.",
                )
            raise CashierError(
                "below_min_buy_in",
                f"The minimum buy-in here is {money_format(minimum, money)}.",
            )
        if total > maximum:
            raise CashierError(
                "above_max_buy_in",
                f"The maximum buy-in here is {money_format(maximum, money)}"
                + (f"; you already have {money_format(total - amount, money)} on the table."
                   if total > amount else "."),
            )
        tx = money_in.post(kind=TransactionKind.BUY_IN, amount=amount)
        Seat.objects.filter(pk=seat.pk).update(chips=F("chips") + amount)
        return {"transaction_id": tx.pk}

    result = idempotent_run(
        key=idempotency_key, operation="buy_in", apply=apply,
        params={"seat": seat.pk, "amount": amount},
    )
    seat.refresh_from_db(fields=["chips"])
    return LedgerTransaction.objects.get(pk=result["transaction_id"])


def top_up(*, seat: Seat, amount: int, idempotency_key: str) -> PendingTopUp:
    """Take `amount` from the wallet into escrow now; it joins the stack when the next hand
    starts (`apply_top_ups`). Stack + pending top-ups + amount may not exceed the maximum.
    Refusals: `invalid_amount`, `self_excluded`, `above_max_buy_in`, `insufficient_funds`.
    Locks: idempotency record, wallet + escrow accounts (ascending id), then the seat."""
    _positive(amount)
    created: list[PendingTopUp] = []

    def apply() -> dict[str, Any]:
        created.append(top_up_claimed(seat=seat, amount=amount))
        return {"top_up_id": created[0].pk}

    result = idempotent_run(
        key=idempotency_key, operation="top_up", apply=apply,
        params={"seat": seat.pk, "amount": amount},
    )
    return created[0] if created else PendingTopUp.objects.get(pk=result["top_up_id"])


def top_up_claimed(*, seat: Seat, amount: int) -> PendingTopUp:
    """`top_up` for a caller whose own idempotency claim covers the request (the tables
    service's, keyed by the player's request id): the same rules and refusals, without a
    second claim. Locks: wallet + escrow accounts (ascending id), then the seat."""
    _positive(amount)
    money_in = _MoneyIn(seat, action="add chips at a table")
    table, player, already = money_in.table, money_in.player, money_in.on_table
    if already + amount > table.max_buy_in:
        room = max(table.max_buy_in - already, 0)
        raise CashierError(
            "above_max_buy_in",
            f"The maximum here is {money_format(table.max_buy_in, table.currency)}: you can add "
            f"{money_format(room, table.currency)} at most.",
        )
    tx = money_in.post(kind=TransactionKind.TOP_UP, amount=amount)
    return PendingTopUp.objects.create(
        table=table, player_id=player, seat=money_in.seat, amount=amount,
        status=TopUpStatus.PENDING, transaction=tx,
    )


def pending_top_ups_sql(seat_id: str) -> tuple[str, list[Any]]:
    """SQL and parameters for the chips of a seat's pending top-ups (0 when none), for fixed
    queries that read seats; `seat_id` is the seat's id column as the query names it."""
    table, seat, amount, status = sql_names(PendingTopUp, "seat", "amount", "status")
    return (f"COALESCE((SELECT SUM(p.{amount}) FROM {table} p WHERE p.{seat} = {seat_id} "
            f"AND p.{status} = %s), 0)", [TopUpStatus.PENDING.value])


def _seat_locked(seat_id: int) -> Seat:
    """Lock step 4: the seat, with its pending top-ups' chips (`pending`). (Fixed SQL: every
    top-up and buy-in runs it, and the ORM compiled the sum anew.)"""
    table, pk = sql_names(Seat, "id")
    pending, params = pending_top_ups_sql(f"s.{pk}")
    seat = Seat.objects.raw(f"SELECT s.*, {pending} AS pending FROM {table} s WHERE s.{pk} = %s"
                            f"{for_no_key_update()}", [*params, seat_id])[0]
    seat.pending = int(seat.pending)
    return seat


def top_ups_join(*, table: TableConfig, seats: Sequence[Seat]) -> Statement | None:
    """A hand starts: every seat's pending top-ups (`seat.pending`, read with the seats the
    caller locked: tables.services.rows.table_seats) join its stack. The chips move in memory
    and the returned statement marks the top-ups applied: the caller saves the seats' `chips`
    and runs the statement in the same transaction (no money moves in the ledger: the escrow
    holds the chips since the top-up). None when nothing was pending.

    A stack that grew meanwhile so that its top-ups no longer fit under the maximum takes the
    full path instead (`apply_top_ups`, which refunds the excess through the ledger and writes
    at once; the seats in memory follow). Needs the seats locked (lock step 4)."""
    waiting = {s.pk: s for s in seats if s.pending}
    if not waiting:
        return None
    if any(s.chips + s.pending > table.max_buy_in for s in waiting.values()):
        for row in apply_top_ups(table=table):
            if row.seat_id in waiting:
                waiting[row.seat_id].chips += row.applied_amount or 0
        return None
    for seat in waiting.values():
        seat.chips += seat.pending
    name, seat_col, status, applied, amount, settled_at = sql_names(
        PendingTopUp, "seat", "status", "applied_amount", "amount", "settled_at")
    settled = PendingTopUp._meta.get_field("settled_at").get_db_prep_save(timezone.now(),
                                                                         connection)
    ids = sorted(waiting)
    return (f"UPDATE {name} SET {status} = %s, {applied} = {amount}, {settled_at} = %s "
            f"WHERE {status} = %s AND {seat_col} IN ({', '.join(['%s'] * len(ids))})",
            [TopUpStatus.APPLIED.value, settled, TopUpStatus.PENDING.value, *ids])


def apply_top_ups(*, table: TableConfig) -> list[PendingTopUp]:
    """Add the pending top-ups to their seats (call when a hand starts). A stack that grew
    meanwhile takes only what fits under the maximum; the rest goes back to the wallet.
    Idempotent: applied rows are no longer pending.
    Locks: escrow + the players' wallets (ascending id), the seats (ascending id), the top-ups."""
    waiting = _pending_top_ups_at(table.pk)
    if not waiting:
        return []
    with transaction.atomic(savepoint=False):  # nothing is caught: the caller's is the unit
        return _top_ups_apply(table, waiting)


def _pending_top_ups_at(table_id: int) -> list[tuple[int, int, int]]:
    """(id, seat id, player id) of the table's pending top-ups. Fixed SQL: every hand start
    asks, and there usually are none."""
    name, pk, seat, player, table, status = sql_names(
        PendingTopUp, "id", "seat", "player", "table", "status")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {pk}, {seat}, {player} FROM {name} WHERE {table} = %s AND "
                       f"{status} = %s AND {seat} IS NOT NULL",
                       [table_id, TopUpStatus.PENDING.value])
        return [tuple(row) for row in cursor.fetchall()]


def _top_ups_apply(table: TableConfig, waiting: list[tuple[int, int, int]]) -> list[PendingTopUp]:
    players = sorted({player_id for _, _, player_id in waiting})
    escrow, *wallet_rows = accounts_find([
        escrow_lookup(table=table),
        *[wallet_lookup(user_id=pk, currency=table.currency) for pk in players]], lock=True)
    wallets = dict(zip(players, wallet_rows, strict=True))
    seats = {
        s.pk: s for s in Seat.objects.select_for_update(no_key=True)
        .filter(pk__in=sorted({seat_id for _, seat_id, _ in waiting})).order_by("pk")
    }
    rows = list(
        PendingTopUp.objects.select_for_update()
        .filter(pk__in=[pk for pk, _, _ in waiting], status=TopUpStatus.PENDING).order_by("pk")
    )
    now = timezone.now()
    added: dict[int, int] = defaultdict(int)
    for row in rows:
        seat = seats[row.seat_id]
        room = max(table.max_buy_in - seat.chips - added[seat.pk], 0)
        row.applied_amount = min(row.amount, room)
        refund = row.amount - row.applied_amount
        added[seat.pk] += row.applied_amount
        if refund:
            ledger_post(
                kind=TransactionKind.TOP_UP_REFUND, currency=table.currency,
                user=row.player_id, table=table, memo="Above the maximum buy-in at hand start",
                legs=[(escrow, -refund), (wallets[row.player_id], refund)],
            )
        row.status = TopUpStatus.APPLIED if row.applied_amount else TopUpStatus.REFUNDED
        row.settled_at = now
    PendingTopUp.objects.bulk_update(rows, ["applied_amount", "status", "settled_at"])
    amounts_add(Seat, "chips", {seat_id: amount for seat_id, amount in added.items() if amount})
    return rows


def cash_out(*, seat: Seat, idempotency_key: str) -> CashOut:
    """Return the seat's chips and any pending top-up to the wallet and set the stack to 0; the
    stack left with is recorded for the ratholing rule. The tables service deletes the seat
    afterwards (and calls this only between hands for that player).
    Locks: idempotency record, wallet + escrow (ascending id), the seat, its top-ups."""

    def apply() -> dict[str, Any]:
        table = TableConfig.objects.get(pk=seat.table_id)
        player = seat.player_id
        wallet, escrow = accounts_find([wallet_lookup(user_id=player, currency=table.currency),
                                        escrow_lookup(table=table)], lock=True)
        current = Seat.objects.select_for_update(no_key=True).get(pk=seat.pk)
        top_ups = list(
            PendingTopUp.objects.select_for_update()
            .filter(seat_id=seat.pk, status=TopUpStatus.PENDING).order_by("pk")
        )
        amount = current.chips + sum(row.amount for row in top_ups)
        tx = None
        if amount:
            tx = ledger_post(
                kind=TransactionKind.CASH_OUT, currency=table.currency, user=player, table=table,
                legs=[(escrow, -amount), (wallet, amount)],
            )
        now = timezone.now()
        for row in top_ups:
            row.status, row.settled_at = TopUpStatus.REFUNDED, now
            row.save(update_fields=["status", "settled_at"])
        Seat.objects.filter(pk=seat.pk).update(chips=0)
        record = CashOut.objects.create(
            table=table, player_id=player, amount=current.chips, transaction=tx
        )
        return {"cash_out_id": record.pk}

    result = idempotent_run(
        key=idempotency_key, operation="cash_out", apply=apply, params={"seat": seat.pk},
    )
    seat.refresh_from_db(fields=["chips"])
    return CashOut.objects.get(pk=result["cash_out_id"])


def _rake_memo(*, table: TableConfig, hand_id: str, hand_number: int | None) -> str:
    """"Hand #12": the number players and hand histories know the hand by (Hand.number, per
    table), not the database id; "Hand <hand_id>" when no such hand is stored."""
    if hand_number is None and hand_id.isdigit():
        hand_number = (Hand.objects.filter(pk=int(hand_id), table=table)
                       .values_list("number", flat=True).first())
    return f"Hand #{hand_number}" if hand_number is not None else f"Hand {hand_id}"


def settle_hand(
    *, table: TableConfig, hand_id: str, deltas: dict[int, int], rake: int,
    hand_number: int | None = None,
) -> HandSettlement:
    """Apply a finished hand: each seat's net result (rake excluded) and the rake, which moves
    from the escrow to the house account. Call inside the tables service's transaction that
    saves the hand's final state, so both commit or neither.

    Idempotent on (table, hand_id): the HandSettlement row is the claim (its unique constraint;
    a concurrent duplicate waits on the first's INSERT), so a repeat with the same deltas and
    rake returns the first settlement and one with others raises `idempotency_conflict`.
    Refusals come before any write: `unbalanced_hand` (sum(deltas) + rake != 0 or rake < 0),
    `unknown_seat`, `negative_stack`. The rake's memo names the table's own hand number
    ("Hand #12"): `hand_number` if given, else looked up from the Hand row `hand_id` names.
    Every hand ends with one, so it is kept short: three statements (the seats' lock, the
    claim, the stacks); with rake one more for the accounts' lock, and the stacks travel with
    the posting (`ledger_post`'s `also`).
    Locks: escrow + house (ascending id) when there is rake, then the seats (ascending id)."""
    clean = {int(seat_id): int(delta) for seat_id, delta in deltas.items()}
    if rake < 0 or sum(clean.values()) + rake != 0:
        raise CashierError(
            "unbalanced_hand", "A hand's results plus its rake must add up to zero."
        )
    fields = {"deltas": {str(k): v for k, v in sorted(clean.items())}, "rake": rake}
    # No savepoint (two statements): a refusal comes before any write, and the caller's
    # transaction is the unit (a transaction of its own when called outside one).
    with transaction.atomic(savepoint=False):
        settled = _settle(table, hand_id, clean, fields, hand_number)
    if isinstance(settled, CashierError):  # raised outside the block: nothing to roll back
        raise settled
    return settled


def _settle(table: TableConfig, hand_id: str, clean: dict[int, int], fields: dict[str, Any],
            hand_number: int | None) -> HandSettlement | CashierError:
    rake = fields["rake"]
    if rake:  # lock order: accounts before seats
        escrow, house = accounts_find([escrow_lookup(table=table), system_lookup(
            kind=AccountKind.HOUSE, currency=table.currency)], lock=True)
    seats = list(
        Seat.objects.select_for_update(no_key=True).filter(pk__in=sorted(clean), table=table)
        .order_by("pk").only("pk", "number", "chips")
    )
    refusal = None
    if len(seats) != len(clean):
        refusal = CashierError("unknown_seat", "A seat in the hand is not at this table.")
    for seat in seats:
        if refusal is None and seat.chips + clean[seat.pk] < 0:
            refusal = CashierError("negative_stack", f"Seat {seat.number} cannot lose more "
                                   "than its stack.")
    if refusal is not None:  # unless it was settled before, when the stacks were what they were
        first = HandSettlement.objects.filter(table=table, hand_id=hand_id).first()
        return refusal if first is None else _settlement_repeat(first, fields)
    row = _settlement_claim(table=table, hand_id=hand_id, **fields)
    if row is None:
        return _settlement_repeat(HandSettlement.objects.get(table=table, hand_id=hand_id), fields)
    stacks = {pk: delta for pk, delta in clean.items() if delta}
    if not rake:
        amounts_add(Seat, "chips", stacks)
        return row
    row.transaction = ledger_post(  # the stacks and the settlement's link travel with it
        kind=TransactionKind.RAKE, currency=table.currency, table=table,
        legs=[(escrow, -rake), (house, rake)],
        memo=_rake_memo(table=table, hand_id=hand_id, hand_number=hand_number),
        link=(HandSettlement, row.pk, "transaction"),
        also=[amounts_add_statement(Seat, "chips", stacks)] if stacks else [],
    )
    return row


def _settlement_claim(*, table: TableConfig, hand_id: str, deltas: dict[str, int],
                      rake: int) -> HandSettlement | None:
    """Insert the hand's settlement unless one exists: the new row, or None."""
    values = {"table": table.pk, "hand_id": hand_id, "deltas": deltas, "rake": rake,
              "created_at": timezone.now()}
    pk = insert_unless_exists(HandSettlement, values, conflict=("table", "hand_id"))
    if pk is None:
        return None
    return HandSettlement(pk=pk, table=table, hand_id=hand_id, deltas=deltas, rake=rake,
                          created_at=values["created_at"])


def _settlement_repeat(first: HandSettlement,
                       fields: dict[str, Any]) -> HandSettlement | CashierError:
    if first.deltas != fields["deltas"] or first.rake != fields["rake"]:
        return CashierError("idempotency_conflict",
                            "This hand was already settled with other results.")
    return first
