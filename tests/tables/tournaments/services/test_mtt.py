"""Scheduled multi-table tournaments played through the services, as test_play.py plays a
Sit & Go: hands dealt with `hand_start(force=True)` at each table in turn (`fake_timers`
records the timers). The template: six seats a table, 1,000 + 100 play money, 1,500 chips,
blinds 10/20, 20/40, 30/60 five minutes each; late registration through level 2, one
re-entry; two paid up to 10 entries, seven from 11 (so the bubble comes with two tables)."""
from __future__ import annotations

import datetime
import random
import uuid

import pytest
from django.db.models import Sum
from django.utils import timezone

from cashier.audit import ledger_audit
from cashier.money import Currency
from cashier.services import pool_account, wallet_account
from tables import events as table_events
from tables import services
from tables.models import HandEvent, Seat, SeatStatus, TableConfig
from tables.tournaments.engine.positions import between
from tables.tournaments.models import (
    Entry,
    EntryState,
    Tournament,
    TournamentEvent,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services import tournament_create, tournament_rebuy, tournament_register
from tables.tournaments.services.sweeps import tournaments_sweep
from tests.tables.helpers import live, play_out
from tests.tables.tournaments.factories import template_make

pytestmark = pytest.mark.django_db(transaction=True)
STACK, BUY_IN, FEE = 1_500, 1_000, 100
PAYOUTS = [(2, 10, [6_500, 3_500]),
           (11, 40, [3_000, 2_000, 1_500, 1_200, 1_000, 700, 600])]


def scheduled(*, min_field: int = 4, **fields) -> Tournament:
    template = template_make(kind=TournamentKind.SCHEDULED, seats_per_table=6,
                             min_field=min_field, late_registration_levels=2,
                             max_reentries=1, payouts=PAYOUTS, **fields)
    return tournament_create(template=template,
                             starts_at=timezone.now() + datetime.timedelta(minutes=10))


def register(tournament: Tournament, user) -> Entry:
    return tournament_register(tournament_id=tournament.pk, user=user, key=str(uuid.uuid4()))


def start(tournament: Tournament) -> Tournament:
    """The start time comes: the sweeper starts (or cancels) the event."""
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - datetime.timedelta(seconds=1))
    tournaments_sweep()
    tournament.refresh_from_db()
    return tournament


def started(make_player, players: int) -> tuple[Tournament, list]:
    tournament = scheduled()
    users = [make_player(f"p{k}") for k in range(1, players + 1)]
    for user in users:
        register(tournament, user)
    return start(tournament), users


def tables_of(tournament: Tournament) -> list[TableConfig]:
    return list(TableConfig.objects.filter(tournament=tournament).order_by("pk"))


def seated(tournament: Tournament) -> dict[int, int]:
    """Players at each table with players (table id → count)."""
    counts: dict[int, int] = {}
    for table_id in Seat.objects.filter(table__tournament=tournament).values_list(
            "table_id", flat=True):
        counts[table_id] = counts.get(table_id, 0) + 1
    return counts


def log(tournament: Tournament, kind: str) -> list[dict]:
    return [e.payload for e in TournamentEvent.objects.filter(tournament=tournament, type=kind)
            .order_by("version")]


def chips_in_play(tournament: Tournament) -> int:
    """Chips at the tables plus the stacks of entries waiting for a seat."""
    seats = Seat.objects.filter(table__tournament=tournament).aggregate(s=Sum("chips"))["s"]
    waiting = Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED
                                   ).aggregate(s=Sum("chips"))["s"]
    return (seats or 0) + (waiting or 0)


def entries_paid(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament).exclude(
        state=EntryState.UNREGISTERED).count()


def one_round(tournament: Tournament, rng: random.Random, *, passive: bool = False) -> int:
    """Each table in turn deals a hand (if it may) and plays it out (check or call when
    `passive`). Returns hands dealt."""
    dealt = 0
    for table in tables_of(tournament):
        if services.hand_start(table_id=table.pk, force=True) is not None:
            dealt += 1
            play_out(table.pk, rng=rng, passive=passive)
    return dealt


