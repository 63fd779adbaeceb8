"""Table money: buy-ins, queued top-ups, cash-outs and hand settlement, for the tables app.

The cashier owns wallets, each table's escrow and the house; a table owns its seats' stacks.
So every function here moves money only between those accounts and returns what the move does
to the stacks (`StackChanges`): the tables service writes that with its event log, in the
same transaction. A table comes in as values (`TableTerms`, seat ids and chips), never as a
tables model: `cashier/` imports nothing from `tables/`.

The table's escrow account holds every chip at the table: escrow balance = sum(seated chips)
+ pending top-ups whenever no hand is being settled. `settle_hand` checks it at every hand
(`LedgerBroken`); `audit_ledger` checks it for every table.

Locks (the order is stated in tables/services/locks.py): the caller holds the table row and
the seats it reads; then the idempotency record, the ledger accounts (ascending id), the
pending top-ups. The cashier locks no seat and writes none.
"""
from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from cashier.errors import CashierError, LedgerBroken
from cashier.models import (
    AccountKind,
    CashOut,
    HandSettlement,
    LedgerAccount,
    LedgerTransaction,
    PendingTopUp,
    TopUpStatus,
    TransactionKind,
)
from cashier.money import Currency, money_format
from cashier.services.ledger import (
    Statement,
    accounts_find,
    escrow_lookup,
    idempotent_run,
    insert_unless_exists,
    ledger_post,
    sql_names,
    system_lookup,
    wallet_lookup,
)
from cashier.services.responsible import exclusion_check


@dataclass(frozen=True)
class TableTerms:
    """What the cashier needs to know of a table (the tables app makes it from its config):
    `fixed_limit` and `ratholing_window_minutes` decide whether the ratholing rule applies."""

    table_id: int
    currency: str
    min_buy_in: int
    max_buy_in: int
    fixed_limit: bool = False
    ratholing_window_minutes: int = 0


@dataclass(frozen=True)
class StackChanges:
    """What a money movement did to the table's stacks, for the table to write: chips added to
    (negative: taken from) each seat, by seat id, and the cashier's own writes to send with
    them in the same round trip (top-ups marked applied), whose results nobody reads."""

    deltas: Mapping[int, int] = field(default_factory=dict)
    writes: tuple[Statement, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.deltas or self.writes)


NO_CHANGE = StackChanges()


