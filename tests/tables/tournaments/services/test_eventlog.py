"""A tournament's events: versioned on its own log, published on its own group after the
commit (over Redis, like a table's), and nothing published for a refused request."""
from __future__ import annotations

import json
import uuid

import pytest

from tables.errors import TableError
from tables.groups import channel_of, sync_client, tournament_group
from tables.tournaments.models import Tournament, TournamentEvent
from tables.tournaments.services import tournament_register
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def listener():
    def listen(tournament: Tournament):
        pubsub = sync_client().pubsub()
        pubsub.subscribe(channel_of(tournament_group(tournament.pk)))
        assert pubsub.get_message(timeout=5)["type"] == "subscribe"
        subscriptions.append(pubsub)
        return pubsub

    subscriptions: list = []
    yield listen
    for pubsub in subscriptions:
        pubsub.close()


def published(pubsub) -> list[dict]:
    messages = []
    while (message := pubsub.get_message(timeout=0.5)) is not None:
        if message["type"] == "message":
            messages.append(json.loads(message["data"]))
    return messages


def test_an_event_is_stored_under_the_next_version_and_published_after_the_commit(
        make_player, listener, django_capture_on_commit_callbacks):
    event = tournament_make()
    pubsub = listener(event)

    with django_capture_on_commit_callbacks(execute=False) as hooks:
        ann = make_player("ann")
        tournament_register(tournament_id=event.pk, user=ann, key="k1")
    assert published(pubsub) == []  # nothing before the commit
    for hook in hooks:
        hook()

    [message] = published(pubsub)
    assert message["group"] == tournament_group(event.pk)
    [sent] = message["events"]
    assert sent["version"] == 2
    assert json.loads(sent["frame"]) == {
        "type": "event", "version": 2,
        "event": {"type": "registered", "player": "ann", "player_id": ann.pk, "entry": 1,
                  "entries": 1, "players": 1, "prize_pool": 1_000,
                  "payouts": [{"place": 1, "share": 10_000, "prize": 1_000}]}}
    assert TournamentEvent.objects.get(tournament=event, version=2).type == "registered"


def test_a_refused_request_records_and_publishes_nothing(make_player, listener,
                                                         django_capture_on_commit_callbacks):
    event = tournament_make(buy_in=50_000)
    pubsub = listener(event)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(TableError):
        tournament_register(tournament_id=event.pk, user=make_player("ann"), key=str(uuid.uuid4()))
    assert published(pubsub) == []
    assert Tournament.objects.get(pk=event.pk).version == 1  # "created" only


def test_versions_are_per_tournament(make_player):
    one, two = tournament_make(), tournament_make()
    for n, name in enumerate(("ann", "bob", "cy")):
        tournament_register(tournament_id=(one if n < 2 else two).pk, user=make_player(name),
                            key=str(uuid.uuid4()))
    assert list(one.events.values_list("version", flat=True)) == [1, 2, 3]
    assert list(two.events.values_list("version", flat=True)) == [1, 2]
