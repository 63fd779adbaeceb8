"""Worked examples of automatic top-ups and rebuys: standing orders carried out between hands
through the cashier, like a top-up the player asked for."""
from __future__ import annotations

import pytest
from django.db import transaction

from cashier.audit import ledger_audit
from cashier.models import AccountKind, LedgerAccount, PendingTopUp, TopUpStatus
from tables import services
from tables.engine import legal_actions
from tables.models import AutoTopUp, Seat, SeatStatus
from tables.services.auto_topup import auto_top_up_set, auto_top_ups_request
from tables.services.locks import table_lock
from tests.cashier.seats import apply_top_ups
from tests.tables.helpers import live

pytestmark = pytest.mark.django_db(transaction=True)


def request(table) -> list[dict]:
    """What `hand_start` does: under the table lock, before `apply_top_ups`."""
    with transaction.atomic():
        table_lock(table.pk)
        return auto_top_ups_request(table=table)


def pending(seat: Seat) -> list[int]:
    return list(PendingTopUp.objects.filter(seat=seat, status=TopUpStatus.PENDING)
                .values_list("amount", flat=True))


def wallet(user) -> int:
    return LedgerAccount.objects.get(kind=AccountKind.WALLET, user=user).balance


def test_to_the_maximum_tops_up_what_is_missing_once(play_table, make_player, sit):
    alice = make_player("alice")
    seat = sit(play_table, alice, 1, 150)  # the maximum is 200
    auto_top_up_set(table=play_table, user_id=alice.pk, mode="max")
    events = request(play_table)
    assert events == [{"type": "top_up", "seat": 1, "amount": 50, "pending": True}]
    assert pending(seat) == [50]
    assert wallet(alice) == 10_000 - 200
    assert request(play_table) == []  # the pending 50 already fills the stack
    apply_top_ups(table=play_table)
    seat.refresh_from_db()
    assert seat.chips == 200
    assert request(play_table) == []
    assert ledger_audit().ok


def test_below_a_threshold_waits_until_the_stack_is_short(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    rich = sit(play_table, alice, 1, 120)  # 60 big blinds
    short = sit(play_table, bob, 2, 90)  # 45 big blinds
    for user in (alice, bob):
        auto_top_up_set(table=play_table, user_id=user.pk, mode="below", threshold_bb=50)
    assert request(play_table) == [{"type": "top_up", "seat": 2, "amount": 110, "pending": True}]
    assert pending(rich) == [] and pending(short) == [110]


def test_a_short_wallet_buys_what_it_holds_and_no_wallet_nothing(
        make_table, make_player, make_user, sit):
    big = make_table(name="Big", lower_stake=100)  # buy-in 4,000 to 10,000
    other = make_table(name="Other", lower_stake=100)
    alice = make_player("alice")
    sit(other, alice, 1, 4_000)
    seat = sit(big, alice, 1, 5_000)
    assert wallet(alice) == 1_000
    auto_top_up_set(table=big, user_id=alice.pk, mode="max")
    broke = make_user("broke")  # never got the grant: no wallet at all
    sit_broke = Seat.objects.create(table=big, player=broke, number=2, chips=0)
    AutoTopUp.objects.create(table=big, player=broke, mode="max")
    assert request(big) == [{"type": "top_up", "seat": 1, "amount": 1_000, "pending": True}]
    assert pending(seat) == [1_000] and pending(sit_broke) == []
    assert wallet(alice) == 0


def test_leavers_and_players_sitting_out_with_chips_are_left_alone(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1, 100)
    sit(play_table, bob, 2, 100)
    services.sit_out(table_id=play_table.pk, user_id=alice.pk)
    Seat.objects.filter(player=bob).update(leave_after_hand=True)
    for user in (alice, bob):
        auto_top_up_set(table=play_table, user_id=user.pk, mode="max")
    assert request(play_table) == []


def bust_someone(table) -> Seat:
    """Both shove every hand until one of them has nothing left; returns the loser's seat."""
    for _ in range(30):
        if services.hand_start(table_id=table.pk, force=True) is None:
            break
        while live(table.pk)[1].finished_at is None:
            ts, _hand, state = live(table.pk)
            la = legal_actions(state)
            services.act(table_id=table.pk, user_id=int(state.players[state.to_act].player_id),
                         action="raise" if la.raise_ else "call",
                         amount=la.max_to if la.raise_ else None, expected_version=ts.version)
    return Seat.objects.get(table=table, chips=0)


def test_a_busted_player_with_an_order_rebuys_and_is_dealt_in(play_table, make_player, sit):
    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1, 80)
    sit(play_table, b, 2, 200)
    loser = bust_someone(play_table)
    assert loser.status == SeatStatus.SITTING_OUT
    # His order, placed once he is out (hand_start would carry it out during the contest):
    auto_top_up_set(table=play_table, user_id=loser.player_id, mode="below", threshold_bb=10)

    events = request(play_table)
    assert events == [
        {"type": "top_up", "seat": loser.number, "amount": 200, "pending": True},
        {"type": "status", "seat": loser.number, "status": "playing", "post_bb": False,
         "missed_blinds": False, "sit_out_next_bb": False},
    ]
    hand = services.hand_start(table_id=play_table.pk, force=True)
    assert hand is not None and str(loser.number) in hand.seat_ids
    loser.refresh_from_db()
    assert loser.status == SeatStatus.PLAYING
    assert ledger_audit().ok


