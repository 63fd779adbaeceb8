"""Turn timers with a real Celery worker (a subprocess on the test database and Redis).

The services queue `tables.hand_timeout` with an eta at the turn's deadline; the worker acts for
the player when it fires. Tables here use 1 s + 1 s, so a turn times out after 2 s."""
from __future__ import annotations

import datetime
import uuid

import pytest
from django.utils import timezone

from cashier import conf
from cashier.audit import ledger_audit
from cashier.selectors import balances_for
from tables import services
from tables.models import HandEvent, Seat, TimeoutAllIn
from tables.tasks import hand_timeout, sweep
from tests.tables.helpers import live, to_act_user
from tests.tables.realroom import QUEUE, kill_hard, private_queue_fixture, wait_until, worker

pytestmark = pytest.mark.usefixtures("private_queue")
assert private_queue_fixture  # the fixture, imported to be found
FAST = {"action_seconds": 1, "countdown_seconds": 1, "hand_pause_seconds": 60}


@pytest.fixture
def timer_worker(private_queue):
    """A worker for the test, stopped before the test database is emptied: a worker shared
    by the module ran the hand's next timers during that TRUNCATE, and the two deadlocked."""
    with worker() as process:
        yield process


@pytest.fixture
def fast_table(make_table):
    return make_table(name="Fast", lower_stake=2, max_seats=6, **FAST)


@pytest.fixture
def seated(make_player):
    """seated(table, n) → n players sat in seats 1..n (no hand yet, none queued for a minute)."""
    def do(table, n: int) -> list:
        players = [make_player(f"p{i}") for i in range(1, n + 1)]
        for i, p in enumerate(players, start=1):
            services.seat_take(table_id=table.pk, user=p, number=i, amount=200,
                               idempotency_key=f"sit-{uuid.uuid4().hex}")
        return players
    return do


def actions(hand_id: int) -> list[dict]:
    return [e.payload for e in HandEvent.objects.filter(hand_id=hand_id, type="action")
            .order_by("version")]


def first_timeout(hand_id: int) -> dict | None:
    return next((a for a in actions(hand_id) if a.get("timeout")), None)


def test_timeout_all_in_when_money_is_in_the_pot(fast_table, seated, timer_worker):
    seated(fast_table, 2)
    hand = services.hand_start(table_id=fast_table.pk, force=True)
    # heads-up the button posts the small blind and acts first: money in the pot
    acted = wait_until(lambda: first_timeout(hand.pk), timeout=10, message="no timeout")
    assert acted["action"] == "timeout_allin"
    assert TimeoutAllIn.objects.filter(hand=hand).count() >= 1
    assert ledger_audit().ok


def test_timeout_folds_without_money_in_the_pot(fast_table, seated, timer_worker):
    seated(fast_table, 3)  # three-handed, the button acts first preflop with nothing in
    hand = services.hand_start(table_id=fast_table.pk, force=True)
    button = live(fast_table.pk)[0].button_seat
    acted = wait_until(lambda: first_timeout(hand.pk), timeout=10, message="no timeout")
    assert (acted["seat"], acted["action"]) == (button, "fold")
    moment = HandEvent.objects.get(hand=hand, type="action", payload__timeout=True,
                                   payload__seat=button)
    assert moment.created_at >= hand.deadline  # not before the deadline (2 s after the deal)


def test_timeouts_fold_once_the_daily_cap_of_all_ins_is_used(make_table, seated, timer_worker):
    table = make_table(name="Capped", lower_stake=2, timeout_allin_daily_cap=0, **FAST)
    seated(table, 2)
    hand = services.hand_start(table_id=table.pk, force=True)
    acted = wait_until(lambda: first_timeout(hand.pk), timeout=10, message="no timeout")
    assert acted["action"] == "fold"  # the small blind is in, but no all-in is left today


def test_reconnecting_during_ones_turn_adds_the_countdown_once(fast_table, seated, timer_worker):
    seated(fast_table, 2)
    hand = services.hand_start(table_id=fast_table.pk, force=True)
    actor = to_act_user(fast_table.pk)
    original = hand.deadline
    # what the consumer does when the player's socket (re)connects during his turn
    dropped = timezone.now()
    assert services.hand_reconnect_bonus(table_id=fast_table.pk, user_id=actor, dropped_at=dropped)
    assert not services.hand_reconnect_bonus(table_id=fast_table.pk, user_id=actor,
                                             dropped_at=dropped)
    hand.refresh_from_db()
    assert hand.deadline - original == datetime.timedelta(seconds=1)
    # the task queued for the first deadline fires and does nothing: the deadline moved
    wait_until(lambda: datetime.datetime.now(datetime.UTC) > original
               + datetime.timedelta(seconds=0.3), timeout=5, message="clock")
    assert first_timeout(hand.pk) is None
    acted = wait_until(lambda: first_timeout(hand.pk), timeout=10, message="no timeout")
    moment = HandEvent.objects.get(hand=hand, version__gt=0, type="action",
                                   payload__timeout=True, payload__seat=acted["seat"])
    assert moment.created_at >= hand.deadline


