"""Worked examples of showing by choice: "always show" at the automatic showdown, and showing
one's cards in the pause after a hand (tables/services/showing.py)."""
from __future__ import annotations

import pytest
from django.utils import timezone

from tables import services
from tables.engine import HandState
from tables.histories.record import load_record
from tables.models import Hand, HandEvent, Seat, TableState
from tests.tables.helpers import live, play_out, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def paused_table(make_table):
    """Heads-up no-limit 1/2 with a 30 s pause between hands: the window for showing."""
    return make_table(name="Elm", structure="NL", lower_stake=2, max_seats=6,
                      hand_pause_seconds=30)


def test_players_who_always_show_are_shown_when_they_lose(paused_table, make_player, sit):
    """Both players chose "always show": the checked-down hand ends with both hands face up,
    none mucked, and the pot goes to the better one as usual."""
    ann, ben = make_player("ann"), make_player("ben")
    sit(paused_table, ann, 1)
    sit(paused_table, ben, 2)
    for user in (ann, ben):
        services.seat_always_show(table_id=paused_table.pk, user_id=user.pk, on=True)
    services.hand_start(table_id=paused_table.pk, force=True)
    play_out(paused_table.pk, passive=True)
    _ts, hand, state = live(paused_table.pk)
    assert hand.finished_at is not None
    assert all(p.shown and not p.mucked for p in state.players)
    kinds = list(HandEvent.objects.filter(hand=hand).values_list("type", flat=True))
    assert kinds.count("shown") == 2 and "mucked" not in kinds


def test_the_choice_is_private_and_applies_from_the_next_hand(paused_table, make_player, sit):
    ann, ben = make_player("ann"), make_player("ben")
    sit(paused_table, ann, 1)
    sit(paused_table, ben, 2)
    services.hand_start(table_id=paused_table.pk, force=True)
    version = live(paused_table.pk)[0].version
    services.seat_always_show(table_id=paused_table.pk, user_id=ann.pk, on=True)
    assert live(paused_table.pk)[0].version == version  # nothing recorded, nothing broadcast
    assert Seat.objects.get(player=ann).always_show
    state = live(paused_table.pk)[2]
    assert not any(p.always_show for p in state.players)  # this hand keeps what it was dealt
    with pytest.raises(services.TableError) as refused:
        services.seat_always_show(table_id=paused_table.pk, user_id=make_player("cat").pk, on=True)
    assert refused.value.code == "not_seated"


def test_a_player_who_folded_shows_his_cards_in_the_pause(paused_table, make_player, sit):
    """The button folds preflop; in the pause before the next hand he turns his cards up:
    everybody gets a `shown` event and the hand's history shows them. Once is enough."""
    ann, ben = make_player("ann"), make_player("ben")
    sit(paused_table, ann, 1)
    sit(paused_table, ben, 2)
    services.hand_start(table_id=paused_table.pk, force=True)
    folder = to_act_user(paused_table.pk)
    ts, hand, _state = live(paused_table.pk)
    services.act(table_id=paused_table.pk, user_id=folder, action="fold",
                 expected_version=ts.version)
    recorded = services.hand_show(table_id=paused_table.pk, user_id=folder)
    state = HandState.from_json(Hand.objects.get(pk=hand.pk).state)
    mine = next(p for p in state.players if p.player_id == str(folder))
    assert recorded == [{"type": "shown", "seat": mine.seat, "cards": mine.hole}]
    last = HandEvent.objects.filter(table=paused_table).latest("version")
    assert (last.type, last.hand_id, last.payload) == ("shown", hand.pk, recorded[0])
    assert mine.shown and mine.folded
    other = next(p for p in state.players if p.player_id != str(folder))
    record = load_record(Hand.objects.get(pk=hand.pk))
    assert record.visible_cards(mine.seat, viewer_seat=other.seat) == mine.hole
    with pytest.raises(services.TableError) as again:
        services.hand_show(table_id=paused_table.pk, user_id=folder)
    assert again.value.code == "already_shown"


def test_showing_ends_when_the_next_hand_starts(paused_table, make_player, sit):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    sit(paused_table, ann, 1)
    sit(paused_table, ben, 2)
    services.hand_start(table_id=paused_table.pk, force=True)
    play_out(paused_table.pk, passive=True)
    with pytest.raises(services.TableError) as stranger:
        services.hand_show(table_id=paused_table.pk, user_id=cat.pk)
    assert stranger.value.code == "not_in_hand"
    services.hand_start(table_id=paused_table.pk, force=True)  # the pause cut short
    with pytest.raises(services.TableError) as running:
        services.hand_show(table_id=paused_table.pk, user_id=ann.pk)
    assert running.value.code == "not_at_showdown"
    play_out(paused_table.pk, passive=True)
    TableState.objects.filter(pk=paused_table.pk).update(next_hand_at=timezone.now())
    with pytest.raises(services.TableError) as over:  # the pause ran out
        services.hand_show(table_id=paused_table.pk, user_id=ann.pk)
    assert over.value.code == "too_late"


def test_before_any_hand_there_is_nothing_to_show(paused_table, make_player, sit):
    ann = make_player("ann")
    sit(paused_table, ann, 1)
    with pytest.raises(services.TableError) as refused:
        services.hand_show(table_id=paused_table.pk, user_id=ann.pk)
    assert refused.value.code == "no_hand"
