"""bench/ledger.py's workers on the test database: each must talk to PostgreSQL over a
connection of its own. (Forked after this process had used its connection pool, they shared
its pooled sockets: a worker crashed on another's half-read answer, or waited for ever.)"""
from __future__ import annotations

from typing import Any

import pytest

from bench import ledger
from cashier.audit import ledger_audit
from cashier.models import LedgerTransaction
from cashier.money import Currency
from cashier.services import wallet_account
from tests.conftest import database_url_for_subprocesses


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_workers_transfer_on_connections_of_their_own(
        make_player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    players = [make_player(f"bench{n}", real=100_000) for n in range(4)]
    wallet_ids = [wallet_account(user=p, currency=Currency.REAL).pk for p in players]
    before = LedgerTransaction.objects.count()
    # This process has borrowed from its pool just now; the workers must not share it.
    monkeypatch.setenv("DATABASE_URL", database_url_for_subprocesses())

    result = ledger._run(2, 0.5, wallet_ids)

    assert result["transfers"] > 0
    assert result["refused"] == 0  # 1-100 cents out of $1,000 each: nothing to refuse
    assert 0.5 <= result["seconds"] < 5  # one common window, start-up left out
    assert LedgerTransaction.objects.count() - before == result["transfers"]
    assert ledger_audit().ok
