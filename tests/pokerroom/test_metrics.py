"""/metrics: Prometheus's view of the room. Refused to the public; after play it shows what the
services did (actions by type, hands, ledger transactions, timer lateness, open sockets)."""
from __future__ import annotations

import datetime
import io
import random
import subprocess
import sys
import urllib.error
import urllib.request
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from tables import services
from tables.engine import legal_actions
from tables.models import Hand, HandSummary
from tests.conftest import METRICS_TOKEN, REPO
from tests.tables.helpers import live
from tests.tables.realroom import (  # noqa: F401  (fixtures)
    private_queue_fixture,
    room_env,
    room_fixture,
    wait_until,
)

TOKEN = METRICS_TOKEN  # the one the tests' daphne processes accept (tests/tables/realroom.py)


def scrape(client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """(sample name, sorted labels) → value, from an authorised GET /metrics."""
    response = client.get(reverse("metrics"), HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.content.decode())
            for s in family.samples}


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture(autouse=True)
def metrics_token(settings):
    settings.METRICS_TOKEN = TOKEN


# Who may scrape --------------------------------------------------------------------------------
@pytest.mark.django_db
def test_anonymous_visitors_are_refused(client):
    response = client.get(reverse("metrics"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"room_actions" not in response.content


@pytest.mark.django_db
def test_a_wrong_token_is_refused(client):
    response = client.get(reverse("metrics"), HTTP_AUTHORIZATION="Bearer guess")
    assert response.status_code == 401


@pytest.mark.django_db
def test_no_token_configured_means_no_token_is_accepted(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get(reverse("metrics"), HTTP_AUTHORIZATION="Bearer ").status_code == 401


@pytest.mark.django_db
def test_players_who_are_not_staff_are_refused(client, make_user):
    client.force_login(make_user("player"))
    assert client.get(reverse("metrics")).status_code == 403


@pytest.mark.django_db
def test_staff_and_the_token_may_scrape(client, make_user):
    assert scrape(client)  # the token
    client.force_login(make_user("operator", is_staff=True))
    response = client.get(reverse("metrics"))
    assert response.status_code == 200
    assert b"django_http_requests_total_by_method_total" in response.content  # django-prometheus


@pytest.mark.django_db
def test_while_the_database_is_down_the_process_metrics_still_go_out(client, monkeypatch):
    from django.db import OperationalError

    from tables.models import TableState

    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(TableState.objects, "filter", down)
    samples = scrape(client)
    assert ("room_hands_started_total", ()) in samples
    assert ("room_hands_running", ()) not in samples


# What it shows ---------------------------------------------------------------------------------
def seated_table(make_table, make_player, sit, players: int = 3):
    table = make_table(name="Metered", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=0)
    for n in range(1, players + 1):
        sit(table, make_player(f"p{n}"), n)
    return table


def some_action(state, rng: random.Random) -> tuple[str, int | None]:
    """A random legal action, never all-in (nobody busts: every hand can be dealt)."""
    la = legal_actions(state)
    if la.show or la.muck:
        return rng.choice(["show", "muck"]), None
    roll = rng.random()
    if roll < 0.15 and not la.check:
        return "fold", None
    if roll < 0.4 and (la.bet or la.raise_):
        return ("bet" if la.bet else "raise"), la.min_to
    return ("check" if la.check else "call"), None


def play_hands(table_id: int, hands: int, rng: random.Random) -> Counter[str]:
    """Deal and play `hands` hands with random legal actions; returns the actions by type."""
    done: Counter[str] = Counter()
    for _ in range(hands):
        assert services.hand_start(table_id=table_id, force=True) is not None
        while True:
            ts, hand, state = live(table_id)
            if hand.finished_at is not None:
                break
            action, amount = some_action(state, rng)
            services.act(table_id=table_id, user_id=int(state.players[state.to_act].player_id),
                         action=action, amount=amount, expected_version=ts.version)
            done[action] += 1
    return done


@pytest.mark.django_db(transaction=True)  # counters move on commit, as in production
def test_after_a_few_hands_the_room_counters_are_not_zero(client, make_table, make_player, sit):
    table = seated_table(make_table, make_player, sit)
    play_hands(table.pk, 3, random.Random(1))
    samples = scrape(client)
    assert value(samples, "room_hands_started_total") >= 3
    assert value(samples, "room_hands_finished_total") >= 3
    assert sum(v for (name, _), v in samples.items() if name == "room_actions_total") > 0
    assert value(samples, "room_ledger_transactions_total", kind="buy_in") >= 3
    assert value(samples, "room_players_seated") == 3
    assert value(samples, "room_hands_running") == 0


@pytest.mark.django_db(transaction=True)
def test_under_load_every_action_and_hand_is_counted_once(client, make_table, make_player, sit,
                                                          monkeypatch):
    """A few dozen actions through the services: the counters move by exactly what was done,
    action type by action type."""
    table = seated_table(make_table, make_player, sit, players=4)
    before = scrape(client)
    done = play_hands(table.pk, 8, random.Random(7))
    after = scrape(client)
    assert sum(done.values()) >= 24
    for action in ("fold", "check", "call", "bet", "raise", "show", "muck"):
        moved = (value(after, "room_actions_total", action=action)
                 - value(before, "room_actions_total", action=action))
        assert moved == done[action], action
    assert value(after, "room_hands_started_total") - value(before, "room_hands_started_total") == 8
    finished = HandSummary.objects.filter(table=table).count()
    assert value(after, "room_hands_finished_total") - value(
        before, "room_hands_finished_total") == finished == 8


@pytest.mark.django_db(transaction=True)
def test_a_timeout_is_counted_with_how_late_the_server_acted(client, make_table, make_player,
                                                             sit):
    table = seated_table(make_table, make_player, sit, players=2)
    services.hand_start(table_id=table.pk, force=True)
    before = scrape(client)
    _ts, hand, _ = live(table.pk)
    hand.deadline = timezone.now() - datetime.timedelta(seconds=3)  # nobody acted in time
    hand.save(update_fields=["deadline"])
    assert services.hand_timeout(hand_id=hand.pk, version=hand.version)
    after = scrape(client)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("room_actions_total", action="timeout") == 1
    assert moved("room_timer_lateness_seconds_count") == 1
    assert 3 <= moved("room_timer_lateness_seconds_sum") < 5
    assert moved("room_timer_lateness_seconds_bucket", le="2.0") == 0
    assert moved("room_timer_lateness_seconds_bucket", le="5.0") == 1


@pytest.mark.django_db(transaction=True)
async def test_open_sockets_resyncs_and_snapshots_are_counted(client, make_table,
                                                              close_db_threads):
    from asgiref.sync import sync_to_async

    from tests.tables.ws import Client

    table = await sync_to_async(make_table)(name="Watched", structure="NL", lower_stake=2)
    get = sync_to_async(scrape)
    before = await get(client)
    first = await Client.open(table.pk)
    second = await Client.open(table.pk, query="?last_version=0")
    during = await get(client)
    await first.close()
    await second.close()
    after = await get(client)

    def moved(samples: dict, name: str, **labels: str) -> float:
        return value(samples, name, **labels) - value(before, name, **labels)

    assert moved(during, "room_sockets_open", kind="table") == 2
    assert moved(after, "room_sockets_open", kind="table") == 0
    assert moved(after, "room_resyncs_total") == 1  # the reconnect with ?last_version=
    assert moved(after, "room_snapshots_total") == 1  # the first socket's connect, counted once


# Several processes -----------------------------------------------------------------------------
@pytest.fixture
def multiprocess_metrics(tmp_path, monkeypatch):
    """The room's processes (started after this) share a metrics directory."""
    directory = tmp_path / "prometheus"
    directory.mkdir()
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))
    return directory


def test_a_scrape_of_daphne_sums_what_every_process_of_the_room_did(multiprocess_metrics, room,
                                                                    make_table):
    """daphne and a Celery worker: bots play three hands with a one-second pause, so daphne
    records the actions and the worker deals the hands after the first; one scrape of daphne
    shows both."""
    table = make_table(name="Scraped", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=1, action_seconds=5, countdown_seconds=5)
    call_command("bots", table=table.pk, players=3, hands=3, think=0, url=room, seed=4,
                 timeout=120, stdout=io.StringIO())
    request = urllib.request.Request(f"{room}/metrics",
                                     headers={"Authorization": f"Bearer {TOKEN}"})

    def scraped() -> dict:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in text_string_to_metric_families(text) for s in family.samples}

    # the bots left; the server ends a socket's consumer a moment after the close handshake
    samples = wait_until(lambda: (found := scraped()) and value(
        found, "room_sockets_open", kind="table") == 0 and found, timeout=10,
        message="the bots' sockets still counted as open")
    dealt = Hand.objects.filter(table=table).count()
    assert dealt >= 3
    assert value(samples, "room_hands_started_total") == dealt  # daphne's first, the worker's
    assert value(samples, "room_hands_finished_total") >= 3
    assert sum(v for (name, _), v in samples.items() if name == "room_actions_total") > 0
    assert value(samples, "room_ledger_transactions_total", kind="buy_in") == 3
    assert value(samples, "room_sockets_open", kind="table") == 0  # the bots left
    assert value(samples, "room_players_seated") == 0
    assert len({path.stem.rsplit("_", 1)[-1] for path in multiprocess_metrics.glob("*.db")}) >= 2
    with pytest.raises(urllib.error.HTTPError) as refused:  # and the public may not look
        urllib.request.urlopen(f"{room}/metrics", timeout=10)
    assert refused.value.code == 401


# SQL statements (opt-in) -----------------------------------------------------------------------
COUNT_A_QUERY = """
from django.db import connection
from prometheus_client import REGISTRY, generate_latest
from tables.models import TableConfig
list(TableConfig.objects.all())
print(connection.settings_dict["ENGINE"])
print(generate_latest(REGISTRY).decode())
"""


@pytest.mark.django_db(transaction=True)
def test_sql_statements_are_counted_when_asked_for():
    """METRICS_DATABASE=1 swaps in django-prometheus's backend (around the room's own one on
    PostgreSQL): a query shows in django_db_execute_total."""
    done = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", COUNT_A_QUERY], cwd=REPO,
                          env=room_env(METRICS_DATABASE="1"), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    engine, text = done.stdout.split("\n", 1)
    assert engine == {"sqlite": "django_prometheus.db.backends.sqlite3",
                      "postgresql": "pokerroom.dbmetrics"}[connection.vendor]
    executed = [s for family in text_string_to_metric_families(text) for s in family.samples
                if s.name == "django_db_execute_total"]
    assert executed and executed[0].labels["vendor"] == connection.vendor
    assert executed[0].value >= 1
