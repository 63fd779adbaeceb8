"""Play money: a grant at sign-up and a free hourly reload back to the floor.

Play chips come from the PLAY world account, so they are booked like real money and the
audit covers them too. Locks: idempotency record, then world and wallet PLAY accounts.
"""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from cashier import conf
from cashier.errors import CashierError
from cashier.models import AccountKind, LedgerTransaction, TransactionKind
from cashier.money import Currency
from cashier.services.ledger import (
    accounts_lock,
    idempotent_run,
    ledger_post,
    system_account,
    wallet_account,
)

PLAY = Currency.PLAY


def play_money_grant(*, user: Any) -> LedgerTransaction:
    """Credit the sign-up grant, once per player (the key is derived from the player)."""

    def apply() -> dict[str, Any]:
        wallet = wallet_account(user=user, currency=PLAY)
        world = system_account(kind=AccountKind.WORLD, currency=PLAY)
        locked = accounts_lock([wallet, world])
        amount = conf.play_money_grant()
        tx = ledger_post(
            kind=TransactionKind.PLAY_GRANT, currency=PLAY, user=user,
            legs=[(locked[world.pk], -amount), (locked[wallet.pk], amount)],
            memo="Welcome grant",
        )
        return {"transaction_id": tx.pk}

    result = idempotent_run(
        key=f"play_money_grant:{user.pk}", operation="play_money_grant",
        params={"user": user.pk}, apply=apply,
    )
    return LedgerTransaction.objects.get(pk=result["transaction_id"])


def play_money_reload(*, user: Any, idempotency_key: str) -> LedgerTransaction:
    """Bring the play wallet back up to the floor. Refusals: `above_floor` (the wallet is not
    below it) and `reload_too_soon` (a reload less than the interval ago). The wallet lock
    makes the once-an-hour check exact under concurrent clicks."""

    def apply() -> dict[str, Any]:
        wallet = wallet_account(user=user, currency=PLAY)
        world = system_account(kind=AccountKind.WORLD, currency=PLAY)
        locked = accounts_lock([wallet, world])
        floor = conf.play_money_floor()
        balance = locked[wallet.pk].balance
        if balance >= floor:
            raise CashierError(
                "above_floor",
                f"Reloads are for wallets below {floor:,} chips; you have {balance:,}.",
            )
        last = (
            LedgerTransaction.objects.filter(user=user, kind=TransactionKind.PLAY_RELOAD)
            .order_by("-id").values_list("created_at", flat=True).first()
        )
        next_at = last + conf.play_money_reload_interval() if last else None
        if next_at and next_at > timezone.now():
            minutes = int((next_at - timezone.now()).total_seconds() // 60) + 1
            raise CashierError(
                "reload_too_soon", f"One free reload an hour: try again in {minutes} min."
            )
        tx = ledger_post(
            kind=TransactionKind.PLAY_RELOAD, currency=PLAY, user=user,
            legs=[(locked[world.pk], balance - floor), (locked[wallet.pk], floor - balance)],
            memo=f"Reload to {floor:,}",
        )
        return {"transaction_id": tx.pk}

    result = idempotent_run(
        key=idempotency_key, operation="play_money_reload", params={"user": user.pk},
        apply=apply,
    )
    return LedgerTransaction.objects.get(pk=result["transaction_id"])
