"""A Sit & Go played through the services to its end, as the table tests play cash hands:
six players, 1,000 + 100 play money, 1,500 chips, blinds 10/20, 20/40, 30/60 five minutes
each, 65/35 for five or six entries (tests/tables/tournaments/factories.py). Hands are dealt
with `hand_start(force=True)` (`fake_timers` records the timers instead of queueing them)."""
from __future__ import annotations

import datetime
import json
import random
import uuid

import pytest
from django.db.models import Sum
from django.utils import timezone

from cashier.audit import ledger_audit
from cashier.money import Currency
from cashier.services import pool_account, wallet_account
from tables import services
from tables.engine import legal_actions
from tables.errors import TableError
from tables.events import tournament_problems
from tables.models import HandEvent, Seat, TableConfig
from tables.services.sweeps import sit_outs_expire, sweep
from tables.tournaments.models import (
    Entry,
    EntryState,
    Level,
    Tournament,
    TournamentEvent,
    TournamentState,
)
from tables.tournaments.services import (
    tournament_cancel,
    tournament_create,
    tournament_register,
)
from tables.tournaments.services.clock import tournament_clock
from tests.tables.helpers import live, play_out
from tests.tables.tournaments.factories import template_make, tournament_make

pytestmark = pytest.mark.django_db(transaction=True)
STACK, BUY_IN, FEE = 1_500, 1_000, 100


def started(make_player, tournament: Tournament | None = None, players: int = 6
            ) -> tuple[Tournament, TableConfig, list]:
    """Register `players` players (the last one fills the Sit & Go, which starts)."""
    tournament = tournament or tournament_make()
    users = [make_player(f"p{k}") for k in range(1, players + 1)]
    for user in users:
        tournament_register(tournament_id=tournament.pk, user=user, key=str(uuid.uuid4()))
    tournament.refresh_from_db()
    return tournament, TableConfig.objects.get(tournament=tournament), users


def events(tournament: Tournament, kind: str) -> list[dict]:
    return [e.payload for e in TournamentEvent.objects.filter(tournament=tournament, type=kind)
            .order_by("version")]


def hand_posts(hand_id: int) -> list[tuple[str, int, str, int]]:
    return [(e.type, e.payload["seat"], e.payload["kind"], e.payload["amount"])
            for e in HandEvent.objects.filter(hand_id=hand_id, type__in=[
                "posted_blind", "posted_ante"]).order_by("version")]


def test_a_six_player_sit_and_go_plays_to_the_end_and_pays_65_35(make_player, fake_timers):
    tournament, table, users = started(make_player)
    assert tournament.state == TournamentState.RUNNING and tournament.level == 1
    assert sorted(Seat.objects.filter(table=table).values_list("chips", flat=True)) == [STACK] * 6
    assert fake_timers.starts and fake_timers.clocks  # the first hand and the first level's end
    before = {u.pk: wallet_account(user=u, currency=Currency.PLAY).balance for u in users}
    rng, hands = random.Random(28), 0
    while services.hand_start(table_id=table.pk, force=True) is not None:
        hands += 1
        play_out(table.pk, rng=rng)
        # Seats keep their stacks between hands (a busted one with 0 until the next start):
        # tournament chips are never created nor lost.
        assert Seat.objects.filter(table=table).aggregate(s=Sum("chips"))["s"] == 6 * STACK
        assert hands < 2_000
        if hands == 1:  # mid-tournament: the pool holds the buy-ins, no escrow the chips
            report = ledger_audit()
            assert report.ok, report.summary()
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place"))
    # The deal is the CSPRNG's, so who busts when, and with whom, varies: check what holds
    # for any deal. Places rank as in sport (players who bust on one hand with one stack
    # share a place, the next place skips them) and each tie splits the prizes it spans.
    places = [e.place for e in entries]
    assert places[0] == 1 and places.count(1) == 1
    assert places == [1 + sum(q < p for q in places) for p in places]
    payouts = [3_900, 2_100, 0, 0, 0, 0]  # 65/35 of 6,000
    for place in set(places):
        tied = [e.prize for e in entries if e.place == place]
        assert sum(tied) == sum(payouts[place - 1:place - 1 + len(tied)])
        assert max(tied) - min(tied) <= 1
    assert entries[0].chips == 6 * STACK
    for entry in entries:
        paid = wallet_account(user=entry.user_id, currency=Currency.PLAY).balance
        assert paid - before[entry.user_id] == entry.prize
    assert pool_account(tournament_id=tournament.pk, currency=Currency.PLAY).balance == 0
    # One `busted` per loser, worst place first.
    assert [e["place"] for e in events(tournament, "busted")] == sorted(places[1:], reverse=True)
    finished = events(tournament, "finished")[0]["places"]
    assert sorted((p["place"], p["prize"]) for p in finished) == sorted(
        (e.place, e.prize) for e in entries)
    assert not Seat.objects.filter(table=table).exists()
    assert live(table.pk)[0].next_hand_at is None  # nothing more is dealt there
    assert services.hand_start(table_id=table.pk, force=True) is None
    report = ledger_audit()
    assert report.ok, report.summary()