# Start ------------------------------------------------------------------------------------------
def test_at_the_start_time_a_field_short_of_the_minimum_is_cancelled_and_refunded(
        make_player, fake_timers):
    tournament = scheduled(min_field=4)
    users = [make_player(f"p{k}") for k in range(3)]
    before = {u.pk: wallet_account(user=u, currency=Currency.PLAY).balance for u in users}
    for user in users:
        register(tournament, user)
    assert tournaments_sweep()["started"] == 0  # not yet its time: nothing happens
    tournament = start(tournament)
    assert tournament.state == TournamentState.CANCELLED
    assert log(tournament, "cancelled")[0]["reason"].startswith("min_field: 3 of 4")
    for user in users:
        assert wallet_account(user=user, currency=Currency.PLAY).balance == before[user.pk]
    assert not TableConfig.objects.filter(tournament=tournament).exists()
    report = ledger_audit()
    assert report.ok, report.summary()


def test_at_the_start_time_the_minimum_field_starts_on_balanced_tables(make_player,
                                                                       fake_timers):
    tournament, _users = started(make_player, 16)
    assert tournament.state == TournamentState.RUNNING and tournament.level == 1
    assert sorted(seated(tournament).values()) == [5, 5, 6]
    assert log(tournament, "started")[0]["entries"] == 16
    assert chips_in_play(tournament) == 16 * STACK


# Late registration and re-entry ----------------------------------------------------------------
def test_a_late_registrant_gets_a_full_stack_and_a_seat_not_between_the_blind_and_button(
        make_player, fake_timers):
    tournament, _users = started(make_player, 16)
    rng = random.Random(1)
    one_round(tournament, rng)  # every table has had a hand: positions are known
    late = make_player("late")
    entry = register(tournament, late)
    assert entry.state == EntryState.REGISTERED and entry.chips == STACK  # paid, not seated
    for table in tables_of(tournament):  # the next hand start (any table's) seats him
        if services.hand_start(table_id=table.pk, force=True) is not None:
            break
    entry.refresh_from_db()
    assert entry.state == EntryState.PLAYING
    seat = Seat.objects.get(player=late)
    assert seat.table_id == entry.table_id and seat.number == entry.seat
    assert log(tournament, "seated")[0]["player"] == late.table_name
    assert log(tournament, "seated")[0]["stack"] == STACK
    # He sat at a table of five (the shortest), seated for its next hand: dealt in, or, only
    # if every free seat lay between the small blind and the button, waiting for the big blind.
    taken = HandEvent.objects.filter(table_id=seat.table_id, type="seat_taken",
                                     payload__player_id=late.pk).get()
    ts = live(seat.table_id)[0]
    assert taken.payload["stack"] == STACK
    assert taken.payload["status"] in (SeatStatus.PLAYING, SeatStatus.WAITING_BB)
    assert chips_in_play(tournament) == entries_paid(tournament) * STACK
    assert ts.table.tournament_id == tournament.pk


def test_the_newcomer_seat_is_never_between_the_small_blind_and_the_button(make_player,
                                                                          fake_timers):
    """Many newcomers at once (the tables fill; the rebalance evens them): none lands between
    the small blind and the button of his table's next hand, unless he waits for the big
    blind."""
    tournament, _users = started(make_player, 12)
    rng = random.Random(2)
    one_round(tournament, rng)
    positions = {t.pk: (live(t.pk)[0].small_blind_seat, live(t.pk)[0].big_blind_seat)
                 for t in tables_of(tournament)}
    for k in range(5):
        register(tournament, make_player(f"late{k}"))
    for table in tables_of(tournament):  # the first hand start seats them all
        if services.hand_start(table_id=table.pk, force=True) is not None:
            break
    arrived = Seat.objects.filter(table__tournament=tournament,
                                  player__username__startswith="late")
    assert arrived.count() == 5
    for seat in arrived:
        small, big = positions[seat.table_id]
        # next hand: the button on the last small blind, the small blind on the last big one
        if seat.status != SeatStatus.WAITING_BB:
            assert not between(seat.number, small, big, 6), seat.number