def _positive(amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise CashierError("invalid_amount", "The amount must be positive.")


def _money_in(terms: TableTerms, player_id: int, *, action: str
              ) -> tuple[LedgerAccount, LedgerAccount]:
    """The player's wallet and the table's escrow, locked, for money coming to the table
    (after the self-exclusion check)."""
    exclusion_check(user=player_id, action=action)
    wallet, escrow = accounts_find(
        [wallet_lookup(user_id=player_id, currency=terms.currency),
         escrow_lookup(table_id=terms.table_id, currency=terms.currency)], lock=True)
    return wallet, escrow


def ratholing_minimum(*, terms: TableTerms, player: Any) -> int:
    """What the player left this table with within its ratholing window (0 if the rule does not
    apply: play money, fixed limit, window 0, or no recent cash-out)."""
    if (terms.currency != Currency.REAL or terms.fixed_limit
            or not terms.ratholing_window_minutes):
        return 0
    since = timezone.now() - datetime.timedelta(minutes=terms.ratholing_window_minutes)
    last = (
        CashOut.objects.filter(table_id=terms.table_id, player=player, created_at__gte=since)
        .order_by("-id").values_list("amount", flat=True).first()
    )
    return last or 0


def buy_in(*, terms: TableTerms, seat_id: int, player_id: int, on_table: int, amount: int,
           idempotency_key: str) -> tuple[LedgerTransaction, StackChanges]:
    """Move `amount` from the player's wallet to the table's escrow; returns the transaction
    and the stack change (`amount` onto seat `seat_id`) for the table to write. A repeat of
    the key returns the first transaction and no change (the first call's was written).

    The seat's total (`on_table`: its chips + pending top-ups, + amount) must lie within the
    table's min/max buy-in; on real-money NL/PL tables a player who left within the ratholing
    window with X must bring at least X (and may bring X even above the maximum).
    Refusals: `invalid_amount`, `self_excluded`, `ratholing`, `below_min_buy_in`,
    `above_max_buy_in`, `insufficient_funds`.
    Locks: idempotency record, wallet + escrow accounts (ascending id)."""
    _positive(amount)
    changes: list[StackChanges] = []

    def apply() -> dict[str, Any]:
        wallet, escrow = _money_in(terms, player_id, action="sit down at a table")
        total = on_table + amount
        rathole = ratholing_minimum(terms=terms, player=player_id)
        minimum, maximum = max(terms.min_buy_in, rathole), max(terms.max_buy_in, rathole)
        money = terms.currency
        if total < minimum:
            if rathole > terms.min_buy_in:
                raise CashierError(
                    "ratholing",
                    f"You left this table with {money_format(rathole, money)} less than "
                    f"{terms.ratholing_window_minutes} minutes ago: come back with at least "
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
        tx = ledger_post(kind=TransactionKind.BUY_IN, currency=money, user=player_id,
                         table=terms.table_id, legs=[(wallet, -amount), (escrow, amount)])
        changes.append(StackChanges({seat_id: amount}))
        return {"transaction_id": tx.pk}

    result = idempotent_run(
        key=idempotency_key, operation="buy_in", apply=apply,
        params={"seat": seat_id, "amount": amount},
    )
    return (LedgerTransaction.objects.get(pk=result["transaction_id"]),
            changes[0] if changes else NO_CHANGE)


def top_up(*, terms: TableTerms, seat_id: int, player_id: int, on_table: int, amount: int,
           idempotency_key: str) -> PendingTopUp:
    """Take `amount` from the wallet into escrow now; it joins the stack when the next hand
    starts (`top_ups_join`). `on_table` (stack + pending top-ups) + amount may not exceed the
    maximum. Refusals: `invalid_amount`, `self_excluded`, `above_max_buy_in`,
    `insufficient_funds`. Locks: idempotency record, wallet + escrow accounts (ascending id)."""
    _positive(amount)
    created: list[PendingTopUp] = []

    def apply() -> dict[str, Any]:
        created.append(top_up_claimed(terms=terms, seat_id=seat_id, player_id=player_id,
                                      on_table=on_table, amount=amount))
        return {"top_up_id": created[0].pk}

    result = idempotent_run(
        key=idempotency_key, operation="top_up", apply=apply,
        params={"seat": seat_id, "amount": amount},
    )
    return created[0] if created else PendingTopUp.objects.get(pk=result["top_up_id"])


def top_up_claimed(*, terms: TableTerms, seat_id: int, player_id: int, on_table: int,
                   amount: int) -> PendingTopUp:
    """`top_up` for a caller whose own idempotency claim covers the request (the tables
    service's, keyed by the player's request id): the same rules and refusals, without a
    second claim. No stack changes: the chips wait in escrow. Locks: wallet + escrow
    accounts (ascending id)."""
    _positive(amount)
    wallet, escrow = _money_in(terms, player_id, action="add chips at a table")
    if on_table + amount > terms.max_buy_in:
        room = max(terms.max_buy_in - on_table, 0)
        raise CashierError(
            "above_max_buy_in",
            f"The maximum here is {money_format(terms.max_buy_in, terms.currency)}: you can add "
            f"{money_format(room, terms.currency)} at most.",
        )
    tx = ledger_post(kind=TransactionKind.TOP_UP, currency=terms.currency, user=player_id,
                     table=terms.table_id, legs=[(wallet, -amount), (escrow, amount)])
    return PendingTopUp.objects.create(
        table_id=terms.table_id, player_id=player_id, seat_id=seat_id, amount=amount,
        status=TopUpStatus.PENDING, transaction=tx,
    )


def pending_top_ups_sql(seat_id: str) -> tuple[str, list[Any]]:
    """SQL and parameters for the chips of a seat's pending top-ups (0 when none), for fixed
    queries that read seats; `seat_id` is the seat's id column as the query names it."""
    table, seat, amount, status = sql_names(PendingTopUp, "seat", "amount", "status")
    return (f"COALESCE((SELECT SUM(p.{amount}) FROM {table} p WHERE p.{seat} = {seat_id} "
            f"AND p.{status} = %s), 0)", [TopUpStatus.PENDING.value])


def top_ups_join(*, terms: TableTerms, chips: Mapping[int, int],
                 pending: Mapping[int, int]) -> StackChanges:
    """A hand starts: every seat's pending top-ups join its stack. `chips` and `pending` (by
    seat id) are what the caller read with the seats it locked. Returns the stacks' changes
    and the statement marking the top-ups applied, for the caller to write together (no
    money moves in the ledger: the escrow holds the chips since the top-up); no change when
    nothing was pending.

    A stack that grew meanwhile so that its top-ups no longer fit under the maximum takes the
    full path instead (`apply_top_ups`: it refunds the excess through the ledger and marks
    the top-ups at once; the stacks' changes are still the caller's to write)."""
    waiting = {seat_id: amount for seat_id, amount in pending.items() if amount}
    if not waiting:
        return NO_CHANGE
    if any(chips[seat_id] + amount > terms.max_buy_in for seat_id, amount in waiting.items()):
        return apply_top_ups(terms=terms, chips=chips)[1]
    name, seat_col, status, applied, amount_col, settled_at = sql_names(
        PendingTopUp, "seat", "status", "applied_amount", "amount", "settled_at")
    settled = PendingTopUp._meta.get_field("settled_at").get_db_prep_save(timezone.now(),
                                                                         connection)
    ids = sorted(waiting)
    mark = (f"UPDATE {name} SET {status} = %s, {applied} = {amount_col}, {settled_at} = %s "
            f"WHERE {status} = %s AND {seat_col} IN ({', '.join(['%s'] * len(ids))})",
            [TopUpStatus.APPLIED.value, settled, TopUpStatus.PENDING.value, *ids])
    return StackChanges(waiting, (mark,))


def apply_top_ups(*, terms: TableTerms, chips: Mapping[int, int]
                  ) -> tuple[list[PendingTopUp], StackChanges]:
    """Settle the table's pending top-ups as a hand starts, given its seats' stacks (`chips`
    by seat id): a stack that grew meanwhile takes only what fits under the maximum and the
    rest goes back to the wallet. Returns the top-ups and the stacks' changes (the caller
    writes those). Idempotent: settled rows are no longer pending.
    Locks: escrow + the players' wallets (ascending id), the top-ups."""
    waiting = _pending_top_ups_at(terms.table_id)
    if not waiting:
        return [], NO_CHANGE
    with transaction.atomic(savepoint=False):  # nothing is caught: the caller's is the unit
        return _top_ups_apply(terms, chips, waiting)


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


def _top_ups_apply(terms: TableTerms, chips: Mapping[int, int],
                   waiting: list[tuple[int, int, int]]) -> tuple[list[PendingTopUp], StackChanges]:
    players = sorted({player_id for _, _, player_id in waiting})
    escrow, *wallet_rows = accounts_find([
        escrow_lookup(table_id=terms.table_id, currency=terms.currency),
        *[wallet_lookup(user_id=pk, currency=terms.currency) for pk in players]], lock=True)
    wallets = dict(zip(players, wallet_rows, strict=True))
    rows = list(
        PendingTopUp.objects.select_for_update()
        .filter(pk__in=[pk for pk, _, _ in waiting], status=TopUpStatus.PENDING).order_by("pk")
    )
    now = timezone.now()
    added: dict[int, int] = defaultdict(int)
    for row in rows:
        room = max(terms.max_buy_in - chips.get(row.seat_id, 0) - added[row.seat_id], 0)
        row.applied_amount = min(row.amount, room)
        refund = row.amount - row.applied_amount
        added[row.seat_id] += row.applied_amount
        if refund:
            ledger_post(
                kind=TransactionKind.TOP_UP_REFUND, currency=terms.currency,
                user=row.player_id, table=terms.table_id,
                memo="Above the maximum buy-in at hand start",
                legs=[(escrow, -refund), (wallets[row.player_id], refund)],
            )
        row.status = TopUpStatus.APPLIED if row.applied_amount else TopUpStatus.REFUNDED
        row.settled_at = now
    PendingTopUp.objects.bulk_update(rows, ["applied_amount", "status", "settled_at"])
    return rows, StackChanges({seat_id: amount for seat_id, amount in added.items() if amount})


def cash_out(*, terms: TableTerms, seat_id: int, player_id: int, chips: int,
             idempotency_key: str) -> tuple[CashOut, StackChanges]:
    """Return the seat's `chips` and any pending top-up to the wallet; returns the record (the
    stack left with, for the ratholing rule) and the stack change (the seat's chips to 0) for
    the table to write. A repeat of the key returns the first record and no change. The
    tables service frees the seat afterwards (and calls this only between hands for that
    player). Locks: idempotency record, wallet + escrow (ascending id), the seat's top-ups."""
    changes: list[StackChanges] = []

    def apply() -> dict[str, Any]:
        wallet, escrow = accounts_find(
            [wallet_lookup(user_id=player_id, currency=terms.currency),
             escrow_lookup(table_id=terms.table_id, currency=terms.currency)], lock=True)
        top_ups = list(
            PendingTopUp.objects.select_for_update()
            .filter(seat_id=seat_id, status=TopUpStatus.PENDING).order_by("pk")
        )
        amount = chips + sum(row.amount for row in top_ups)
        tx = None
        if amount:
            tx = ledger_post(
                kind=TransactionKind.CASH_OUT, currency=terms.currency, user=player_id,
                table=terms.table_id, legs=[(escrow, -amount), (wallet, amount)],
            )
        now = timezone.now()
        for row in top_ups:
            row.status, row.settled_at = TopUpStatus.REFUNDED, now
            row.save(update_fields=["status", "settled_at"])
        record = CashOut.objects.create(
            table_id=terms.table_id, player_id=player_id, amount=chips, transaction=tx
        )
        changes.append(StackChanges({seat_id: -chips} if chips else {}))
        return {"cash_out_id": record.pk}

    result = idempotent_run(
        key=idempotency_key, operation="cash_out", apply=apply, params={"seat": seat_id},
    )
    return CashOut.objects.get(pk=result["cash_out_id"]), changes[0] if changes else NO_CHANGE


def settle_hand(
    *, terms: TableTerms, hand_id: str, deltas: Mapping[int, int], rake: int,
    stacks: Mapping[int, int], hand_number: int | None = None,
) -> tuple[HandSettlement, StackChanges]:
    """Settle a finished hand: the rake moves from the escrow to the house account, and each
    seat's net result (rake excluded) comes back as the stacks' changes, for the table to
    write in the transaction that saves the hand's final state, so both commit or neither.
    `stacks` is every seat of the table with its chips before the hand's deltas, as the
    caller read them under its locks.

    Checks the escrow at every settlement: escrow - pending top-ups must equal the seated
    chips after the deltas (and the rake); `LedgerBroken` otherwise (a bug or a corrupted
    row, never a player's doing: nothing is written). Read in the claim's statement.

    Idempotent on (table, hand_id): the HandSettlement row is the claim (its unique
    constraint; a concurrent duplicate waits on the first's INSERT), so a repeat with the same
    deltas and rake returns the first settlement and no changes, and one with others raises
    `idempotency_conflict`. Refusals come before any write: `unbalanced_hand` (sum(deltas) +
    rake != 0 or rake < 0), `unknown_seat`, `negative_stack`. The rake's memo names the
    table's own hand number ("Hand #12") when given.
    One statement without rake (the claim); with rake two more: the accounts' lock and the
    posting. Locks: escrow + house (ascending id) when there is rake."""
    clean = {int(seat_id): int(delta) for seat_id, delta in deltas.items()}
    if rake < 0 or sum(clean.values()) + rake != 0:
        raise CashierError(
            "unbalanced_hand", "A hand's results plus its rake must add up to zero."
        )
    fields = {"deltas": {str(k): v for k, v in sorted(clean.items())}, "rake": rake}
    # No savepoint: a refusal comes before any write, and the caller's transaction is the
    # unit (a transaction of its own when called outside one).
    with transaction.atomic(savepoint=False):
        settled = _settle(terms, hand_id, clean, dict(stacks), fields, hand_number)
    if isinstance(settled, CashierError):  # raised outside the block: nothing to roll back
        raise settled
    return settled


def _settle(terms: TableTerms, hand_id: str, clean: dict[int, int], stacks: dict[int, int],
            fields: dict[str, Any], hand_number: int | None
            ) -> tuple[HandSettlement, StackChanges] | CashierError:
    rake = fields["rake"]
    if rake:
        escrow, house = accounts_find([
            escrow_lookup(table_id=terms.table_id, currency=terms.currency),
            system_lookup(kind=AccountKind.HOUSE, currency=terms.currency)], lock=True)
    refusal = None
    if any(seat_id not in stacks for seat_id in clean):
        refusal = CashierError("unknown_seat", "A seat in the hand is not at this table.")
    elif any(stacks[seat_id] + delta < 0 for seat_id, delta in clean.items()):
        refusal = CashierError("negative_stack", "A seat cannot lose more than its stack.")
    if refusal is not None:  # unless it was settled before, when the stacks were what they were
        first = HandSettlement.objects.filter(table_id=terms.table_id, hand_id=hand_id).first()
        return refusal if first is None else _settlement_repeat(first, fields)
    claimed = _settlement_claim(terms=terms, hand_id=hand_id, **fields)
    if claimed is None:
        first = HandSettlement.objects.get(table_id=terms.table_id, hand_id=hand_id)
        return _settlement_repeat(first, fields)
    row, escrow_balance, pending = claimed
    seated = sum(stacks.values()) + sum(clean.values())
    if escrow_balance - rake - pending != seated:
        raise LedgerBroken(
            f"table {terms.table_id}, hand {hand_id}: escrow {escrow_balance - rake} - pending "
            f"top-ups {pending} != seated chips {seated} after the hand")
    if rake:
        memo = f"Hand #{hand_number}" if hand_number is not None else f"Hand {hand_id}"
        row.transaction = ledger_post(
            kind=TransactionKind.RAKE, currency=terms.currency, table=terms.table_id,
            legs=[(escrow, -rake), (house, rake)], memo=memo,
            link=(HandSettlement, row.pk, "transaction"),
        )
    return row, StackChanges({pk: delta for pk, delta in clean.items() if delta})


def _settlement_claim(*, terms: TableTerms, hand_id: str, deltas: dict[str, int],
                      rake: int) -> tuple[HandSettlement, int, int] | None:
    """Insert the hand's settlement unless one exists: the new row with the table's escrow
    balance and pending top-ups as they are (read in the same statement), or None."""
    values = {"table": terms.table_id, "hand_id": hand_id, "deltas": deltas, "rake": rake,
              "created_at": timezone.now()}
    accounts, balance, kind, currency, user, table = sql_names(
        LedgerAccount, "balance", "kind", "currency", "user", "table")
    top_ups, amount, top_up_table, status = sql_names(PendingTopUp, "amount", "table", "status")
    returned = insert_unless_exists(HandSettlement, values, conflict=("table", "hand_id"), also=[
        (f"COALESCE((SELECT {balance} FROM {accounts} WHERE {kind} = %s AND {currency} = %s "
         f"AND {user} IS NULL AND {table} = %s), 0)",
         [AccountKind.ESCROW.value, terms.currency, terms.table_id]),
        (f"COALESCE((SELECT SUM({amount}) FROM {top_ups} WHERE {top_up_table} = %s AND "
         f"{status} = %s), 0)", [terms.table_id, TopUpStatus.PENDING.value]),
    ])
    if returned is None:
        return None
    pk, escrow_balance, pending = returned
    row = HandSettlement(pk=pk, table_id=terms.table_id, hand_id=hand_id, deltas=deltas,
                         rake=rake, created_at=values["created_at"])
    return row, int(escrow_balance), int(pending)


def _settlement_repeat(first: HandSettlement, fields: dict[str, Any]
                       ) -> tuple[HandSettlement, StackChanges] | CashierError:
    if first.deltas != fields["deltas"] or first.rake != fields["rake"]:
        return CashierError("idempotency_conflict",
                            "This hand was already settled with other results.")
    return first, NO_CHANGE