def test_the_seats_hold_chips_not_money(make_player, fake_timers):
    """No buy-in, top-up or cash-out at a tournament's table."""
    _tournament, table, users = started(make_player)
    stranger = make_player("stranger")
    for attempt in (
        lambda: services.seat_take(table_id=table.pk, user=stranger, number=1, amount=200,
                                   idempotency_key="k1"),
        lambda: services.seat_leave(table_id=table.pk, user_id=users[0].pk,
                                    idempotency_key="k2"),
        lambda: services.seat_top_up(table_id=table.pk, user_id=users[0].pk, amount=100,
                                     idempotency_key="k3"),
    ):
        with pytest.raises(TableError) as refused:
            attempt()
        assert refused.value.code == "tournament_table"
    assert Seat.objects.filter(table=table).count() == 6


def test_a_new_level_applies_from_the_next_hand(make_player, fake_timers):
    tournament, table, _ = started(make_player)
    first = services.hand_start(table_id=table.pk, force=True)
    assert sorted(a for *_, a in hand_posts(first.pk)) == [10, 20]
    # Five minutes later the clock task records level 2 while the first hand still runs ...
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=tournament.started_at - datetime.timedelta(minutes=5, seconds=1))
    assert tournament_clock(tournament_id=tournament.pk).level == 2
    level = events(tournament, "level")[-1]
    assert level == {
        "type": "level", "level": 2, "small_blind": 20, "big_blind": 40, "ante": 0,
        "big_blind_ante": False, "until": level["until"],
        "next": {"small_blind": 30, "big_blind": 60, "ante": 0, "big_blind_ante": False}}
    assert level["until"] > timezone.now().isoformat()  # level 2 ends 5 minutes from its start
    assert sorted(a for *_, a in hand_posts(first.pk)) == [10, 20]  # ... which plays on
    play_out(table.pk, passive=True)
    second = services.hand_start(table_id=table.pk, force=True)
    assert sorted(a for *_, a in hand_posts(second.pk)) == [20, 40]
    start = HandEvent.objects.get(hand=second, type="hand_start").payload
    assert (start["small_blind"], start["big_blind"]) == (20, 40)  # the table shows it


def test_a_lost_clock_task_is_caught_up_by_the_next_hand(make_player, fake_timers):
    tournament, table, _ = started(make_player)
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=tournament.started_at - datetime.timedelta(minutes=10, seconds=1))
    hand = services.hand_start(table_id=table.pk, force=True)
    assert sorted(a for *_, a in hand_posts(hand.pk)) == [30, 60]
    assert Tournament.objects.get(pk=tournament.pk).level == 3


def test_the_dead_button_moves_the_big_blind_on_after_a_bust(make_player, fake_timers):
    """Positions follow the last hand's blinds (positions.py), whoever left."""
    _tournament, table, _ = started(make_player)
    hand = services.hand_start(table_id=table.pk, force=True)
    ts = live(table.pk)[0]
    small, big = ts.small_blind_seat, ts.big_blind_seat
    play_out(table.pk, passive=True)
    # The big blind's player busts (his chips to another: chips stay in play).
    loser = Seat.objects.get(table=table, number=big)
    other = Seat.objects.filter(table=table).exclude(pk=loser.pk).first()
    Seat.objects.filter(pk=other.pk).update(chips=other.chips + loser.chips)
    Seat.objects.filter(pk=loser.pk).update(chips=0)
    nxt = services.hand_start(table_id=table.pk, force=True)
    ts = live(table.pk)[0]
    assert (ts.button_seat, ts.small_blind_seat) == (small, big)  # the small blind is dead
    posts = hand_posts(nxt.pk)
    assert [kind for _, _, kind, _ in posts] == ["forced"]  # the big blind only
    assert posts[0][1] == ts.big_blind_seat != big
    assert hand.pk != nxt.pk


def test_a_big_blind_ante_level(make_player, fake_timers):
    template = template_make(levels=1)
    Level.objects.filter(template=template).update(ante=20, big_blind_ante=True)
    _tournament, table, _ = started(make_player, tournament_create(template=template))
    hand = services.hand_start(table_id=table.pk, force=True)
    ts = live(table.pk)[0]
    posts = hand_posts(hand.pk)
    assert ("posted_ante", ts.big_blind_seat, "ante", 20) in posts  # one ante, for the table
    assert sorted((s, a) for t, s, _, a in posts if t == "posted_blind") == sorted(
        [(ts.small_blind_seat, 10), (ts.big_blind_seat, 20)])
    assert len([p for p in posts if p[0] == "posted_ante"]) == 1


