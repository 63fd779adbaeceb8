"""Fixtures for the cashier tests: players with money, tables and seats."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from cashier.money import Currency
from cashier.services import deposit, play_money_grant
from tables.models import Seat, Structure, TableConfig

SANDBOX_OK = "4242424242424242"
SANDBOX_DECLINED = "4000000000000002"


def new_key() -> str:
    return str(uuid.uuid4())


@pytest.fixture
def make_player(django_user_model: Any) -> Callable[..., Any]:
    """make_player("ann", real=10_000) → a user with $100.00 deposited (and the play grant)."""

    def make(username: str, *, real: int = 0, play_grant: bool = True) -> Any:
        user = django_user_model.objects.create_user(username=username)  # no hashing: fast
        if play_grant:
            play_money_grant(user=user)
        if real:
            deposit(user=user, amount=real, provider="sandbox", card_number=SANDBOX_OK,
                    idempotency_key=new_key())
        return user

    return make


@pytest.fixture
def make_table() -> Callable[..., TableConfig]:
    """A $0.50/$1 no-limit real-money table by default: buy-in $40 to $100 (4,000 to 10,000 cents)."""
    counter = iter(range(1, 10_000))

    def make(*, currency: str = Currency.REAL, structure: str = Structure.NO_LIMIT,
             lower_stake: int = 100, **extra: Any) -> TableConfig:
        return TableConfig.objects.create(
            name=f"Table {next(counter)}", currency=currency, structure=structure,
            lower_stake=lower_stake, **extra,
        )

    return make


@pytest.fixture
def seat_at() -> Callable[..., Seat]:
    """What the tables service does before `buy_in`: create the seat with no chips."""

    def make(table: TableConfig, player: Any) -> Seat:
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        number = min(set(range(1, 11)) - taken)
        return Seat.objects.create(table=table, player=player, number=number)

    return make
