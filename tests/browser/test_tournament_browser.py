"""Tournaments seen by a player in the browser, against a real room (daphne and a Celery
worker) and bots over the sockets (`bots --sng`'s players). In a Sit & Go, Ann registers on
the tournament's page; when the bots fill it, her page alerts her (tab title and status) and
offers her table; the table shows the level line; she plays, busts, watches the final table
and sees the results. In a scheduled event she is moved to another table, and she busts,
re-enters from the offer at her table and is seated again. axe checks the tournament pages."""
from __future__ import annotations

import asyncio
import re
import threading
import time
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, play_passively, sign_up
from tests.browser.test_accessibility_browser import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
STACK = 300


def turbo_for_three():
    """A three-player Sit & Go: 300 chips, one-minute levels that climb fast, 65/35."""
    from tables.tournaments.models import Level, PayoutTier, TournamentTemplate
    from tables.tournaments.services import tournament_create

    template = TournamentTemplate.objects.create(
        name="Browser Turbo", kind="sit_and_go", currency="PLAY", buy_in=100, fee=10,
        starting_stack=STACK, seats_per_table=3, entries_cap=3, action_seconds=10,
        countdown_seconds=10, hand_pause_seconds=2)
    for order, (small, big) in enumerate([(10, 20), (25, 50), (50, 100), (100, 200)], start=1):
        Level.objects.create(template=template, order=order, small_blind=small, big_blind=big,
                             minutes=1)
    PayoutTier.objects.create(template=template, min_entries=2, max_entries=3,
                              places=[6_500, 3_500])
    return tournament_create(template=template)


def check_or_call(legal: dict, rng) -> dict:
    """A bot that never bets: nobody but Ann can go broke in a few hands."""
    if legal.get("show") or legal.get("muck"):
        return {"type": "muck" if legal.get("muck") else "show"}
    return {"type": "act", "action": "check" if legal.get("check") else "call"}


def bots_play(room_url: str, tournament, users, *, choose=None) -> threading.Thread:
    """The bots play their seats until the tournament takes them away (bots --sng's loop)."""
    import random

    from bots.client import Bot, TableTally, choose_action, session_cookie
    from tables.models import Seat, TableConfig

    table = TableConfig.objects.get(tournament=tournament)
    seats = dict(Seat.objects.filter(table=table).values_list("player_id", "number"))
    bots = [Bot(url=room_url, table_id=table.pk, user_id=u.pk, name=u.username,
                cookie=session_cookie(u), seat=seats[u.pk], tally=TableTally(target=0),
                think=0, rng=random.Random(k), tournament=True, choose=choose or choose_action)
            for k, u in enumerate(users)]

    async def run() -> None:  # (bots --sng's `play` wants the main thread, for Ctrl-C)
        await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots), return_exceptions=True),
                               timeout=240)

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    return thread


def ann_starts_short(tournament, ann_id: int, stack: int = STACK, keep: int = 10) -> None:
    """Before the first deal, Ann hands all but `keep` of her chips to a bot (the chips in
    play stay 3 x `stack`), so that she busts within a few hands whatever the cards."""
    from django.db import transaction

    from tables.models import Seat
    from tables.tournaments.models import Entry

    with transaction.atomic():
        mine = Seat.objects.select_for_update().get(table__tournament=tournament, player_id=ann_id)
        other = Seat.objects.select_for_update().filter(
            table__tournament=tournament).exclude(player_id=ann_id).first()
        mine.chips, other.chips = keep, other.chips + stack - keep
        mine.save(update_fields=["chips"])
        other.save(update_fields=["chips"])
        Entry.objects.filter(tournament=tournament, user_id=ann_id).update(chips=keep)
        Entry.objects.filter(tournament=tournament, user_id=other.player_id).update(
            chips=other.chips)


def shove(page: Page) -> None:
    """At her turn Ann goes all in (the All-in size, then Raise), or calls when she cannot
    raise (a call is then all she has)."""
    if page.locator("#action-bar.sent").count() or not page.locator("#action-bar").is_visible():
        return
    all_in = page.locator("#action-bar").get_by_role("button", name="All-in", exact=True)
    if page.locator("#act-raise").is_visible() and all_in.is_visible():
        all_in.click()
        page.locator("#act-raise").click()
    else:
        play_passively(page)


