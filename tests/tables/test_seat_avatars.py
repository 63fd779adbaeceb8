"""A seat carries its player's avatar as a key (accounts/avatars.py): in `seat_taken` and in
every snapshot, never as a URL and never as text the player typed."""
from __future__ import annotations

import pytest

from accounts.avatars import avatar_key
from tables.events import problems
from tables.models import HandEvent
from tables.snapshots import table_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_seat_carries_the_avatar_key_in_its_event_and_in_snapshots(make_table, make_player,
                                                                       sit):
    table = make_table(name="Portrait", structure="NL", lower_stake=2)
    ann, ben = make_player("ann"), make_player("ben")
    ann.avatar = "moon"
    ann.save(update_fields=["avatar"])
    sit(table, ann, 1)
    sit(table, ben, 2)
    taken = {e.payload["seat"]: e.payload for e in HandEvent.objects.filter(
        table=table, type="seat_taken")}
    assert taken[1]["avatar"] == "moon" and problems(taken[1]) == []
    assert taken[2]["avatar"] == avatar_key(ben.pk, "generated")
    seats = {s["seat"]: s for s in table_snapshot(table_id=table.pk, user_id=None)["seats"]}
    assert (seats[1]["avatar"], seats[2]["avatar"]) == ("moon", taken[2]["avatar"])
    ben.avatar = "wave"  # a change in the profile: the next snapshot has it
    ben.save(update_fields=["avatar"])
    assert table_snapshot(table_id=table.pk, user_id=ann.pk)["seats"][1]["avatar"] == "wave"
