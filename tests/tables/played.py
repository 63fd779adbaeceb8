"""Real hands for tests outside tables/: players seated through the tables service, a hand
dealt and checked down, every chip moved by the cashier's services."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tables import scheduling, services
from tables.models import Hand, TableConfig
from tests.tables.helpers import play_out


@pytest.fixture
def quiet_timers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No Celery tasks and no automatic next hand: the test deals each hand itself."""
    monkeypatch.setattr(scheduling, "timeout_schedule", lambda **kwargs: None)
    monkeypatch.setattr(scheduling, "hand_start_schedule", lambda **kwargs: None)
    monkeypatch.setattr(scheduling, "hand_stats_schedule", lambda **kwargs: None)
    yield


def seat_players(table: TableConfig, players: list[Any], amount: int) -> None:
    for number, player in enumerate(players, start=1):
        services.seat_take(table_id=table.pk, user=player, number=number, amount=amount,
                           idempotency_key=f"sit-{uuid.uuid4().hex}")


def hand_checked_down(table: TableConfig) -> Hand:
    """Deal a hand and play it to its end, everyone calling and checking."""
    hand = services.hand_start(table_id=table.pk, force=True)
    assert hand is not None
    play_out(table.pk, passive=True)
    hand.refresh_from_db()
    return hand
