"""A restart in the middle of a hand loses nothing: the database is the truth.

Two players play over real WebSockets against daphne + a Celery worker (subprocesses on the test
database). Mid-hand both processes are killed with SIGKILL and started again; the players'
sockets reconnect with `?last_version=`, the hand continues from the database to its end, both
leave, and every chip is still accounted for."""
from __future__ import annotations

import asyncio
import io
import random

from django.core.management import call_command

from bots.client import Bot, TableTally, session_cookie
from cashier import conf
from cashier.audit import ledger_audit
from cashier.selectors import balances_for
from pokerroom.processes import stop_process
from tables.models import Hand, HandEvent, Seat
from tests.browser.conftest import free_port
from tests.tables.realroom import (
    kill_hard,
    private_queue_fixture,  # noqa: F401  (fixture)
    start_daphne,
    worker,
)


def test_killing_daphne_and_the_worker_mid_hand_loses_no_chips(private_queue, make_player,
                                                                 make_table):
    table = make_table(name="Restart", lower_stake=2, max_seats=6, hand_pause_seconds=0,
                       action_seconds=20, countdown_seconds=10)
    alice, bob = make_player("alice"), make_player("bob")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    tally = TableTally(target=0)  # the bots leave when told to (finish)
    mid_hand = asyncio.Event()
    hand: dict[str, int | None] = {"current": None, "acted": 0, "interrupted": None}

    def watch(bot: Bot, version: int, event: dict) -> None:
        if bot is not bots[0]:
            return
        if event["type"] == "hand_start":
            hand.update(current=event["hand_id"], acted=0)
        elif event["type"] == "action":
            hand["acted"] += 1
        elif event["type"] == "turn" and hand["acted"] and not mid_hand.is_set():
            hand["interrupted"] = hand["current"]
            mid_hand.set()  # an action is in and the hand goes on: someone is to act

    bots = [Bot(url=url, table_id=table.pk, user_id=u.pk, name=u.username, seat=n,
                cookie=session_cookie(u), tally=tally, think=0.3, buy_in=200,
                rng=random.Random(n), on_event=watch)
            for n, u in enumerate((alice, bob), start=1)]

    async def scenario() -> None:
        with worker() as first_worker:
            server = start_daphne(port)
            try:
                playing = [asyncio.create_task(b.run()) for b in bots]
                await asyncio.wait_for(mid_hand.wait(), 30)
                kill_hard(server)
                kill_hard(first_worker)
                assert hand["interrupted"] not in tally.ended  # killed mid-hand
            except BaseException:
                kill_hard(server)
                raise
        await asyncio.sleep(1)  # the players' sockets are down and retrying
        with worker():
            server = await asyncio.to_thread(start_daphne, port)
            try:
                async with asyncio.timeout(60):
                    while hand["interrupted"] not in tally.ended:  # the hand goes on to its end
                        await asyncio.sleep(0.05)
                    for b in bots:
                        await b.finish()  # leave (after the current hand, if one started)
                    await asyncio.gather(*playing)
            finally:
                stop_process(server)

    try:
        asyncio.run(scenario())
    except BaseException:
        print_table(table.pk)  # evidence for the failure report
        raise

    interrupted = Hand.objects.get(pk=hand["interrupted"])
    assert interrupted.finished_at is not None  # the hand went on from the database to its end
    versions = list(HandEvent.objects.filter(table=table).values_list("version", flat=True)
                    .order_by("version"))
    assert versions == list(range(1, len(versions) + 1))  # no event lost or doubled
    for b in bots:  # each socket came back, left the table, and nothing it sent was refused
        assert b.result.reconnects >= 1 and b.result.left and not b.result.errors, b.result
    assert not Seat.objects.filter(table=table).exists()
    grant = conf.play_money_grant()
    assert sum(balances_for(user=u)["PLAY"] for u in (alice, bob)) == 2 * grant  # no rake here
    report = ledger_audit()
    assert report.ok, report.summary()
    call_command("audit_ledger", stdout=io.StringIO())


def print_table(table_id: int) -> None:
    print("hands", list(Hand.objects.filter(table_id=table_id)
                        .values_list("pk", "number", "seat_ids", "finished_at")))
    print("seats", list(Seat.objects.filter(table_id=table_id)
                        .values_list("pk", "number", "player_id", "chips", "leave_after_hand")))
    for e in HandEvent.objects.filter(table_id=table_id).exclude(type="hole_cards").order_by("version"):
        print("event", e.version, e.hand_id, e.payload)
