"""Worked examples of the player statistics kept as hands end (tables/services/hand_stats.py):
a real hand's public actions counted once for every pair of players dealt in and for the
spectators who watched it whole, never for anyone else, and a redelivered task adding
nothing."""
from __future__ import annotations

import pytest
from django.utils import timezone

from tables import services, tasks
from tables.groups import sync_client
from tables.models import Hand, HandStatsCounted, PlayerStats, TablePresence
from tables.services import presence
from tables.services.hand_stats import hand_stats_count, stats_of
from tests.tables.helpers import live, play_out, sql_sent, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)


def act(table_id: int, action: str, amount: int | None = None) -> int:
    """The player to act does `action`; returns his id."""
    user_id = to_act_user(table_id)
    assert user_id is not None
    ts, _hand, _state = live(table_id)
    services.act(table_id=table_id, user_id=user_id, action=action, amount=amount,
                 expected_version=ts.version)
    return user_id


def finished(table_id: int) -> Hand:
    _ts, hand, _state = live(table_id)
    assert hand is not None and hand.finished_at is not None
    return hand


def test_a_raise_everyone_folds_to_is_counted_for_every_pair_dealt_in(
        play_table, make_player, sit, fake_timers):
    ann, ben, cy = make_player("ann"), make_player("ben"), make_player("cy")
    for number, user in enumerate((ann, ben, cy), start=1):
        sit(play_table, user, number)
    services.hand_start(table_id=play_table.pk, force=True)
    raiser = act(play_table.pk, "raise", 6)  # the open (first to act: the button, 3-handed)
    folders = [act(play_table.pk, "fold"), act(play_table.pk, "fold")]
    hand = finished(play_table.pk)
    assert fake_timers.stats == [{"hand_id": hand.pk}]  # queued on the commit, not counted yet
    assert not PlayerStats.objects.exists()

    assert hand_stats_count(hand_id=hand.pk) is True

    assert PlayerStats.objects.count() == 9  # 3 viewers x 3 subjects, one's own included
    for viewer in (ann, ben, cy):
        seen = stats_of(viewer_id=viewer.pk, subject_id=raiser)
        assert (seen.hands, seen.vpip, seen.pfr, seen.three_bet) == (1, 100, 100, None)
        for folder in folders:
            seen = stats_of(viewer_id=viewer.pk, subject_id=folder)
            assert (seen.hands, seen.vpip, seen.pfr, seen.three_bet) == (1, 0, 0, 0)
            assert seen.aggression is None


def test_the_counters_of_every_pair_are_written_in_one_upsert(
        play_table, make_player, sit, fake_timers):
    """A worker counts every hand of the room: one statement creates or adds to every pair's
    row (a bulk insert, a lock and a CASE update were three, and cost the worker 8 ms a
    hand to build): all nine pairs of three players."""
    players = [make_player(name) for name in ("ann", "ben", "cy")]
    for number, user in enumerate(players, start=1):
        sit(play_table, user, number)
    services.hand_start(table_id=play_table.pk, force=True)
    raiser = act(play_table.pk, "raise", 6)
    act(play_table.pk, "fold")
    act(play_table.pk, "fold")
    with sql_sent() as sent:
        assert hand_stats_count(hand_id=finished(play_table.pk).pk) is True

    stats_table = PlayerStats._meta.db_table
    writes = [sql for sql in sent if stats_table in sql]
    assert len(writes) == 1 and "ON CONFLICT" in writes[0].upper()
    ids = sorted(user.pk for user in players)
    pairs = [(row.subject_id, row.viewer_id)
             for row in PlayerStats.objects.order_by("subject_id", "viewer_id")]
    assert pairs == [(subject, viewer) for subject in ids for viewer in ids]
    seen = stats_of(viewer_id=players[0].pk, subject_id=raiser)
    assert (seen.hands, seen.vpip, seen.pfr) == (1, 100, 100)


