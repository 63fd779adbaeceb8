"""Worked examples of the seat choices (tables/services/seat_choices.py, seating.py): sit out
next big blind, and waiting for the big blind or posting one at once when sitting down."""
from __future__ import annotations

import pytest

from tables import services
from tables.events import problems
from tables.models import HandEvent, Seat, SeatStatus
from tests.tables.helpers import live, play_out
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db(transaction=True)


def dealt(table) -> list[int]:
    return sorted(p.seat for p in live(table.pk)[2].players)


def blinds(table) -> list[tuple[int, str]]:
    hand = live(table.pk)[1]
    return [(e.payload["seat"], e.payload["kind"]) for e in
            HandEvent.objects.filter(hand=hand, type="posted_blind").order_by("version")]


def seat_of(table, user) -> Seat:
    return Seat.objects.get(table=table, player=user)


def next_hand(table) -> None:
    play_out(table.pk, passive=True)
    services.hand_start(table_id=table.pk, force=True)


@pytest.fixture
def four(play_table, make_player, sit):
    """Four players in seats 1-4, the first hand dealt: button 1, blinds 2 and 3."""
    players = [make_player(n) for n in ("alice", "bob", "carol", "dave")]
    for number, player in enumerate(players, start=1):
        sit(play_table, player, number)
    services.hand_start(table_id=play_table.pk, force=True)
    return players


def test_sit_out_next_big_blind_plays_on_until_the_big_blind_comes(play_table, four):
    alice = four[0]
    seat = services.sit_out_next_bb(table_id=play_table.pk, user_id=alice.pk, on=True)
    assert seat.sit_out_next_bb and seat.status == SeatStatus.PLAYING
    status = HandEvent.objects.filter(table=play_table, type="status").latest("version").payload
    assert status["sit_out_next_bb"] is True and problems({**status}) == []
    next_hand(play_table)  # button 2: blinds 3 and 4 — Alice plays on
    assert dealt(play_table) == [1, 2, 3, 4] and blinds(play_table) == [(3, "sb"), (4, "bb")]
    next_hand(play_table)  # button 3: the big blind would be Alice's — she sits out instead
    assert dealt(play_table) == [2, 3, 4]
    assert blinds(play_table) == [(4, "sb"), (2, "bb")]
    seat = seat_of(play_table, alice)
    assert (seat.status, seat.missed_blinds, seat.sit_out_next_bb) == (
        SeatStatus.SITTING_OUT, True, False)
    back = services.sit_in(table_id=play_table.pk, user_id=alice.pk)
    assert back.status == SeatStatus.WAITING_BB  # the big blind she skipped is owed


def test_sit_out_next_big_blind_may_be_taken_back(play_table, four):
    alice = four[0]
    services.sit_out_next_bb(table_id=play_table.pk, user_id=alice.pk, on=True)
    services.sit_out_next_bb(table_id=play_table.pk, user_id=alice.pk, on=False)
    next_hand(play_table)
    next_hand(play_table)  # button 3: Alice posts her big blind
    assert dealt(play_table) == [1, 2, 3, 4] and blinds(play_table) == [(4, "sb"), (1, "bb")]


def test_heads_up_the_big_blind_who_sits_out_leaves_no_hand(play_table, make_player, sit):
    alice, bob = make_player("alice"), make_player("bob")
    sit(play_table, alice, 1)
    sit(play_table, bob, 2)
    services.hand_start(table_id=play_table.pk, force=True)  # button 1 (small blind), bob bb
    services.sit_out_next_bb(table_id=play_table.pk, user_id=alice.pk, on=True)
    play_out(play_table.pk, passive=True)
    assert services.hand_start(table_id=play_table.pk, force=True) is None
    assert seat_of(play_table, alice).status == SeatStatus.SITTING_OUT


def test_sit_out_next_big_blind_is_refused_when_there_is_none_to_sit_out(
        play_table, make_player, sit, four, make_table):
    bob, eve = four[1], make_player("eve")
    services.sit_out(table_id=play_table.pk, user_id=bob.pk)
    sit(play_table, eve, 5)  # joins the running game: waits for the big blind
    for user in (bob, eve):
        with pytest.raises(services.TableError) as refused:
            services.sit_out_next_bb(table_id=play_table.pk, user_id=user.pk, on=True)
        assert refused.value.code == "not_playing"
    assert services.sit_out_next_bb(table_id=play_table.pk, user_id=bob.pk, on=False)
    with pytest.raises(services.TableError) as stranger:
        services.sit_out_next_bb(table_id=play_table.pk, user_id=make_player("zed").pk, on=True)
    assert stranger.value.code == "not_seated"
    tournament_table = make_table(name="Final", tournament=tournament_make())
    with pytest.raises(services.TableError) as refused:
        services.sit_out_next_bb(table_id=tournament_table.pk, user_id=bob.pk, on=True)
    assert refused.value.code == "tournament_table"


def test_sitting_down_waits_for_the_big_blind_unless_he_posts_now(
        play_table, make_player, sit, four):
    eve, fred = make_player("eve"), make_player("fred")
    services.seat_take(table_id=play_table.pk, user=eve, number=5, amount=200,
                       idempotency_key="sit-eve")  # the default: wait for the big blind
    seat = services.seat_take(table_id=play_table.pk, user=fred, number=6, amount=200,
                              idempotency_key="sit-fred", post_bb=True)
    assert (seat_of(play_table, eve).status, seat_of(play_table, eve).post_bb) == (
        SeatStatus.WAITING_BB, False)
    assert (seat.status, seat.post_bb) == (SeatStatus.PLAYING, True)
    status = HandEvent.objects.filter(table=play_table, type="status").latest("version").payload
    assert (status["seat"], status["post_bb"]) == (6, True)
    next_hand(play_table)  # button 2: blinds 3 and 4, Fred's extra big blind; Eve waits
    assert dealt(play_table) == [1, 2, 3, 4, 6]
    assert blinds(play_table) == [(3, "sb"), (4, "bb"), (6, "extra_bb")]


def test_posting_now_at_a_table_not_yet_playing_owes_nothing(play_table, make_player):
    alice = make_player("alice")
    seat = services.seat_take(table_id=play_table.pk, user=alice, number=1, amount=200,
                              idempotency_key="sit-alice", post_bb=True)
    assert (seat.status, seat.post_bb) == (SeatStatus.PLAYING, False)
