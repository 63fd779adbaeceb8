"""Open sockets per player and table, across server processes, for the reconnect bonus."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tables.groups import sync_client
from tables.models import TablePresence
from tables.services import presence

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_socket_closing_marks_the_drop_and_a_second_tab_is_not_a_drop(
        play_table, make_player):
    ann = make_player("ann")
    ids = {"table_id": play_table.pk, "user_id": ann.pk}
    assert presence.presence_join(**ids) is None  # a first visit
    assert presence.presence_join(**ids) is None  # a second tab while the first is open
    presence.presence_leave(**ids)
    row = TablePresence.objects.get(server=presence.SERVER)
    assert (row.sockets, row.dropped_at) == (1, None)  # one tab still open: not a drop
    presence.presence_leave(**ids)  # both closed: he dropped
    dropped = TablePresence.objects.get(server=presence.SERVER).dropped_at
    assert dropped is not None
    assert presence.presence_join(**ids) == dropped  # back: when he had dropped


def test_sockets_of_a_process_that_died_stop_counting(play_table, make_player):
    """A server killed with its sockets open never counts them out; once its heartbeat key is
    gone its rows are ignored (and removed), while a live process's sockets still count."""
    ann, bob = make_player("ann"), make_player("bob")
    earlier = timezone.now() - datetime.timedelta(seconds=5)
    TablePresence.objects.create(table=play_table, user=ann, server="died", sockets=1)
    TablePresence.objects.create(table=play_table, user=ann, server=presence.SERVER,
                                 sockets=0, dropped_at=earlier)
    assert presence.presence_join(table_id=play_table.pk, user_id=ann.pk) == earlier
    assert not TablePresence.objects.filter(server="died").exists()

    sync_client().set(presence.server_key("alive"), 1, ex=presence.SERVER_TTL)
    TablePresence.objects.create(table=play_table, user=bob, server="alive", sockets=1)
    assert presence.presence_join(table_id=play_table.pk, user_id=bob.pk) is None  # open there
    sync_client().delete(presence.server_key("alive"))


def test_a_socket_closing_costs_one_statement(play_table, make_player,
                                              django_assert_num_queries):
    """Closing is the commonest presence write (every drop, leave and page change): one
    UPDATE, no transaction around a locked read."""
    ids = {"table_id": play_table.pk, "user_id": make_player("ann").pk}
    presence.presence_join(**ids)
    with django_assert_num_queries(1):
        presence.presence_leave(**ids)
    assert TablePresence.objects.get(server=presence.SERVER).dropped_at is not None