def test_a_player_sees_only_the_hands_he_was_dealt_into(play_table, make_player, sit,
                                                        fake_timers):
    """Dan sits down after the first hand: the first hand counts for Ann and Ben alone; the
    second for all three, so Dan's view of Ann holds one hand, Ben's two."""
    ann, ben, dan = make_player("ann"), make_player("ben"), make_player("dan")
    sit(play_table, ann, 1)
    sit(play_table, ben, 2)
    services.hand_start(table_id=play_table.pk, force=True)
    play_out(play_table.pk, passive=True)
    first = finished(play_table.pk)
    sit(play_table, dan, 3)
    services.post_big_blind_now(table_id=play_table.pk, user_id=dan.pk)  # dealt in at once
    services.hand_start(table_id=play_table.pk, force=True)
    play_out(play_table.pk, passive=True)
    second = finished(play_table.pk)
    assert second.pk != first.pk and dan.pk in {int(p) for p in _dealt(second)}

    for hand in (first, second):
        hand_stats_count(hand_id=hand.pk)

    assert stats_of(viewer_id=ben.pk, subject_id=ann.pk).hands == 2
    assert stats_of(viewer_id=dan.pk, subject_id=ann.pk).hands == 1
    assert stats_of(viewer_id=ann.pk, subject_id=dan.pk).hands == 1
    outsider = make_player("eve")
    assert stats_of(viewer_id=outsider.pk, subject_id=ann.pk).hands == 0
    assert not PlayerStats.objects.filter(viewer=outsider).exists()


def test_a_spectator_who_watched_the_whole_hand_sees_it_counted(
        play_table, make_player, sit, fake_timers):
    """Wes watches from before the deal to its end; Lia opens the table mid-hand; Tom
    watched the deal, closed his tab and opened it again before the end; Sam's daphne died with his socket
    open. Only Wes gets the hand in his figures of the two players (and no figures of
    himself: he played nothing)."""
    ann, ben = make_player("ann"), make_player("ben")
    wes, lia, tom, sam = (make_player(n) for n in ("wes", "lia", "tom", "sam"))
    sit(play_table, ann, 1)
    sit(play_table, ben, 2)
    sync_client().set(presence.server_key(presence.SERVER), 1, ex=presence.SERVER_TTL)
    for watcher in (wes, tom):
        presence.presence_join(table_id=play_table.pk, user_id=watcher.pk)
    TablePresence.objects.create(table=play_table, user=sam, server="died", sockets=1,
                                 open_since=timezone.now())
    services.hand_start(table_id=play_table.pk, force=True)
    presence.presence_leave(table_id=play_table.pk, user_id=tom.pk)
    act(play_table.pk, "call")
    presence.presence_join(table_id=play_table.pk, user_id=lia.pk)
    presence.presence_join(table_id=play_table.pk, user_id=tom.pk)
    play_out(play_table.pk, passive=True)

    assert hand_stats_count(hand_id=finished(play_table.pk).pk) is True

    for subject, opponent in ((ann, ben), (ben, ann)):
        seen = stats_of(viewer_id=wes.pk, subject_id=subject.pk)
        assert seen.hands == 1  # and the same figures as his opponent's:
        assert seen == stats_of(viewer_id=opponent.pk, subject_id=subject.pk)
        for outsider in (lia, tom, sam):
            assert stats_of(viewer_id=outsider.pk, subject_id=subject.pk).hands == 0
    assert set(PlayerStats.objects.values_list("viewer_id", flat=True)) == {
        ann.pk, ben.pk, wes.pk}
    assert not PlayerStats.objects.filter(subject=wes).exists()


def test_the_task_counts_a_hand_once_however_often_it_is_delivered(
        play_table, make_player, sit, fake_timers):
    ann, ben = make_player("ann"), make_player("ben")
    sit(play_table, ann, 1)
    sit(play_table, ben, 2)
    services.hand_start(table_id=play_table.pk, force=True)
    play_out(play_table.pk, passive=True)
    hand = finished(play_table.pk)

    assert tasks.hand_stats_count(hand_id=hand.pk) is True
    assert tasks.hand_stats_count(hand_id=hand.pk) is False  # redelivered

    assert HandStatsCounted.objects.filter(hand=hand).count() == 1
    assert stats_of(viewer_id=ann.pk, subject_id=ben.pk).hands == 1
    assert stats_of(viewer_id=ann.pk, subject_id=ann.pk).hands == 1


def test_a_running_hand_is_not_counted(play_table, make_player, sit, fake_timers):
    ann, ben = make_player("ann"), make_player("ben")
    sit(play_table, ann, 1)
    sit(play_table, ben, 2)
    hand = services.hand_start(table_id=play_table.pk, force=True)
    assert hand_stats_count(hand_id=hand.pk) is False
    assert not HandStatsCounted.objects.exists()


def _dealt(hand: Hand) -> list[str]:
    return [p["player_id"] for p in hand.state["players"]]


def test_a_hand_nobody_was_counted_in_adds_no_row(make_player):
    """Counters for nobody (a watcher alone) write nothing, and send no empty VALUES list."""
    from tables.services.hand_stats import _add

    watcher = make_player("wes")
    _add({}, {watcher.pk})

    assert not PlayerStats.objects.exists()