def following(page: Page) -> None:
    """The tournament page's socket has its snapshot: later events reach the page as news."""
    expect(page.locator("#tournament-live")).to_have_attribute("data-version", re.compile(r"\d"),
                                                               timeout=TIMEOUT)


def line_part(page: Page, key: str):
    return page.locator(f'#tournament-line [data-key="{key}"]')


def test_register_get_the_start_alert_play_bust_and_see_the_results(room_url, new_page):
    from bots.client import bot_accounts, bot_wallet_refill
    from tables.tournaments.models import Entry, Tournament
    from tables.tournaments.services import tournament_register

    sng = turbo_for_three()
    page = new_page("ann", bypass_csp=True)
    sign_up(page, room_url, "ann")
    page.goto(f"{room_url}/tournaments/{sng.pk}/")
    page.get_by_role("button", name=re.compile("Register for")).click()
    expect(page.locator(".mine")).to_contain_text("You are in")
    following(page)
    assert problems(page) == []  # axe: registering

    # The bots fill it: Ann's page alerts her and offers her table.
    bots = bot_accounts(2, prefix=f"tb{uuid.uuid4().hex[:4]}")
    for user in bots:
        bot_wallet_refill(user, at_least=sng.buy_in + sng.fee)
        tournament_register(tournament_id=sng.pk, user=user, key=str(uuid.uuid4()))
    ann_id = Entry.objects.get(tournament=sng, user__username="ann").user_id
    ann_starts_short(sng, ann_id)
    status = page.locator("[data-tournament-alerts] [role=status]")
    expect(status).to_contain_text("has started", timeout=TIMEOUT)
    expect(page).to_have_title(re.compile(r"^▶ Your tournament started — Browser Turbo"))
    expect(page.locator("#t-state")).to_have_text("Running")
    expect(line_part(page, "level")).to_contain_text("Level 1")
    # ... and the page drew the field live: entries, pool, payouts, players, tables, her place.
    expect(page.locator("#t-entries")).to_have_text("3")
    expect(page.locator("#t-pool")).to_have_text("300")
    expect(page.locator("#t-payouts tr")).to_have_count(2)
    expect(page.locator("#t-payouts tr").first).to_contain_text("195")
    expect(page.locator("#t-players tr")).to_have_count(3)
    expect(page.locator("#t-players a", has_text="Watch")).to_have_count(3)
    expect(page.locator("#t-position")).to_have_text(re.compile(r"^You are [123] of 3 by chips\.$"))
    thread = bots_play(room_url, sng, bots)

    status.get_by_role("link", name="Open your table").click()
    expect(page.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(line_part(page, "level")).to_have_text("Level 1")
    expect(line_part(page, "blinds")).to_have_text("Blinds 10/20")
    expect(line_part(page, "ante")).to_have_text("Ante none")
    expect(line_part(page, "next")).to_have_text(re.compile(r"^Next 25/50 in 0:[0-5]\d$"))
    expect(line_part(page, "average")).to_have_text("Avg stack 300")
    expect(line_part(page, "place")).to_have_text("Place 3/3", timeout=TIMEOUT)  # 10 chips
    # The dead button's blinds are posted by seat ("forced"): the log says blind, not ante.
    expect(page.locator("#hand-log")).to_contain_text(re.compile(r"posts a blind of (10|20)\."),
                                                      timeout=TIMEOUT)
    assert problems(page) == []  # axe: the tournament table

    # Ann plays (checks and calls) until she is out: the line then counts the players left.
    deadline = time.monotonic() + 120
    while Entry.objects.get(tournament=sng, user_id=ann_id).place is None:
        assert time.monotonic() < deadline, "Ann did not bust"
        play_passively(page)
        time.sleep(0.1)
    place = Entry.objects.get(tournament=sng, user_id=ann_id).place
    # She watches the final table: her line counts the players left, till the end.
    expect(page.locator("#tournament-line")).to_have_text(
        re.compile(r"Players [12]/3|Tournament over"), timeout=TIMEOUT)
    expect(page.locator("#action-bar")).to_be_hidden()

    # The end: the tournament page shows places and prizes.
    thread.join(timeout=240)
    assert Tournament.objects.get(pk=sng.pk).state == "finished"
    page.goto(f"{room_url}/tournaments/{sng.pk}/")
    expect(page.locator("#t-results")).to_be_visible()
    places = page.locator("#t-places li")
    expect(places).to_have_count(3)
    expect(places.nth(place - 1)).to_contain_text("ann")
    expect(places.nth(0)).to_contain_text("195")  # 65 % of 300
    expect(page.locator("#t-position")).to_have_text(re.compile(rf"finished in place {place}"))
    assert problems(page) == []  # axe: the results


def move(tournament, user_id: int, *, to) -> int:
    """What balancing does to a player's page (the other branch's services): his seat at his
    table is freed with `moved_to`, and he sits at the other table. Returns the old table."""
    from django.db import transaction

    from tables.models import Seat, SeatStatus
    from tables.services.eventlog import EventLog
    from tables.services.locks import table_lock, tournament_lock

    with transaction.atomic():
        tournament_lock(tournament.pk)
        old = Seat.objects.get(table__tournament=tournament, player_id=user_id)
        held = table_lock(old.table_id)
        seat = Seat.objects.select_for_update().get(pk=old.pk)
        log = EventLog(held)
        log.add({"type": "seat_left", "seat": seat.number, "player_id": user_id,
                 "cashed_out": 0, "moved_to": to.pk})
        log.delete(seat)
        log.flush()
    with transaction.atomic():
        held = table_lock(to.pk)
        taken = set(Seat.objects.filter(table=to).values_list("number", flat=True))
        number = min(set(range(1, to.max_seats + 1)) - taken)
        Seat.objects.create(table=to, number=number, player_id=user_id,
                            status=SeatStatus.PLAYING, chips=old.chips)
        log = EventLog(held)
        log.add({"type": "seat_taken", "seat": number, "player_id": user_id, "name": "ann",
                 "stack": old.chips, "status": SeatStatus.PLAYING})
        log.flush()
    return old.table_id


def test_a_moved_player_s_page_follows_him_to_his_new_table(room_url, new_page):
    """Two tables of two (three seats each); when Ann's seat is freed with `moved_to`, her page opens her new
    table with a notice and a tab-title alert."""
    from bots.client import bot_accounts, bot_wallet_refill
    from tables.models import TableConfig
    from tables.tournaments.models import TournamentKind
    from tables.tournaments.services import tournament_register
    from tests.tables.tournaments.factories import tournament_make

    t = tournament_make(kind=TournamentKind.SCHEDULED, name="Two Tables", seats_per_table=3,
                        hand_pause_seconds=120)  # no hand is dealt while she moves
    page = new_page("ann")
    sign_up(page, room_url, "ann")
    from django.contrib.auth import get_user_model
    ann = get_user_model().objects.get(username="ann")
    for user in [ann, *bot_accounts(3, prefix=f"mv{uuid.uuid4().hex[:4]}")]:
        bot_wallet_refill(user, at_least=t.buy_in + t.fee)
        tournament_register(tournament_id=t.pk, user=user, key=str(uuid.uuid4()))
    start_now(t)
    mine = TableConfig.objects.get(tournament=t, seats__player=ann)
    other = TableConfig.objects.filter(tournament=t).exclude(pk=mine.pk).get()
    page.goto(f"{room_url}/tables/{mine.pk}/")
    expect(page.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(line_part(page, "level")).to_have_text("Level 1", timeout=TIMEOUT)

    assert move(t, ann.pk, to=other) == mine.pk
    expect(page).to_have_url(f"{room_url}/tables/{other.pk}/?moved_from={mine.pk}",
                             timeout=TIMEOUT)
    expect(page.locator("#tournament-status")).to_have_text(
        f"You were moved here from table {mine.pk}. Your chips came with you.")
    expect(page).to_have_title(re.compile(rf"^▶ Moved to {re.escape(other.name)}"))
    expect(page.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(line_part(page, "level")).to_have_text("Level 1")


def start_now(tournament) -> None:
    """A scheduled event's start time comes now (what the sweeper then does)."""
    from django.utils import timezone

    from tables.tournaments.models import Tournament
    from tables.tournaments.services import tournament_start

    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    assert tournament_start(tournament_id=tournament.pk).state == "running"


def test_a_busted_player_re_enters_from_his_table_and_is_seated_again(room_url, new_page):
    """A scheduled event with late registration and one re-entry: Ann busts at her table,
    which offers the re-entry; the tournament page takes the new buy-in; her page alerts her
    when the next hand start seats her, and her table has her back with a full stack."""
    from bots.client import bot_accounts, bot_wallet_refill
    from cashier.audit import ledger_audit
    from tables.tournaments.models import Entry, TournamentKind
    from tables.tournaments.services import tournament_cancel, tournament_register
    from tests.tables.tournaments.factories import tournament_make

    stack = 1_000  # levels of 10/20 for five minutes: the bots, who only check and call,
    t = tournament_make(kind=TournamentKind.SCHEDULED, name="Re-entry Night",  # cannot bust
                        seats_per_table=3, starting_stack=stack, max_reentries=1,
                        late_registration_levels=2, hand_pause_seconds=2)
    page = new_page("ann")
    sign_up(page, room_url, "ann")
    page.goto(f"{room_url}/tournaments/{t.pk}/")
    page.get_by_role("button", name=re.compile("Register for")).click()
    expect(page.locator(".mine")).to_contain_text("You are in")
    following(page)
    bots = bot_accounts(2, prefix=f"re{uuid.uuid4().hex[:4]}")
    for user in bots:
        bot_wallet_refill(user, at_least=t.buy_in + t.fee)
        tournament_register(tournament_id=t.pk, user=user, key=str(uuid.uuid4()))
    start_now(t)
    ann_id = Entry.objects.get(tournament=t, user__username="ann").user_id
    ann_starts_short(t, ann_id, stack)
    status = page.locator("[data-tournament-alerts] [role=status]")
    status.get_by_role("link", name="Open your table").click(timeout=TIMEOUT)
    thread = bots_play(room_url, t, bots, choose=check_or_call)
    expect(page.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)

    # She goes all in until she is out (two callers each time: she survives a hand about
    # once in three): her table offers the re-entry, on the `busted` event or, when her page
    # connected after it, from the snapshot.
    offer = page.locator("#tournament-status")
    deadline = time.monotonic() + 120
    while not Entry.objects.filter(tournament=t, user_id=ann_id, state="busted").exists():
        assert time.monotonic() < deadline, "Ann did not bust"
        shove(page)
        time.sleep(0.1)
    expect(offer).to_contain_text("Re-entry is open", timeout=TIMEOUT)
    assert problems(page) == []  # axe: the offer
    offer.get_by_role("link", name="Re-enter").click()

    # The tournament page takes the new buy-in: entry 2, a full stack, seated at the next hand.
    expect(page.get_by_text(re.compile(r"^Re-entry 1 of 1"))).to_be_visible()
    assert problems(page) == []  # axe: the re-entry form
    page.get_by_role("button", name=re.compile("Re-enter for")).click()
    expect(page.locator(".mine")).to_contain_text("You are in (entry 2)")
    # The page alerts her when she is seated (`seated`), or, seated before its socket
    # connected, shows the way to her table from the snapshot.
    expect(status).to_contain_text(
        re.compile(r"your entry 2 is seated with 1,000 chips|you are playing"), timeout=TIMEOUT)
    status.get_by_role("link", name="Open your table").click()
    expect(page.locator("#conn-status")).to_have_text("Connected", timeout=TIMEOUT)
    expect(line_part(page, "place")).to_have_text(re.compile(r"^Place [123]/3$"), timeout=TIMEOUT)
    mine = Entry.objects.get(tournament=t, user_id=ann_id, number=2)
    assert (mine.state, mine.table_id) == ("playing", t.tables.get().pk)
    assert Entry.objects.filter(tournament=t).count() == 4 and ledger_audit().ok
    # Cancelled, the table empties at its next hand start: the bots' seats go and they stop.
    tournament_cancel(tournament_id=t.pk, reason="The test is over")
    deadline = time.monotonic() + 60
    while thread.is_alive():  # Ann plays the hand out (no waiting for her clock)
        assert time.monotonic() < deadline, "the bots did not stop"
        play_passively(page)
        thread.join(timeout=0.2)
