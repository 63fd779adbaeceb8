"""Worked examples of waiting lists: join and leave, the order, a seat offered to the first
candidate and held for him, offers lapsing to the next, PokerStars' active-waiting-list rule."""
from __future__ import annotations

import datetime
import uuid

import pytest
from django.utils import timezone

from tables import services
from tables.models import Seat, SeatStatus, WaitingListEntry
from tables.services import waitlist
from tables.services.sweeps import sit_outs_expire

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def expiry_tasks(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """Records the expiry tasks the service would queue in Celery (on commit)."""
    queued: list[dict] = []
    monkeypatch.setattr(waitlist, "offer_expire_schedule", lambda **kw: queued.append(kw))
    return queued


@pytest.fixture
def full_table(make_table, make_player, sit, expiry_tasks):
    """A heads-up table, both seats taken by `alice` (1) and `bob` (2)."""
    table = make_table(name="Duel", lower_stake=2, max_seats=2, hand_pause_seconds=0)
    alice, bob = make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 2)
    table.alice, table.bob = alice, bob
    return table


def leave(table, user) -> None:
    services.seat_leave(table_id=table.pk, user_id=user.pk, idempotency_key=uuid.uuid4().hex)


def order(table) -> list[str]:
    return [e.player.username for e in WaitingListEntry.objects.filter(table=table)
            .select_related("player").order_by("joined_at", "pk")]


def offer_of(table, user) -> tuple[int | None, datetime.datetime | None]:
    entry = WaitingListEntry.objects.get(table=table, player=user)
    return entry.offered_seat, entry.offer_expires_at


def test_players_join_a_full_table_in_order_and_may_leave(full_table, make_player):
    carol, dave, erin = (make_player(n) for n in ("carol", "dave", "erin"))
    for p in (carol, dave, erin):
        waitlist.waitlist_join(table_id=full_table.pk, user=p)

    assert order(full_table) == ["carol", "dave", "erin"]
    status = waitlist.waitlist_status(table_id=full_table.pk, user_id=dave.pk)
    assert (status.waiting, status.position, status.length) == (True, 2, 3)

    waitlist.waitlist_leave(table_id=full_table.pk, user_id=dave.pk)
    assert order(full_table) == ["carol", "erin"]
    assert waitlist.waitlist_status(table_id=full_table.pk, user_id=erin.pk).position == 2


def test_joining_is_refused_with_a_reason(full_table, make_table, make_player):
    carol = make_player("carol")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    refusals = {
        "already_waiting": lambda: waitlist.waitlist_join(table_id=full_table.pk, user=carol),
        "already_seated": lambda: waitlist.waitlist_join(table_id=full_table.pk,
                                                         user=full_table.alice),
        "table_not_full": lambda: waitlist.waitlist_join(
            table_id=make_table(name="Empty").pk, user=carol),
        "not_waiting": lambda: waitlist.waitlist_leave(table_id=full_table.pk,
                                                       user_id=full_table.bob.pk),
    }
    for code, call in refusals.items():
        with pytest.raises(services.TableError) as refused:
            call()
        assert refused.value.code == code
    assert order(full_table) == ["carol"]


def test_an_opened_seat_is_offered_to_the_first_and_held_for_him(full_table, make_player, sit,
                                                                   expiry_tasks):
    carol, dave, intruder = make_player("carol"), make_player("dave"), make_player("intruder")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)

    before = timezone.now()
    leave(full_table, full_table.alice)

    seat, expires = offer_of(full_table, carol)
    assert seat == 1
    assert before + datetime.timedelta(seconds=59) < expires <= timezone.now() + datetime.timedelta(seconds=60)
    assert offer_of(full_table, dave) == (None, None)
    assert expiry_tasks == [{"table_id": full_table.pk, "at": expires}]  # queued on commit

    with pytest.raises(services.TableError) as refused:
        sit(full_table, intruder, 1)
    assert refused.value.code == "seat_reserved"
    assert "held for a player from the waiting list" in refused.value.message
    with pytest.raises(services.TableError) as not_his_either:
        sit(full_table, dave, 1)
    assert not_his_either.value.code == "seat_reserved"

    sit(full_table, carol, 1)  # the normal buy-in, in the held seat
    assert Seat.objects.get(table=full_table, number=1).player == carol
    assert order(full_table) == ["dave"]  # carol left the list when she sat down


def test_a_failed_buy_in_keeps_the_offer(full_table, make_player, sit):
    carol = make_player("carol")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    leave(full_table, full_table.alice)

    with pytest.raises(services.TableError) as low:
        sit(full_table, carol, 1, 10)
    assert low.value.code == "below_min_buy_in"
    assert offer_of(full_table, carol)[0] == 1  # nothing half-applied


def test_a_lapsed_offer_moves_to_the_next_player(full_table, make_player, sit):
    carol, dave, intruder = make_player("carol"), make_player("dave"), make_player("intruder")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    leave(full_table, full_table.alice)
    _, expires = offer_of(full_table, carol)

    assert waitlist.offers_expire(table_id=full_table.pk, now=expires - datetime.timedelta(seconds=1)) == 0
    assert offer_of(full_table, carol)[0] == 1  # an early (or duplicate) task does nothing

    assert waitlist.offers_expire(table_id=full_table.pk, now=expires) == 1
    assert order(full_table) == ["dave"]  # carol let her offer lapse: off the list
    assert offer_of(full_table, dave)[0] == 1
    with pytest.raises(services.TableError) as refused:
        sit(full_table, intruder, 1)
    assert refused.value.code == "seat_reserved"