def test_a_rebuy_needs_the_minimum_buy_in(play_table, make_table, make_player, sit):
    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1, 80)
    sit(play_table, b, 2, 200)
    loser = bust_someone(play_table)
    # He takes all but 79 chips to another table: one less than the minimum buy-in here.
    elsewhere = make_table(name="Elsewhere", lower_stake=100)
    sit(elsewhere, loser.player, 1, wallet(loser.player) - 79)
    auto_top_up_set(table=play_table, user_id=loser.player_id, mode="max")
    assert request(play_table) == []
    loser.refresh_from_db()
    assert loser.status == SeatStatus.SITTING_OUT
    assert wallet(loser.player) == 79


@pytest.mark.parametrize(("mode", "threshold", "code"), [
    ("sometimes", 0, "bad_mode"), ("below", 0, "bad_threshold"), ("below", 101, "bad_threshold"),
])
def test_an_order_must_make_sense(play_table, make_player, mode, threshold, code):
    alice = make_player("alice")
    with pytest.raises(services.TableError) as refused:
        auto_top_up_set(table=play_table, user_id=alice.pk, mode=mode, threshold_bb=threshold)
    assert refused.value.code == code
    assert not AutoTopUp.objects.exists()


def test_an_order_is_replaced_and_switched_off(play_table, make_player):
    alice = make_player("alice")
    auto_top_up_set(table=play_table, user_id=alice.pk, mode="below", threshold_bb=30)
    auto_top_up_set(table=play_table, user_id=alice.pk, mode="max", threshold_bb=30)
    order = AutoTopUp.objects.get()
    assert (order.mode, order.threshold_bb) == ("max", 0)
    assert auto_top_up_set(table=play_table, user_id=alice.pk, mode="off") is None
    assert not AutoTopUp.objects.exists()


def test_hand_start_carries_out_the_orders_before_dealing(play_table, make_player, sit):
    from tables.models import HandEvent

    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1, 80)
    sit(play_table, b, 2, 200)
    loser = bust_someone(play_table)
    auto_top_up_set(table=play_table, user_id=loser.player_id, mode="max")
    hand = services.hand_start(table_id=play_table.pk, force=True)
    assert hand is not None and str(loser.number) in hand.seat_ids
    _ts, _hand, state = live(play_table.pk)
    assert {p.seat: p.start_stack for p in state.players}[loser.number] == 200
    # The table's log: the order's top-up, the busted player back in play, the new stacks,
    # then the deal.
    types = list(HandEvent.objects.filter(table=play_table).order_by("version")
                 .values_list("type", flat=True))
    start = len(types) - 1 - types[::-1].index("hand_start")
    assert types[start - 3:start] == ["top_up", "status", "stacks"]
    assert ledger_audit().ok
