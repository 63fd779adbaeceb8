"""Worked examples of seating: buy-in, waiting for/posting the big blind, sitting out with
missed blinds, top-ups joining the next hand, leaving during a hand."""
from __future__ import annotations

import pytest

from cashier.audit import ledger_audit
from cashier.models import AccountKind, IdempotencyRecord, LedgerAccount, PendingTopUp
from tables import services
from tables.engine import legal_actions
from tables.models import HandEvent, Seat, SeatStatus
from tests.tables.helpers import live, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def dealt(table) -> list[int]:
    _ts, _hand, state = live(table.pk)
    return sorted(p.seat for p in state.players)


def blinds(table) -> list[tuple[int, str]]:
    _ts, hand, _ = live(table.pk)
    return [(e.payload["seat"], e.payload["kind"]) for e in
            HandEvent.objects.filter(hand=hand, type="posted_blind").order_by("version")]


def seat_of(table, user) -> Seat:
    return Seat.objects.get(table=table, player=user)


def test_sitting_down_buys_in_from_the_wallet(play_table, make_player, sit):
    alice = make_player("alice")
    seat = sit(play_table, alice, 4, 150)
    assert (seat.number, seat.chips, seat.status) == (4, 150, SeatStatus.PLAYING)
    wallet = LedgerAccount.objects.get(kind=AccountKind.WALLET, user=alice)
    assert wallet.balance == 10_000 - 150
    with pytest.raises(services.TableError) as again:
        sit(play_table, alice, 5)
    assert again.value.code == "already_seated"
    with pytest.raises(services.TableError) as taken:
        sit(play_table, make_player("bob"), 4)
    assert taken.value.code == "seat_taken"
    with pytest.raises(services.TableError) as low:
        sit(play_table, make_player("carol"), 5, 10)
    assert low.value.code == "below_min_buy_in"
    assert not Seat.objects.filter(table=play_table, number=5).exists()  # nothing half-done


def test_two_players_time_the_first_hand(play_table, make_player, sit, fake_timers):
    sit(play_table, make_player("alice"), 1)
    assert fake_timers.starts == []
    sit(play_table, make_player("bob"), 2)
    assert [s["table_id"] for s in fake_timers.starts] == [play_table.pk]


def test_newcomer_to_a_running_game_waits_for_the_big_blind(play_table, make_player, sit):
    a, b, c, d = (make_player(n) for n in "abcd")
    sit(play_table, a, 1)
    sit(play_table, b, 2)
    sit(play_table, c, 3)
    services.hand_start(table_id=play_table.pk, force=True)  # button 1, blinds 2 and 3
    sit(play_table, d, 5)  # joins while the hand runs
    assert seat_of(play_table, d).status == SeatStatus.WAITING_BB
    play_out(play_table.pk, passive=True)
    services.hand_start(table_id=play_table.pk, force=True)  # button 2: sb 3, bb would be 5
    assert dealt(play_table) == [1, 2, 3, 5]
    assert blinds(play_table) == [(3, "sb"), (5, "bb")]
    assert seat_of(play_table, d).status == SeatStatus.PLAYING


def test_newcomer_may_post_a_live_big_blind_at_once(play_table, make_player, sit):
    a, b, c, d, e = (make_player(n) for n in "abcde")
    for n, p in enumerate((a, b, c, d), start=1):
        sit(play_table, p, n)
    services.hand_start(table_id=play_table.pk, force=True)  # button 1: blinds 2 and 3
    sit(play_table, e, 6)
    services.post_big_blind_now(table_id=play_table.pk, user_id=e.pk)
    play_out(play_table.pk, passive=True)
    services.hand_start(table_id=play_table.pk, force=True)  # button 2: blinds 3 and 4
    assert dealt(play_table) == [1, 2, 3, 4, 6]
    assert blinds(play_table) == [(3, "sb"), (4, "bb"), (6, "extra_bb")]
    assert not seat_of(play_table, e).post_bb


def test_sitting_out_skips_hands_and_a_missed_blind_is_owed(play_table, make_player, sit):
    a, b, c = (make_player(n) for n in "abc")
    for n, p in enumerate((a, b, c), start=1):
        sit(play_table, p, n)
    services.sit_out(table_id=play_table.pk, user_id=c.pk)
    services.hand_start(table_id=play_table.pk, force=True)  # button 1: seat 3 would be the bb
    assert dealt(play_table) == [1, 2]
    assert seat_of(play_table, c).missed_blinds
    play_out(play_table.pk, passive=True)
    returned = services.sit_in(table_id=play_table.pk, user_id=c.pk)
    assert returned.status == SeatStatus.WAITING_BB
    services.post_big_blind_now(table_id=play_table.pk, user_id=c.pk)
    services.hand_start(table_id=play_table.pk, force=True)
    assert dealt(play_table) == [1, 2, 3]
    assert not seat_of(play_table, c).missed_blinds
    # the button moved to 2, so seat 3 is the small blind now: the engine has it post that blind
    # (an extra big blind is only posted outside the blind positions)
    assert blinds(play_table) == [(3, "sb"), (1, "bb")]


def test_sit_out_twice_and_sit_in_without_sitting_out_are_refused(play_table, make_player, sit):
    a = make_player("a")
    sit(play_table, a, 1)
    with pytest.raises(services.TableError) as e:
        services.sit_in(table_id=play_table.pk, user_id=a.pk)
    assert e.value.code == "not_sitting_out"
    services.sit_out(table_id=play_table.pk, user_id=a.pk)
    with pytest.raises(services.TableError) as e:
        services.sit_out(table_id=play_table.pk, user_id=a.pk)
    assert e.value.code == "already_sitting_out"
    with pytest.raises(services.TableError) as e:
        services.post_big_blind_now(table_id=play_table.pk, user_id=a.pk)
    assert e.value.code == "nothing_owed"