def test_a_busted_player_is_offered_a_reentry_and_buys_it_through_the_ledger(make_player,
                                                                            fake_timers):
    tournament, users = started(make_player, 12)
    rng = random.Random(3)
    busted = []
    for _ in range(200):
        one_round(tournament, rng)
        busted = log(tournament, "busted")
        if busted:
            break
    assert busted and busted[0]["reentry"] is True  # registration is open: re-entry offered
    loser = next(u for u in users if u.pk == busted[0]["player_id"])
    wallet = wallet_account(user=loser, currency=Currency.PLAY).balance
    key = str(uuid.uuid4())
    again = tournament_register(tournament_id=tournament.pk, user=loser, key=key)
    assert tournament_register(tournament_id=tournament.pk, user=loser, key=key).pk == again.pk
    assert again.number == 2 and again.chips == STACK
    assert wallet_account(user=loser, currency=Currency.PLAY).balance == wallet - BUY_IN - FEE
    assert pool_account(tournament_id=tournament.pk, currency=Currency.PLAY).balance == \
        entries_paid(tournament) * BUY_IN  # 12 + the re-entry
    one_round(tournament, rng)
    again.refresh_from_db()
    assert again.state in (EntryState.PLAYING, EntryState.BUSTED), [
        (e.type, e.payload) for e in TournamentEvent.objects.filter(
            tournament=tournament).order_by("-version")[:8]]
    report = ledger_audit()
    assert report.ok, report.summary()


# Balancing, breaking, hand-for-hand, the end ----------------------------------------------------
def test_hand_for_hand_no_table_deals_until_every_table_finished_the_hand(make_player,
                                                                         fake_timers):
    tournament, _users = started(make_player, 12)
    a, b = tables_of(tournament)
    ts_a, ts_b = live(a.pk)[0], live(b.pk)[0]
    Tournament.objects.filter(pk=tournament.pk).update(hand_for_hand={
        str(a.pk): ts_a.hands_dealt, str(b.pk): ts_b.hands_dealt})
    rng = random.Random(4)
    assert services.hand_start(table_id=a.pk, force=True) is not None
    assert services.hand_start(table_id=b.pk, force=True) is not None  # same hand, both deal
    play_out(a.pk, rng=rng, passive=True)
    assert services.hand_start(table_id=a.pk, force=True) is None  # b still plays hand 1
    assert live(a.pk)[0].next_hand_at is None
    play_out(b.pk, rng=rng, passive=True)
    assert services.hand_start(table_id=b.pk, force=True) is not None  # the last: deals
    assert live(a.pk)[0].next_hand_at is not None  # and wakes the table that waited
    assert services.hand_start(table_id=a.pk, force=True) is not None


