"""Races on PostgreSQL, real threads and row locks: the tournament row serialises every
registration of one tournament, so a Sit & Go never seats more than its cap and a request
sent twice at once pays once. While the main thread holds the tournament row, the racers are
seen waiting on it, then released together."""
from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from cashier.audit import ledger_audit
from cashier.money import Currency
from cashier.services import pool_account, wallet_account
from tables.errors import TableError
from tables.services.locks import tournament_lock
from tables.tournaments.models import Entry, EntryState
from tables.tournaments.services import tournament_register
from tests.conftest import backend_pid, until_waiting_on_a_lock
from tests.tables.tournaments.factories import tournament_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def race(tournament_id: int, calls: list[Callable[[], object]]) -> list[object]:
    """Run `calls` in threads while this thread holds the tournament row; release it once
    every thread waits on it. Returns each call's result or the TableError it raised."""
    results: list[object] = [None] * len(calls)
    pids: list[int] = []

    def run(n: int) -> None:
        try:
            pids.append(backend_pid())
            results[n] = calls[n]()
        except TableError as error:
            results[n] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    with transaction.atomic():
        tournament_lock(tournament_id)
        for thread in threads:
            thread.start()
        until_waiting_on_a_lock(pids, count=len(calls))
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_players_racing_for_the_last_seat_of_a_sit_and_go_one_gets_it(make_player):
    heads_up = tournament_make(entries_cap=2, seats_per_table=2, payouts=[(1, 2, [10_000])])
    tournament_register(tournament_id=heads_up.pk, user=make_player("ann"), key="ann")
    racers = [make_player(f"racer{n}") for n in range(4)]

    results = race(heads_up.pk, [
        (lambda user=user: tournament_register(tournament_id=heads_up.pk, user=user,
                                               key=f"k-{user.pk}")) for user in racers])

    winners = [r for r in results if isinstance(r, Entry)]
    assert len(winners) == 1
    # Each loser is refused: full, or — once the winner's commit has started it — closed.
    refusals = [r.code for r in results if isinstance(r, TableError)]
    assert len(refusals) == 3
    assert set(refusals) <= {"tournament_full", "registration_closed"}
    # The last seat filled: the Sit & Go started (after the winner's commit), both playing.
    assert Entry.objects.filter(tournament=heads_up, state=EntryState.PLAYING).count() == 2
    assert pool_account(tournament_id=heads_up.pk, currency=Currency.PLAY).balance == 2_000
    assert sorted(wallet_account(user=u, currency=Currency.PLAY).balance for u in racers) == [
        8_900, 10_000, 10_000, 10_000]
    assert ledger_audit().ok


def test_one_request_sent_four_times_at_once_registers_and_pays_once(make_player):
    event = tournament_make()
    ann = make_player("ann")

    results = race(event.pk, [
        lambda: tournament_register(tournament_id=event.pk, user=ann, key="once")] * 4)

    assert len({r.pk for r in results}) == 1
    assert wallet_account(user=ann, currency=Currency.PLAY).balance == 8_900
    assert ledger_audit().ok
