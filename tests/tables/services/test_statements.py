"""Upper bounds on the SQL statements of a table's steps, per database: the hand-ending action
(raked and unraked), the hand start, a top-up between hands and a chat line. The server's work per hand is
mostly these round trips, so a change that adds one fails here, not in a benchmark nobody ran.

Statements are counted as bench/act_path.py counts them (an execute wrapper: BEGIN, COMMIT and
health checks are not counted; savepoints are). A mid-hand action on the process's copy of the
table is one statement (tests/tables/services/test_copies.py)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection

from cashier.models import HandSettlement, PendingTopUp
from tables import services
from tables.models import Seat
from tests.tables.helpers import live, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)

# What each step takes today (`pytest -s` prints the counts): PostgreSQL joins a step's writes
# into one statement; SQLite sends them one by one. A step may take fewer, never more. A hand
# start includes taking the players' entropy for its deal (tables/services/dealing.py). A hand
# end: the table lock, its hand, its seats (locked), the settlement's claim (which reads the
# escrow it checks), [rake: the accounts' lock, the posting,] the step's writes (stacks too). A
# chat line: its author with his running bans, then under the table lock the table and its
# hand, his seat, his recent lines, the line and its event.
BOUNDS = {
    "postgresql": {"hand end": 5, "hand end raked": 7, "hand start": 5, "top-up": 10,
                   "chat line": 7},
    "sqlite": {"hand end": 9, "hand end raked": 14, "hand start": 7, "top-up": 13,
               "chat line": 8},
}


@contextmanager
def statements() -> Iterator[list[str]]:
    sent: list[str] = []

    def counted(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        if sql not in {"BEGIN", "BEGIN IMMEDIATE", "COMMIT"}:
            sent.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(counted):
        yield sent


def bound(kind: str, sent: list[str]) -> None:
    limit = BOUNDS[connection.vendor][kind]
    print(f"{connection.vendor} {kind}: {len(sent)} statements (bound {limit})")
    assert len(sent) <= limit, "\n".join(" ".join(sql.split())[:160] for sql in sent)


@pytest.fixture
def table(make_table, make_player, sit, fake_timers):
    """table(raked=False): three players at a 1/2 no-limit table, 5 % rake when `raked`; next
    hands and turn timers are recorded, not run (they would count as the step's)."""
    def make(*, raked: bool = False):
        rake = {"rake_percent": 5, "rake_cap": 10} if raked else {}
        made = make_table(name="Counted", structure="NL", lower_stake=2, max_seats=6,
                          hand_pause_seconds=0, **rake)
        for number, name in enumerate(("alice", "bob", "carol"), start=1):
            sit(made, make_player(name), number)
        return made
    return make


def turn(table_id: int, action: str, amount: int | None = None) -> Callable[[], list]:
    """The current player's action, ready to call (what it reads first is not counted)."""
    user_id, version = to_act_user(table_id), live(table_id)[0].version
    return lambda: services.act(table_id=table_id, user_id=user_id, action=action,
                                amount=amount, expected_version=version)


def act(table_id: int, action: str, amount: int | None = None) -> list[dict[str, Any]]:
    return turn(table_id, action, amount)()


def ends(events: list[dict[str, Any]]) -> bool:
    return any(e["event"]["type"] == "hand_end" for e in events)


def test_a_hand_ending_before_the_flop_unraked(table):
    table = table()
    services.hand_start(table_id=table.pk, force=True)
    act(table.pk, "fold")  # the button
    last = turn(table.pk, "fold")  # the small blind: the big blind wins
    with statements() as sent:
        events = last()
    assert ends(events)
    assert HandSettlement.objects.get(table=table).rake == 0  # no flop, no drop
    bound("hand end", sent)


def test_a_hand_ending_on_the_flop_raked(table):
    """The second raked hand: the first one also made the house's account."""
    table = table(raked=True)
    for _ in range(2):
        services.hand_start(table_id=table.pk, force=True)
        act(table.pk, "raise", 20)  # preflop: a raise and two calls, 60 in the pot
        act(table.pk, "call")
        act(table.pk, "call")
        act(table.pk, "bet", 20)  # the flop: a bet, a fold, and the last fold ends the hand
        act(table.pk, "fold")
        last = turn(table.pk, "fold")
        with statements() as sent:
            events = last()
        assert ends(events)
    assert list(HandSettlement.objects.filter(table=table).values_list("rake", flat=True)) \
        == [3, 3]  # 5 % of 60, each hand
    bound("hand end raked", sent)


def test_a_hand_start(table):
    table = table()
    with statements() as sent:
        hand = services.hand_start(table_id=table.pk, force=True)
    assert hand is not None
    bound("hand start", sent)


def test_a_top_up_between_hands(table):
    table = table()
    services.hand_start(table_id=table.pk, force=True)
    act(table.pk, "fold")
    act(table.pk, "fold")  # the hand ends; the next is recorded, not dealt
    assert live(table.pk)[1].finished_at is not None
    seat = Seat.objects.filter(table=table).order_by("chips").first()  # 199: room for 1
    with statements() as sent:
        added = services.seat_top_up(table_id=table.pk, user_id=seat.player_id, amount=1,
                                     idempotency_key="top-up")
    assert added == 1
    assert PendingTopUp.objects.get(seat=seat).amount == 1  # joins the stack at the next hand
    bound("top-up", sent)


def test_a_chat_line_mid_hand(table):
    """About one a hand at a real table's pace, under the table lock like an action."""
    from tables.services import chat

    table = table()
    services.hand_start(table_id=table.pk, force=True)
    user_id = to_act_user(table.pk)
    with statements() as sent:
        chat.chat_say(table_id=table.pk, user_id=user_id, text="nice hand")
    bound("chat line", sent)