def test_busts_of_one_hand_for_hand_hand_at_two_tables_rank_by_starting_stack(
        make_player, fake_timers):
    """Two players bust in the same synchronised hand at different tables: the one who began
    it with more chips finishes higher (PokerStars), whichever table finished first."""
    tournament, _users = started(make_player, 12)
    a, b = tables_of(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(hand_for_hand={
        str(a.pk): live(a.pk)[0].hands_dealt, str(b.pk): live(b.pk)[0].hands_dealt})
    for table, small in ((a, 300), (b, 200)):  # a's loser starts with 300, b's with 200
        seats = list(Seat.objects.filter(table=table).order_by("number"))
        Seat.objects.filter(pk=seats[0].pk).update(chips=small)
        Seat.objects.filter(pk=seats[1].pk).update(chips=seats[1].chips + STACK - small)
    rng = random.Random(5)
    for table in (a, b):
        assert services.hand_start(table_id=table.pk, force=True) is not None
        play_out(table.pk, rng=rng, passive=True)
    losers, start_stacks = {}, {}
    for table in (a, b):  # the hand is over: the smallest stack's chips go to a neighbour
        seats = list(Seat.objects.filter(table=table).order_by("chips", "number"))
        begun = {p.seat: p.start_stack for p in live(table.pk)[2].players}
        losers[table.pk] = seats[0].player_id
        start_stacks[losers[table.pk]] = begun[seats[0].number]
        Seat.objects.filter(pk=seats[1].pk).update(chips=seats[1].chips + seats[0].chips)
        Seat.objects.filter(pk=seats[0].pk).update(chips=0)
    assert services.hand_start(table_id=a.pk, force=True) is not None  # both finished
    busts = {e["player_id"]: e["place"] for e in log(tournament, "busted")}
    ann, bob = losers[a.pk], losers[b.pk]
    assert start_stacks[ann] != start_stacks[bob]
    higher, lower = sorted((ann, bob), key=start_stacks.get, reverse=True)
    assert set(busts) == {ann, bob}
    assert (busts[higher], busts[lower]) == (11, 12)  # ranked together, by starting stack


def test_an_eighteen_player_event_balances_breaks_and_plays_to_the_end(make_player,
                                                                      fake_timers):
    """16 at the start, two late registrants, re-entries, late registration closing at level
    3, then busts across three tables: moves keep the tables within one player, broken tables
    close, hand-for-hand on the bubble, and the prizes are paid from the pool.

    The deck is the CSPRNG's and random play can end the event in a dozen hands, so the first
    three rounds are checked and called, with one player busted by hand after the first: the
    late registrants and a re-entry always come before registration closes."""
    tournament, users = started(make_player, 16)
    rng = random.Random(28)
    reentered: set[int] = set()
    for rounds in range(1, 3_000):
        if rounds == 2:
            users += [make_player("late1"), make_player("late2")]
            register(tournament, users[-2])
            register(tournament, users[-1])
            bust(tables_of(tournament)[0], 1)
        for busted in log(tournament, "busted"):
            if (busted["reentry"] and busted["player_id"] not in reentered
                    and len(reentered) < 3):
                reentered.add(busted["player_id"])
                register(tournament, next(u for u in users if u.pk == busted["player_id"]))
        if rounds == 4:  # late registration (and re-entry) closes when level 3 starts
            Tournament.objects.filter(pk=tournament.pk).update(
                started_at=timezone.now() - datetime.timedelta(minutes=10, seconds=1))
        one_round(tournament, rng, passive=rounds < 4)
        tournament.refresh_from_db()
        if tournament.state == TournamentState.FINISHED:
            break
        # Chips are never made nor lost: every entry bought one starting stack.
        assert chips_in_play(tournament) == entries_paid(tournament) * STACK, [
            (e.type, e.payload) for e in TournamentEvent.objects.filter(
                tournament=tournament).order_by("-version")[:12]]
        counts = [n for n in seated(tournament).values()]
        if len(counts) > 1 and not any(live(t.pk)[0].hand_running
                                       for t in tables_of(tournament)):
            assert max(counts) - min(counts) <= 1, counts
    assert tournament.state == TournamentState.FINISHED
    assert tournament.level >= 3 and len(reentered) >= 1
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place", "pk"))
    field = len(entries)
    assert field == 18 + len(reentered)
    assert all(e.state == EntryState.BUSTED or e.place == 1 for e in entries)
    assert sorted({e.place for e in entries})[0] == 1 and max(e.place for e in entries) <= field
    assert sum(e.prize for e in entries) == field * BUY_IN
    assert sum(e.prize > 0 for e in entries) >= 7
    assert pool_account(tournament_id=tournament.pk, currency=Currency.PLAY).balance == 0
    moved = log(tournament, "moved")
    assert moved and {m["reason"] for m in moved} >= {"break"}
    names = {u.table_name for u in users}
    assert all(m["player"] in names for m in moved)  # his public table name
    left_for = HandEvent.objects.filter(table__tournament=tournament, type="seat_left",
                                        payload__has_key="moved_to")
    assert left_for.count() == len(moved)
    closed = HandEvent.objects.filter(table__tournament=tournament, type="table_closed")
    assert closed.count() == len(tables_of(tournament))  # broken ones, then the last at the end
    switched = [e["on"] for e in log(tournament, "hand_for_hand")]
    assert switched in ([], [True, False])  # on the bubble, unless busts jumped over it
    for row in HandEvent.objects.filter(table__tournament=tournament, type__in=[
            "seat_left", "seat_taken", "table_closed"]):
        assert table_events.problems(row.payload) == [], row.payload
    assert not Seat.objects.filter(table__tournament=tournament).exists()
    report = ledger_audit()
    assert report.ok, report.summary()


def bust(table: TableConfig, count: int) -> None:
    """Between hands: the `count` smallest stacks at `table` lose their chips to the biggest
    (as if they lost the hand that just ended)."""
    seats = list(Seat.objects.filter(table=table).order_by("chips", "number"))
    lost = sum(s.chips for s in seats[:count])
    Seat.objects.filter(pk__in=[s.pk for s in seats[:count]]).update(chips=0)
    Seat.objects.filter(pk=seats[-1].pk).update(chips=seats[-1].chips + lost)


def test_hand_for_hand_starts_on_the_bubble_and_ends_in_the_money(make_player, fake_timers):
    """12 entries, 7 paid: with 8 left on two tables hand-for-hand begins (the next bust is
    the bubble); the bubble's bust ends it."""
    tournament, _users = started(make_player, 12)
    rng = random.Random(6)
    a, b = tables_of(tournament)
    for table in (a, b):
        assert services.hand_start(table_id=table.pk, force=True) is not None
        play_out(table.pk, rng=rng, passive=True)
    bust(a, 2)
    bust(b, 2)
    assert services.hand_start(table_id=a.pk, force=True) is not None
    tournament.refresh_from_db()
    assert log(tournament, "hand_for_hand") == [
        {"type": "hand_for_hand", "on": True, "players_left": 8, "paid": 7}]
    assert tournament.hand_for_hand == {str(a.pk): live(a.pk)[0].hands_dealt - 1,
                                        str(b.pk): live(b.pk)[0].hands_dealt}
    play_out(a.pk, rng=rng, passive=True)
    bust(a, 1)
    assert services.hand_start(table_id=a.pk, force=True) is None  # b has not played it yet
    assert Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING).count() == 8
    assert services.hand_start(table_id=b.pk, force=True) is not None
    play_out(b.pk, rng=rng, passive=True)
    assert services.hand_start(table_id=b.pk, force=True) is not None  # a's bust: the bubble
    tournament.refresh_from_db()
    assert tournament.hand_for_hand is None
    assert [e["on"] for e in log(tournament, "hand_for_hand")] == [True, False]
    assert log(tournament, "busted")[-1]["place"] == 8