def test_duplicated_and_late_timeout_tasks_do_nothing(fast_table, seated, timer_worker):
    seated(fast_table, 3)
    hand = services.hand_start(table_id=fast_table.pk, force=True)
    turn_version = hand.version
    # two more copies of the same timer (a retried publish, a redelivery) ...
    for _ in range(2):
        hand_timeout.apply_async(kwargs={"hand_id": hand.pk, "version": turn_version},
                                 eta=hand.deadline)
    wait_until(lambda: first_timeout(hand.pk), timeout=10, message="no timeout")
    # ... and a late copy of that turn's timer after the next player's turn began
    hand_timeout.apply_async(kwargs={"hand_id": hand.pk, "version": turn_version})
    wait_for_idle(timer_worker.name)
    timeouts = [a for a in actions(hand.pk) if a.get("timeout")]
    # the next player's own timer may have fired meanwhile (2 s later): one per turn
    seats = [a["seat"] for a in timeouts]
    assert len(seats) == len(set(seats)), timeouts
    assert ledger_audit().ok


def wait_for_idle(name: str, timeout: float = 10.0) -> None:
    """Until the worker runs nothing and holds no task that is already due (our copies ran)."""
    from pokerroom.celery import app

    def idle() -> bool:
        inspect = app.control.inspect(destination=[name], timeout=0.5)
        active, scheduled = inspect.active(), inspect.scheduled()
        if active is None or scheduled is None or any(active.values()):
            return False
        now = datetime.datetime.now(datetime.UTC)
        return not any(datetime.datetime.fromisoformat(t["eta"]) <= now
                       for tasks in scheduled.values() for t in tasks)
    wait_until(idle, timeout=timeout, message=f"worker {name} still busy")


def test_the_sweeper_acts_on_a_turn_whose_worker_was_killed(fast_table, seated, tmp_path,
                                                            monkeypatch):
    from pokerroom.celery import app

    queue = f"{QUEUE}-sweep"  # away from the module's shared worker
    monkeypatch.setitem(app.conf, "task_default_queue", queue)
    seated(fast_table, 3)
    with worker(queue=queue) as first:
        hand = services.hand_start(table_id=fast_table.pk, force=True)
        # the worker reserves the eta task at once and holds it until the deadline
        wait_until(lambda: scheduled_on(first.name), timeout=5, message="task not reserved")
        kill_hard(first)
    # The deadline passes with no worker, by more than a worker's lateness (under 0.1 s; one
    # second here): nobody acts. Asserted against the hand's deadline, not after a fixed sleep
    # that a slow start could leave short of it.
    hand.refresh_from_db()
    wait_until(lambda: timezone.now() > hand.deadline + datetime.timedelta(seconds=1),
               timeout=10, message="the deadline did not pass")
    assert first_timeout(hand.pk) is None
    with worker(beat=True, tmp_path=tmp_path, queue=queue):  # a new worker with beat's once-a-second sweep
        acted = wait_until(lambda: first_timeout(hand.pk), timeout=15, message="not swept")
    assert acted["seat"] == live(fast_table.pk)[0].button_seat
    assert sweep.name == "tables.sweep"


def scheduled_on(name: str) -> bool:
    from pokerroom.celery import app

    found = app.control.inspect(destination=[name], timeout=0.5).scheduled() or {}
    return any(found.values())


# The sweeper's other two jobs, called directly (what beat runs every second) ---------------
def test_the_sweeper_starts_a_next_hand_whose_task_was_lost(fast_table, seated, fake_timers):
    seated(fast_table, 2)  # the start was "queued" (recorded by fake_timers) for in a minute
    ts = live(fast_table.pk)[0]
    ts.next_hand_at = ts.next_hand_at - datetime.timedelta(minutes=5)  # ... and lost
    ts.save(update_fields=["next_hand_at"])
    assert sweep() == {"timeouts": 0, "hands_started": 1, "sit_outs_removed": 0}
    assert live(fast_table.pk)[0].hand_running
    assert sweep()["hands_started"] == 0  # idempotent: a hand runs now


def test_the_sweeper_cashes_out_players_sitting_out_too_long(make_table, seated, fake_timers):
    table = make_table(name="Idle", lower_stake=2, sit_out_limit_minutes=10, **FAST)
    alice, bob, carol = seated(table, 3)
    services.sit_out(table_id=table.pk, user_id=carol.pk)
    Seat.objects.filter(player=carol).update(
        sat_out_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=11))
    services.sit_out(table_id=table.pk, user_id=bob.pk)  # just now: stays
    assert sweep()["sit_outs_removed"] == 1
    assert set(Seat.objects.filter(table=table).values_list("player_id", flat=True)) == {
        alice.pk, bob.pk}
    assert balances_for(user=carol)["PLAY"] == conf.play_money_grant()  # all 200 back
    assert ledger_audit().ok
