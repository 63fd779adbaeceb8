"""Worked examples of the UTG straddle at a table that allows it (tables/services/showing.py
`seat_straddle`, tables/services/starting.py): the seat's choice waits for the next hand, the
player under the gun posts two big blinds, and the others act first."""
from __future__ import annotations

import pytest

from tables import services
from tables.models import HandEvent, Seat
from tests.tables.helpers import live, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def four_handed(make_table, make_player, sit):
    """NL 1/2 with straddles allowed; seats 1-4 sat in order: button 1, blinds 2 and 3, and
    seat 4 under the gun in the first hand."""
    table = make_table(name="Oak", structure="NL", lower_stake=2, max_seats=6,
                       straddle_allowed=True, hand_pause_seconds=30)
    players = [make_player(name) for name in ("ann", "ben", "cat", "dan")]
    for number, user in enumerate(players, start=1):
        sit(table, user, number)
    return table, players


def blinds(hand) -> list[tuple[int, str, int]]:
    return [(e.payload["seat"], e.payload["kind"], e.payload["amount"])
            for e in HandEvent.objects.filter(hand=hand, type="posted_blind").order_by("version")]


def test_the_player_under_the_gun_straddles_and_acts_last_preflop(four_handed):
    table, (ann, ben, cat, dan) = four_handed
    services.seat_straddle(table_id=table.pk, user_id=dan.pk, on=True)
    services.hand_start(table_id=table.pk, force=True)
    _ts, hand, state = live(table.pk)
    assert blinds(hand) == [(2, "sb", 1), (3, "bb", 2), (4, "straddle", 4)]
    assert to_act_user(table.pk) == ann.pk  # left of the straddler
    for user in (ann, ben, cat):
        services.act(table_id=table.pk, user_id=user.pk, action="call")
    assert to_act_user(table.pk) == dan.pk  # the straddler's option
    _ts, _hand, state = live(table.pk)
    assert state.street_name == "preflop" and state.pot_total == 16


def test_the_choice_waits_for_the_next_hand_and_is_private(four_handed):
    table, (_ann, _ben, _cat, dan) = four_handed
    services.hand_start(table_id=table.pk, force=True)
    version = live(table.pk)[0].version
    services.seat_straddle(table_id=table.pk, user_id=dan.pk, on=True)
    assert live(table.pk)[0].version == version  # nothing recorded, nothing broadcast
    assert Seat.objects.get(player=dan).straddle
    assert "straddle" not in [kind for _s, kind, _a in blinds(live(table.pk)[1])]


def test_refused_where_the_table_has_no_straddle_or_the_player_no_seat(
        make_table, make_player, sit, four_handed):
    table, _players = four_handed
    with pytest.raises(services.TableError) as refused:
        services.seat_straddle(table_id=table.pk, user_id=make_player("eve").pk, on=True)
    assert refused.value.code == "not_seated"
    plain = make_table(name="Pine", structure="NL", lower_stake=2, max_seats=6)
    fay = make_player("fay")
    sit(plain, fay, 1)
    with pytest.raises(services.TableError) as refused:
        services.seat_straddle(table_id=plain.pk, user_id=fay.pk, on=True)
    assert refused.value.code == "no_straddle"
    services.seat_straddle(table_id=plain.pk, user_id=fay.pk, on=False)  # turning off is fine


def test_a_seat_that_chose_to_straddle_posts_nothing_extra_once_the_table_stops_allowing_it(
        four_handed):
    table, (_ann, _ben, _cat, dan) = four_handed
    services.seat_straddle(table_id=table.pk, user_id=dan.pk, on=True)
    table.straddle_allowed = False
    table.save()
    services.hand_start(table_id=table.pk, force=True)
    assert [kind for _s, kind, _a in blinds(live(table.pk)[1])] == ["sb", "bb"]