def test_the_sweeper_settles_a_table_whose_next_step_a_restart_lost(make_player, fake_timers):
    """A hand ended, but the step after it was lost (no hand timed, as after a worker killed
    with its timers): the tournaments' sweeper runs it."""
    tournament, _users = started(make_player, 12)
    a, _b = tables_of(tournament)
    assert services.hand_start(table_id=a.pk, force=True) is not None
    play_out(a.pk, rng=random.Random(8), passive=True)
    hands = live(a.pk)[0].hands_dealt
    type(live(a.pk)[0]).objects.filter(pk=a.pk).update(next_hand_at=None)  # the lost step
    report = tournaments_sweep()
    assert report["settled"] >= 1
    assert live(a.pk)[0].hands_dealt == hands + 1 and live(a.pk)[0].hand_running


# Rebuys -----------------------------------------------------------------------------------------
def test_a_busted_players_rebuy_is_taken_before_another_tables_step_ranks_the_busts(
        make_player, fake_timers):
    """His table waits between hands; another table's hand start runs the step over every
    table: his rebuy's chips join his stack first, so he is not out; chips in play are
    entries x stack + chips bought."""
    tournament = scheduled(max_rebuys=1, rebuy_levels=2, rebuy_price=500, rebuy_chips=STACK,
                           rebuy_max_stack=0)
    users = [make_player(f"p{k}") for k in range(1, 13)]
    for user in users:
        register(tournament, user)
    tournament = start(tournament)
    rng = random.Random(9)
    one_round(tournament, rng, passive=True)
    a, b = tables_of(tournament)
    bust(a, 1)
    loser = Seat.objects.filter(table=a, chips=0).get().player
    rebought = tournament_rebuy(tournament_id=tournament.pk, user=loser, key=str(uuid.uuid4()))

    assert services.hand_start(table_id=b.pk, force=True) is not None  # the other table

    assert Seat.objects.get(player=loser).chips == STACK
    assert Entry.objects.get(tournament=tournament, user=loser).state == EntryState.PLAYING
    assert not log(tournament, "busted")
    assert chips_in_play(tournament) == entries_paid(tournament) * STACK + rebought.chips
    assert pool_account(tournament_id=tournament.pk, currency=Currency.PLAY).balance == \
        entries_paid(tournament) * BUY_IN + 500
    report = ledger_audit()
    assert report.ok, report.summary()


def test_a_late_registrant_waiting_for_his_seat_brings_the_chips_he_bought(make_player,
                                                                          fake_timers):
    tournament = scheduled(max_rebuys=1, rebuy_levels=2, rebuy_price=500, rebuy_chips=STACK,
                           rebuy_max_stack=STACK)
    for k in range(1, 13):
        register(tournament, make_player(f"p{k}"))
    tournament = start(tournament)
    one_round(tournament, random.Random(10), passive=True)
    late = make_player("late")
    register(tournament, late)  # paid, waiting for the next step's seat
    tournament_rebuy(tournament_id=tournament.pk, user=late, key=str(uuid.uuid4()))
    for table in tables_of(tournament):
        if services.hand_start(table_id=table.pk, force=True) is not None:
            break
    assert Seat.objects.get(player=late).chips == 2 * STACK
    assert log(tournament, "seated")[0]["stack"] == 2 * STACK
    assert chips_in_play(tournament) == entries_paid(tournament) * STACK + STACK