def test_top_up_joins_the_stack_when_the_next_hand_starts(play_table, make_player, sit):
    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1, 100)
    sit(play_table, b, 2, 100)
    services.hand_start(table_id=play_table.pk, force=True)
    services.seat_top_up(table_id=play_table.pk, user_id=a.pk, amount=50, idempotency_key="t1")
    _ts, _hand, state = live(play_table.pk)
    assert state.player(1).start_stack == 100  # table stakes: not in this hand
    play_out(play_table.pk, passive=True)
    before = seat_of(play_table, a).chips
    services.hand_start(table_id=play_table.pk, force=True)
    _ts, _hand, state = live(play_table.pk)
    assert state.player(1).start_stack == before + 50
    assert ledger_audit().ok


def test_a_refused_top_up_changes_nothing_and_its_key_may_be_sent_again(
        play_table, make_player, sit):
    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1, 150)
    sit(play_table, b, 2, 100)
    version = live(play_table.pk)[0].version
    balances = list(LedgerAccount.objects.order_by("pk").values_list("balance", flat=True))

    with pytest.raises(services.TableError) as refused:  # 150 + 60 is above the maximum of 200
        services.seat_top_up(table_id=play_table.pk, user_id=a.pk, amount=60, idempotency_key="t1")

    assert refused.value.code == "above_max_buy_in"
    assert live(play_table.pk)[0].version == version  # no event
    assert list(LedgerAccount.objects.order_by("pk").values_list("balance", flat=True)) == balances
    assert not PendingTopUp.objects.exists() and not IdempotencyRecord.objects.filter(
        key="t1").exists()
    # the same key with an amount that fits is a new request; sent twice, it moves money once
    for _ in range(2):
        assert services.seat_top_up(table_id=play_table.pk, user_id=a.pk, amount=50,
                               idempotency_key="t1") == 50
    assert PendingTopUp.objects.get().amount == 50
    assert live(play_table.pk)[0].version == version + 1  # one `top_up` event
    assert ledger_audit().ok


def test_leaving_during_a_hand_cashes_out_after_it(play_table, make_player, sit):
    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1)
    sit(play_table, b, 2)
    services.hand_start(table_id=play_table.pk, force=True)  # a to act: b leaves before his turn
    assert services.seat_leave(table_id=play_table.pk, user_id=b.pk, idempotency_key="l1") is False
    assert seat_of(play_table, b).leave_after_hand
    play_out(play_table.pk, passive=True)  # b is folded when the action reaches him
    assert not Seat.objects.filter(table=play_table, player=b).exists()
    wallet = LedgerAccount.objects.get(kind=AccountKind.WALLET, user=b)
    left = HandEvent.objects.get(table=play_table, type="seat_left").payload
    assert wallet.balance == 10_000 - 200 + left["cashed_out"]
    assert ledger_audit().ok
    assert services.hand_start(table_id=play_table.pk, force=True) is None  # one player left


def test_leaving_between_hands_is_immediate(play_table, make_player, sit):
    a = make_player("a")
    sit(play_table, a, 1)
    assert services.seat_leave(table_id=play_table.pk, user_id=a.pk, idempotency_key="l2")
    assert LedgerAccount.objects.get(kind=AccountKind.WALLET, user=a).balance == 10_000


def test_a_player_who_chose_to_post_may_wait_for_the_big_blind_after_all(
        play_table, make_player, sit):
    a, b, c, d = (make_player(n) for n in "abcd")
    for n, p in enumerate((a, b, c), start=1):
        sit(play_table, p, n)
    services.hand_start(table_id=play_table.pk, force=True)
    sit(play_table, d, 4)
    services.post_big_blind_now(table_id=play_table.pk, user_id=d.pk)
    seat = services.wait_for_big_blind(table_id=play_table.pk, user_id=d.pk)
    assert (seat.status, seat.post_bb) == (SeatStatus.WAITING_BB, False)
    play_out(play_table.pk, passive=True)
    services.hand_start(table_id=play_table.pk, force=True)  # button 2: blinds 3 and 4
    assert dealt(play_table) == [1, 2, 3, 4]
    assert blinds(play_table) == [(3, "sb"), (4, "bb")]


def test_a_busted_player_sits_out_until_he_tops_up(play_table, make_player, sit):
    a, b = make_player("a"), make_player("b")
    sit(play_table, a, 1, 80)
    sit(play_table, b, 2, 200)
    for _ in range(30):  # both shove every hand until one of them has nothing left
        if services.hand_start(table_id=play_table.pk, force=True) is None:
            break
        while live(play_table.pk)[1].finished_at is None:
            ts, _hand, state = live(play_table.pk)
            la = legal_actions(state)
            services.act(table_id=play_table.pk,
                         user_id=int(state.players[state.to_act].player_id),
                         action="raise" if la.raise_ else "call",
                         amount=la.max_to if la.raise_ else None, expected_version=ts.version)
    loser = Seat.objects.get(table=play_table, chips=0)
    assert loser.status == SeatStatus.SITTING_OUT and loser.sat_out_at is not None
    assert services.hand_start(table_id=play_table.pk, force=True) is None
    services.seat_top_up(table_id=play_table.pk, user_id=loser.player_id, amount=100,
                    idempotency_key="back")
    loser.refresh_from_db()
    assert loser.status == SeatStatus.PLAYING
    assert services.hand_start(table_id=play_table.pk, force=True) is not None
    assert ledger_audit().ok