def test_simultaneous_busts_rank_by_the_stack_each_started_the_hand_with(make_player,
                                                                         fake_timers):
    tournament, table, _ = started(make_player)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    short, shorter, big = seats[0], seats[1], seats[2]
    # Before the first hand: 1,000 and 500 chips for two players (the rest to a third).
    Seat.objects.filter(pk=short.pk).update(chips=1_000)
    Seat.objects.filter(pk=shorter.pk).update(chips=500)
    Seat.objects.filter(pk=big.pk).update(chips=big.chips + 1_500)
    services.hand_start(table_id=table.pk, force=True)
    play_out(table.pk, passive=True)
    # Both lose everything on that hand (their chips go to the big stack).
    lost = Seat.objects.filter(pk__in=[short.pk, shorter.pk]).aggregate(s=Sum("chips"))["s"]
    Seat.objects.filter(pk__in=[short.pk, shorter.pk]).update(chips=0)
    Seat.objects.filter(pk=big.pk).update(chips=Seat.objects.get(pk=big.pk).chips + lost)
    services.hand_start(table_id=table.pk, force=True)
    place = {e.user_id: e.place for e in Entry.objects.filter(tournament=tournament,
                                                               state=EntryState.BUSTED)}
    assert place == {short.player_id: 5, shorter.player_id: 6}
    # announced worst first, as the places are given out
    assert [(e["player_id"], e["place"]) for e in events(tournament, "busted")] == [
        (shorter.player_id, 6), (short.player_id, 5)]


def test_equal_starting_stacks_tie_and_split_their_places(make_player, fake_timers):
    """Two players who began the hand with 1,500 each bust on it: they tie for 5th-6th
    (ranking.py: both get the better place, and split the prizes of both, here none)."""
    tournament, table, _ = started(make_player)
    services.hand_start(table_id=table.pk, force=True)
    play_out(table.pk, passive=True)
    start = {p.seat: p.start_stack for p in live(table.pk)[2].players}
    seats = [s for s in Seat.objects.filter(table=table).order_by("number")
             if start.get(s.number) == STACK][:2]
    assert len(seats) == 2
    total = sum(s.chips for s in seats)
    keeper = Seat.objects.filter(table=table).exclude(pk__in=[s.pk for s in seats]).first()
    Seat.objects.filter(pk__in=[s.pk for s in seats]).update(chips=0)
    Seat.objects.filter(pk=keeper.pk).update(chips=keeper.chips + total)
    services.hand_start(table_id=table.pk, force=True)
    busted = Entry.objects.filter(tournament=tournament, state=EntryState.BUSTED)
    assert sorted(e.place for e in busted) == [5, 5]  # tied for 5th-6th


def test_a_player_sitting_out_is_dealt_in_and_blinded_off_never_removed(make_player,
                                                                        fake_timers):
    _, table, users = started(make_player)
    away = users[0]
    services.sit_out(table_id=table.pk, user_id=away.pk)
    number, posted = Seat.objects.get(table=table, player=away).number, []
    for _ in range(6):  # round the table: he posts each blind in turn
        hand = services.hand_start(table_id=table.pk, force=True)
        posted += [kind for kind, seat, _, _ in hand_posts(hand.pk) if seat == number]
        _, _, state = live(table.pk)
        assert str(away.pk) in [p.player_id for p in state.players]
        while True:
            ts, hand, state = live(table.pk)
            if hand.finished_at is not None:
                break
            to_act = int(state.players[state.to_act].player_id)
            if to_act == away.pk:  # his turn is over at once: the timeout rule acts for him
                assert hand.deadline <= datetime.datetime.now(datetime.UTC)
                assert services.hand_timeout(hand_id=hand.pk, version=hand.version)
            else:
                play_out_one(table.pk, ts.version, to_act)
    assert posted == ["posted_blind", "posted_blind"]  # blinded off: the small and the big
    TableConfig.objects.filter(pk=table.pk).update(sit_out_limit_minutes=1)  # even then
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=1)
    assert sit_outs_expire(table_id=table.pk, now=later) == 0  # ... never removed
    assert sweep(now=later).sit_outs_removed == 0
    assert Seat.objects.filter(table=table, player=away).exists()


def play_out_one(table_id: int, version: int, user_id: int) -> None:
    """Check or fold: nobody but the blinds puts chips in."""
    la = legal_actions(live(table_id)[2])
    services.act(table_id=table_id, user_id=user_id, action="check" if la.check else "fold",
                 expected_version=version)


