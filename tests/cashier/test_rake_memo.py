"""The rake's ledger memo names the hand as players and hand histories know it: the table's own
hand number (Hand.number), not a database id."""
from __future__ import annotations

import pytest

from cashier.models import LedgerTransaction, TransactionKind
from tables.models import Hand
from tests.cashier.seats import buy_in, settle_hand
from tests.tables.played import hand_checked_down, quiet_timers, seat_players  # noqa: F401


def rake_memos() -> list[str]:
    return list(LedgerTransaction.objects.filter(kind=TransactionKind.RAKE)
                .order_by("id").values_list("memo", flat=True))


@pytest.mark.django_db
def test_the_rake_memo_carries_the_given_hand_number(make_player, make_table, seat_at):
    table = make_table()
    ann, bob = make_player("ann", real=10_000), make_player("bob", real=10_000)
    seats = [seat_at(table, ann), seat_at(table, bob)]
    for seat in seats:
        buy_in(seat=seat, amount=5_000, idempotency_key=f"buy-{seat.pk}")

    settle_hand(table=table, hand_id="9041", hand_number=12, rake=50,
                deltas={seats[0].pk: 450, seats[1].pk: -500})

    assert rake_memos() == ["Hand #12"]


@pytest.mark.django_db(transaction=True)
def test_a_raked_hand_played_at_a_table_names_its_hand_number(make_player, make_table,
                                                               quiet_timers):  # noqa: F811
    table = make_table(currency="PLAY", lower_stake=20, rake_percent="5.00", rake_cap=100,
                       hand_pause_seconds=0)
    other = make_table(currency="PLAY")
    Hand.objects.create(table=other, number=1, state={}, version=0, seat_ids={},
                        commitment="0" * 64)  # so that ids and numbers differ at our table
    players = [make_player(name) for name in ("ann", "bob", "cat")]
    seat_players(table, players, amount=2_000)

    first, second = hand_checked_down(table), hand_checked_down(table)

    assert (first.number, second.number) == (1, 2)
    assert (first.pk, second.pk) != (1, 2)
    assert rake_memos() == ["Hand #1", "Hand #2"]  # 5 % of 60 chips = 3 chips each hand