def test_a_lapsed_offer_is_noticed_on_read_without_the_task(full_table, make_player, sit):
    """A lost expiry task (restart, flushed Redis) never stalls the list: any read moves it."""
    carol, dave, intruder = make_player("carol"), make_player("dave"), make_player("intruder")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    leave(full_table, full_table.alice)
    WaitingListEntry.objects.filter(player=carol).update(
        offer_expires_at=timezone.now() - datetime.timedelta(seconds=1))

    status = waitlist.waitlist_status(table_id=full_table.pk, user_id=dave.pk)

    assert (status.offered_seat, status.position) == (1, 1)
    assert 55 <= status.offer_seconds_left <= 60
    # and taking a seat checks too: once dave's offer lapses as well, the seat is free
    WaitingListEntry.objects.filter(player=dave).update(
        offer_expires_at=timezone.now() - datetime.timedelta(seconds=1))
    sit(full_table, intruder, 1)
    assert order(full_table) == []


def test_declining_passes_the_seat_on(full_table, make_player):
    carol, dave = make_player("carol"), make_player("dave")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    leave(full_table, full_table.alice)

    waitlist.waitlist_leave(table_id=full_table.pk, user_id=carol.pk)

    assert offer_of(full_table, dave)[0] == 1


def test_seats_opened_by_the_sit_out_sweep_and_after_a_hand_are_offered(full_table, make_player):
    carol = make_player("carol")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    seat = Seat.objects.get(table=full_table, player=full_table.bob)
    Seat.objects.filter(pk=seat.pk).update(
        status=SeatStatus.SITTING_OUT, sat_out_at=timezone.now() - datetime.timedelta(hours=1))

    assert sit_outs_expire(table_id=full_table.pk) == 1

    assert offer_of(full_table, carol)[0] == 2


def test_a_player_leaving_after_the_hand_opens_his_seat_when_it_ends(full_table, make_player):
    from tests.tables.helpers import play_out

    carol = make_player("carol")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    services.hand_start(table_id=full_table.pk, force=True)  # alice to act
    leave(full_table, full_table.bob)  # in the hand, not on his turn: leaves when it ends
    assert offer_of(full_table, carol) == (None, None)

    play_out(full_table.pk, passive=True)

    assert offer_of(full_table, carol)[0] == 2


@pytest.fixture
def twin_table(make_table):
    """Another table of the same game and stakes as `full_table`."""
    return make_table(name="Duel 2", lower_stake=2, max_seats=6)


def test_players_active_at_the_same_stakes_go_first(full_table, twin_table, make_player, sit):
    """PokerStars' active waiting list: a player seated (and not sitting out) at another table
    of the same game and stakes is offered the seat before those who are not playing."""
    carol, dave = make_player("carol"), make_player("dave")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)  # first, but not playing
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    sit(twin_table, dave, 1)  # dave plays at the same stakes meanwhile

    assert [e.player for e in waitlist.candidates(full_table)] == [dave, carol]
    leave(full_table, full_table.alice)

    assert offer_of(full_table, dave)[0] == 1
    assert offer_of(full_table, carol) == (None, None)  # still on the list, next in line


def test_sitting_out_or_other_stakes_do_not_count_as_active(full_table, twin_table, make_table,
                                                            make_player, sit):
    carol, dave, erin = make_player("carol"), make_player("dave"), make_player("erin")
    for p in (carol, dave, erin):
        waitlist.waitlist_join(table_id=full_table.pk, user=p)
    sit(twin_table, dave, 1)
    services.sit_out(table_id=twin_table.pk, user_id=dave.pk)
    sit(make_table(name="Bigger", lower_stake=4), erin, 1)

    assert [e.player for e in waitlist.candidates(full_table)] == [carol, dave, erin]


def test_first_come_first_served_when_the_active_rule_is_off(full_table, twin_table, make_player,
                                                            sit, settings):
    settings.WAITLIST_ACTIVE_FIRST = False
    carol, dave = make_player("carol"), make_player("dave")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    sit(twin_table, dave, 1)

    leave(full_table, full_table.alice)

    assert offer_of(full_table, carol)[0] == 1


def test_the_offer_time_is_a_setting(full_table, make_player, settings):
    settings.WAITLIST_OFFER_SECONDS = 5
    carol = make_player("carol")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)

    leave(full_table, full_table.alice)

    assert 0 < waitlist.waitlist_status(table_id=full_table.pk, user_id=carol.pk).offer_seconds_left <= 5


def test_the_state_lives_in_the_database_only(full_table, make_player):
    """What a restarted process sees: rows. A fresh read after the offer's end moves the list
    on from those rows alone (nothing was kept in memory by the process that made the offer)."""
    carol, dave = make_player("carol"), make_player("dave")
    waitlist.waitlist_join(table_id=full_table.pk, user=carol)
    waitlist.waitlist_join(table_id=full_table.pk, user=dave)
    leave(full_table, full_table.alice)
    rows = list(WaitingListEntry.objects.order_by("pk").values_list(
        "player__username", "offered_seat"))
    assert rows == [("carol", 1), ("dave", None)]
    _, expires = offer_of(full_table, carol)

    later = expires + datetime.timedelta(seconds=5)
    status = waitlist.waitlist_status(table_id=full_table.pk, user_id=dave.pk, now=later)

    assert (status.waiting, status.position, status.offered_seat) == (True, 1, 1)