def test_a_sit_and_go_that_fills_opens_the_next_one_of_its_template(make_player, fake_timers):
    template = template_make(entries_cap=2, seats_per_table=2,
                             payouts=[(1, 2, [10_000])])
    first, _, _ = started(make_player, tournament_create(template=template), players=2)
    assert first.state == TournamentState.RUNNING
    following = Tournament.objects.get(template=template, state=TournamentState.REGISTERING)
    assert following.pk != first.pk and following.structure == first.structure

    tournament_register(tournament_id=following.pk, user=make_player("late"),
                        key=str(uuid.uuid4()))  # half full: nothing new yet
    assert Tournament.objects.filter(template=template).count() == 2
    template.is_active = False  # the operator retires it: the last one opens none
    template.save()
    tournament_register(tournament_id=following.pk, user=make_player("last"),
                        key=str(uuid.uuid4()))
    assert list(Tournament.objects.filter(template=template).values_list("state", flat=True)
                .order_by("pk")) == [TournamentState.RUNNING, TournamentState.RUNNING]


def test_a_sit_and_go_cancelled_while_playing_empties_its_table(make_player, fake_timers):
    tournament, table, users = started(make_player)
    services.hand_start(table_id=table.pk, force=True)
    play_out(table.pk, passive=True)
    tournament_cancel(tournament_id=tournament.pk, reason="server maintenance")
    assert services.hand_start(table_id=table.pk, force=True) is None
    assert not Seat.objects.filter(table=table).exists()
    for user in users:  # everyone refunded buy-in and fee
        assert wallet_account(user=user, currency=Currency.PLAY).balance == 10_000
    report = ledger_audit()
    assert report.ok, report.summary()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_sit_and_go_ends_with_every_place_given_and_the_pool_paid_out(
        make_player, fake_timers, seed):
    """Whatever the hands: chips stay 6 x 1,500, the places run 1..6 (a tie covers the places
    below its best), and the prizes add up to the pool, which ends empty."""
    tournament, table, _ = started(make_player)
    rng = random.Random(seed)
    while services.hand_start(table_id=table.pk, force=True) is not None:
        play_out(table.pk, rng=rng)
        assert Seat.objects.filter(table=table).aggregate(s=Sum("chips"))["s"] in (
            6 * STACK, None)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place"))
    places = [e.place for e in entries]
    expected, k = [], 0
    while k < len(places):  # each group of equal places starts where the last one ended
        tied = places.count(places[k])
        assert places[k] == k + 1
        expected += [k + 1] * tied
        k += tied
    assert places == expected and places.count(1) == 1
    assert sum(e.prize for e in entries) == 6 * BUY_IN
    assert pool_account(tournament_id=tournament.pk, currency=Currency.PLAY).balance == 0
    assert ledger_audit().ok


def test_every_tournament_event_is_typed_and_names_players_by_table_name(make_player,
                                                                         fake_timers):
    """A Sit & Go played to its end logs only events of tables/events.py's tournament
    vocabulary; players appear by their public table name, never their login; the level
    says when it ends."""
    tournament = tournament_make()
    users = [make_player(f"login{k}") for k in range(1, 7)]
    for k, user in enumerate(users, start=1):
        user.display_name = f"Shown {k}"
        user.save(update_fields=["display_name"])
        tournament_register(tournament_id=tournament.pk, user=user, key=str(uuid.uuid4()))
    table = TableConfig.objects.get(tournament=tournament)
    rng, hands = random.Random(7), 0
    while services.hand_start(table_id=table.pk, force=True) is not None and hands < 2_000:
        hands += 1
        play_out(table.pk, rng=rng)
    logged = list(TournamentEvent.objects.filter(tournament=tournament).order_by("version"))
    assert {e.type for e in logged} >= {"created", "registered", "started", "level", "chips",
                                        "busted", "finished"}
    for row in logged:
        assert tournament_problems(row.payload) == [], row.payload
        assert "login" not in json.dumps(row.payload), row.payload
    names = {u.pk: u.table_name for u in users}
    for row in logged:
        if "player_id" in row.payload:
            assert row.payload["player"] == names[row.payload["player_id"]]
    level = events(tournament, "level")[0]
    started_at = Tournament.objects.get(pk=tournament.pk).started_at
    assert level["until"] == (started_at + datetime.timedelta(minutes=5)).isoformat()
    assert level["next"] == {"small_blind": 20, "big_blind": 40, "ante": 0,
                             "big_blind_ante": False}
    chips = events(tournament, "chips")[0]
    assert chips["table_id"] == table.pk and sum(chips["stacks"].values()) == 6 * STACK
