"""Tournament money: entries, refunds and prizes, for the tournaments app.

A tournament's buy-ins wait in its prize pool (an account of kind `pool`, one per tournament);
its fees go to the house. Tournament chips are not money: nothing here knows of them, and no
chip ever reaches a wallet. The tournaments app passes its terms as values (the tournament's
id, currency, buy-in, fee, guarantee): `cashier/` imports nothing from `tables/`.

Every function is one transaction with a client-made idempotency key (a retry returns the
first outcome and moves nothing more), refuses with a `CashierError` before anything is
written, and tags its ledger transaction with the tournament, so `audit_ledger` can prove
pool = Σ entries + Σ purchases (rebuys, add-ons) - Σ refunds - Σ prizes (+ overlay), and 0
once the event is over.

Locks (the order is stated in tables/services/locks.py): the caller may hold the tournament
row; then the idempotency record, then the ledger accounts (ascending id, one statement)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count

from cashier.errors import CashierError
from cashier.models import AccountKind, LedgerTransaction, TransactionKind
from cashier.money import money_format
from cashier.services.ledger import (
    accounts_lock,
    idempotent_run,
    ledger_post,
    pool_account,
    system_account,
    wallet_account,
)
from cashier.services.responsible import exclusion_check


def _amount(value: int, *, positive: bool) -> None:
    if (not isinstance(value, int) or isinstance(value, bool) or value < 0
            or (positive and value == 0)):
        raise CashierError("invalid_amount", "The amount must be positive." if positive
                           else "The amount cannot be negative.")


def _user_id(user: Any) -> int:
    return getattr(user, "pk", user)


def tournament_enter(*, user: Any, tournament_id: int, currency: str, buy_in: int, fee: int,
                     key: str) -> LedgerTransaction:
    """Take `buy_in + fee` from the player's wallet: the buy-in to the tournament's prize pool,
    the fee to the house, in one transaction. A retry of `key` returns the first transaction.

    Refusals: `invalid_amount`, `self_excluded`, `currency_mismatch` (the pool holds the other
    currency), `insufficient_funds`, `idempotency_conflict`, `missing_idempotency_key`.
    Locks: idempotency record, wallet + pool + house accounts (ascending id)."""
    _amount(buy_in, positive=True)
    _amount(fee, positive=False)

    def apply() -> dict[str, Any]:
        exclusion_check(user=user, action="enter a tournament")
        pool = pool_account(tournament_id=tournament_id, currency=currency)
        wallet = wallet_account(user=user, currency=currency)
        house = system_account(kind=AccountKind.HOUSE, currency=currency)
        locked = accounts_lock([wallet, pool, house])
        legs = [(locked[wallet.pk], -(buy_in + fee)), (locked[pool.pk], buy_in)]
        if fee:
            legs.append((locked[house.pk], fee))
        tx = ledger_post(kind=TransactionKind.TOURNAMENT_ENTRY, currency=currency, legs=legs,
                         user=user, tournament=tournament_id,
                         memo=f"Tournament #{tournament_id} entry")
        return {"transaction_id": tx.pk}

    result = idempotent_run(key=key, operation="tournament_enter", apply=apply, params={
        "user": _user_id(user), "tournament": tournament_id, "currency": currency,
        "buy_in": buy_in, "fee": fee})
    return LedgerTransaction.objects.get(pk=result["transaction_id"])


def tournament_refund(*, user: Any, tournament_id: int, currency: str, buy_in: int, fee: int,
                      key: str) -> LedgerTransaction:
    """Reverse one of the player's entries: the buy-in back from the pool and the fee back from
    the house, to the wallet, in one transaction. The player must have an entry not yet
    refunded (counted in the ledger: his entries less his refunds in this tournament).

    Refusals: `invalid_amount`, `nothing_to_refund`, `currency_mismatch`, `insufficient_funds`
    (the pool or the house holds less: a bug, or prizes already paid), `idempotency_conflict`.
    Locks: idempotency record, wallet + pool + house accounts (ascending id)."""
    _amount(buy_in, positive=True)
    _amount(fee, positive=False)

    def apply() -> dict[str, Any]:
        pool = pool_account(tournament_id=tournament_id, currency=currency)
        wallet = wallet_account(user=user, currency=currency)
        house = system_account(kind=AccountKind.HOUSE, currency=currency)
        locked = accounts_lock([wallet, pool, house])
        if _unrefunded(user_id=_user_id(user), tournament_id=tournament_id,
                       paid=TransactionKind.TOURNAMENT_ENTRY,
                       refunded=TransactionKind.TOURNAMENT_REFUND) < 1:
            raise CashierError("nothing_to_refund",
                               "You have no entry in this tournament to refund.")
        legs = [(locked[pool.pk], -buy_in), (locked[wallet.pk], buy_in + fee)]
        if fee:
            legs.append((locked[house.pk], -fee))
        tx = ledger_post(kind=TransactionKind.TOURNAMENT_REFUND, currency=currency, legs=legs,
                         user=user, tournament=tournament_id,
                         memo=f"Tournament #{tournament_id} refund")
        return {"transaction_id": tx.pk}

    result = idempotent_run(key=key, operation="tournament_refund", apply=apply, params={
        "user": _user_id(user), "tournament": tournament_id, "currency": currency,
        "buy_in": buy_in, "fee": fee})
    return LedgerTransaction.objects.get(pk=result["transaction_id"])


def _unrefunded(*, user_id: int, tournament_id: int, paid: str, refunded: str) -> int:
    """The player's `paid` transactions in the tournament (entries, or purchases) less his
    `refunded` ones. Needs his wallet locked (it serialises his payments and refunds)."""
    counts = dict(
        LedgerTransaction.objects.filter(
            user_id=user_id, tournament_id=tournament_id, kind__in=[paid, refunded])
        .values_list("kind").annotate(n=Count("id")).order_by())
    return counts.get(paid, 0) - counts.get(refunded, 0)


def tournament_purchase(*, user: Any, tournament_id: int, currency: str, price: int,
                        key: str) -> LedgerTransaction:
    """A rebuy or an add-on: take `price` from the player's wallet to the tournament's prize
    pool (no fee), in one transaction. A retry of `key` returns the first transaction.

    Refusals: `invalid_amount`, `self_excluded`, `currency_mismatch`, `insufficient_funds`,
    `idempotency_conflict`, `missing_idempotency_key`.
    Locks: idempotency record, wallet + pool accounts (ascending id)."""
    _amount(price, positive=True)

    def apply() -> dict[str, Any]:
        exclusion_check(user=user, action="buy tournament chips")
        pool = pool_account(tournament_id=tournament_id, currency=currency)
        wallet = wallet_account(user=user, currency=currency)
        locked = accounts_lock([wallet, pool])
        tx = ledger_post(kind=TransactionKind.TOURNAMENT_PURCHASE, currency=currency,
                         legs=[(locked[wallet.pk], -price), (locked[pool.pk], price)],
                         user=user, tournament=tournament_id,
                         memo=f"Tournament #{tournament_id} rebuy or add-on")
        return {"transaction_id": tx.pk}

    result = idempotent_run(key=key, operation="tournament_purchase", apply=apply, params={
        "user": _user_id(user), "tournament": tournament_id, "currency": currency,
        "price": price})
    return LedgerTransaction.objects.get(pk=result["transaction_id"])


def tournament_purchase_refund(*, user: Any, tournament_id: int, currency: str, price: int,
                               key: str) -> LedgerTransaction:
    """Reverse one of the player's rebuys or add-ons (a cancelled tournament): `price` back
    from the pool to the wallet. The player must have a purchase not yet refunded (counted in
    the ledger, as `tournament_refund` counts entries).

    Refusals: `invalid_amount`, `nothing_to_refund`, `currency_mismatch`, `insufficient_funds`
    (the pool holds less: a bug, or prizes already paid), `idempotency_conflict`.
    Locks: idempotency record, wallet + pool accounts (ascending id)."""
    _amount(price, positive=True)

    def apply() -> dict[str, Any]:
        pool = pool_account(tournament_id=tournament_id, currency=currency)
        wallet = wallet_account(user=user, currency=currency)
        locked = accounts_lock([wallet, pool])
        if _unrefunded(user_id=_user_id(user), tournament_id=tournament_id,
                       paid=TransactionKind.TOURNAMENT_PURCHASE,
                       refunded=TransactionKind.PURCHASE_REFUND) < 1:
            raise CashierError("nothing_to_refund",
                               "You have no rebuy or add-on in this tournament to refund.")
        tx = ledger_post(kind=TransactionKind.PURCHASE_REFUND, currency=currency,
                         legs=[(locked[pool.pk], -price), (locked[wallet.pk], price)],
                         user=user, tournament=tournament_id,
                         memo=f"Tournament #{tournament_id} rebuy or add-on refund")
        return {"transaction_id": tx.pk}

    result = idempotent_run(key=key, operation="tournament_purchase_refund", apply=apply,
                            params={"user": _user_id(user), "tournament": tournament_id,
                                    "currency": currency, "price": price})
    return LedgerTransaction.objects.get(pk=result["transaction_id"])


def tournament_pay(*, tournament_id: int, currency: str, prizes: Mapping[int, int], key: str,
                   guarantee: int = 0) -> LedgerTransaction:
    """Pay the prizes (user id → amount) from the pool, emptying it: they must add up to the
    pool, or to the `guarantee` when that is more — then the operator first tops the pool up
    by the difference (an overlay), in the same database transaction. The overlay is money
    entering the room, as a deposit is, so it comes from the world account: a promised
    guarantee is always paid, whatever the house's rake holds. Paid once per tournament
    (after it the pool is empty). Returns the prize transaction.

    Refusals: `invalid_amount`, `prizes_mismatch` (the prizes do not add up to what the pool
    pays), `currency_mismatch`, `idempotency_conflict`.
    Locks: idempotency record, pool + world + the winners' wallets (ascending id)."""
    if not prizes:
        raise CashierError("invalid_amount", "Name at least one prize.")
    for amount in prizes.values():
        _amount(amount, positive=True)
    _amount(guarantee, positive=False)

    def apply() -> dict[str, Any]:
        pool = pool_account(tournament_id=tournament_id, currency=currency)
        world = system_account(kind=AccountKind.WORLD, currency=currency)
        wallets = {user_id: wallet_account(user=user_id, currency=currency)
                   for user_id in sorted(prizes)}
        locked = accounts_lock([pool, world, *wallets.values()])
        pool, world = locked[pool.pk], locked[world.pk]
        overlay = max(guarantee - pool.balance, 0)
        total = sum(prizes.values())
        if total != pool.balance + overlay:
            raise CashierError(
                "prizes_mismatch",
                f"The prizes add up to {money_format(total, currency)}; the pool pays "
                f"{money_format(pool.balance + overlay, currency)}.")
        if overlay:
            ledger_post(kind=TransactionKind.TOURNAMENT_OVERLAY, currency=currency,
                        legs=[(world, -overlay), (pool, overlay)], tournament=tournament_id,
                        memo=f"Tournament #{tournament_id} guarantee")
        tx = ledger_post(
            kind=TransactionKind.TOURNAMENT_PRIZE, currency=currency, tournament=tournament_id,
            legs=[(pool, -total),
                  *((locked[wallets[user_id].pk], amount) for user_id, amount in prizes.items())],
            memo=f"Tournament #{tournament_id} prizes")
        return {"transaction_id": tx.pk}

    result = idempotent_run(key=key, operation="tournament_pay", apply=apply, params={
        "tournament": tournament_id, "currency": currency, "guarantee": guarantee,
        "prizes": {str(user_id): amount for user_id, amount in sorted(prizes.items())}})
    return LedgerTransaction.objects.get(pk=result["transaction_id"])
