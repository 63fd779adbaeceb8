"""Rebuys and the add-on through the services: a play-money Sit & Go, 1,000 + 100, 1,500
chips; levels 1 and 2 five minutes each, a ten-minute break, then levels 3 and 4; two rebuys
of 1,500 chips for 500 each through level 2 (and the break) while at or below 1,500 chips;
an add-on of 2,000 chips for 700 at the break after level 2. Hands are dealt with
`hand_start(force=True)`; players start with the 10,000-chip sign-up grant."""
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
from tables import services
from tables.errors import TableError
from tables.events import tournament_problems
from tables.models import HandEvent, Seat, TableConfig
from tables.tournaments.models import (
    Entry,
    EntryState,
    Level,
    Purchase,
    Tournament,
    TournamentEvent,
    TournamentState,
)
from tables.tournaments.services import (
    tournament_addon,
    tournament_cancel,
    tournament_create,
    tournament_rebuy,
    tournament_register,
)
from tests.tables.helpers import play_out
from tests.tables.tournaments.factories import template_make

pytestmark = pytest.mark.django_db(transaction=True)
STACK, BUY_IN, FEE, REBUY, ADDON = 1_500, 1_000, 100, 500, 700
TERMS = {"max_rebuys": 2, "rebuy_levels": 2, "rebuy_price": REBUY, "rebuy_chips": STACK,
         "rebuy_max_stack": STACK, "addon_price": ADDON, "addon_chips": 2_000}


def rebuy_sng(players: int = 2, **fields) -> Tournament:
    template = template_make(levels=0, entries_cap=players, **{**TERMS, **fields})
    for order, (small, big, is_break) in enumerate(
            [(10, 20, False), (20, 40, False), (0, 0, True), (30, 60, False),
             (40, 80, False)], start=1):
        Level.objects.create(template=template, order=order, small_blind=small,
                             big_blind=big, is_break=is_break, minutes=10 if is_break else 5)
    return tournament_create(template=template, starts_at=None, registering=True)


def started(make_player, players: int = 2, **fields) -> tuple[Tournament, TableConfig, list]:
    tournament = rebuy_sng(players, **fields)
    users = [make_player(f"p{k}") for k in range(1, players + 1)]
    for user in users:
        tournament_register(tournament_id=tournament.pk, user=user, key=str(uuid.uuid4()))
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    return tournament, TableConfig.objects.get(tournament=tournament), users


def rebuy(tournament: Tournament, user, key: str | None = None) -> Purchase:
    return tournament_rebuy(tournament_id=tournament.pk, user=user, key=key or str(uuid.uuid4()))


def addon(tournament: Tournament, user, key: str | None = None) -> Purchase:
    return tournament_addon(tournament_id=tournament.pk, user=user, key=key or str(uuid.uuid4()))


def refused(call, *args) -> str:
    with pytest.raises(TableError) as caught:
        call(*args)
    return caught.value.code


def wallet(user) -> int:
    return wallet_account(user=user, currency=Currency.PLAY).balance


def pool(tournament: Tournament) -> int:
    return pool_account(tournament_id=tournament.pk, currency=Currency.PLAY).balance


def events(tournament: Tournament, kind: str) -> list[dict]:
    return [e.payload for e in TournamentEvent.objects.filter(tournament=tournament, type=kind)
            .order_by("version")]


def clock_at(tournament: Tournament, minutes: float) -> None:
    """Move the start back: the clock now stands `minutes` after it."""
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=minutes))


def seat_chips(table: TableConfig, user) -> int:
    return Seat.objects.get(table=table, player=user).chips


def bust(table: TableConfig, loser, winner) -> None:
    """Between hands: `loser` lost his chips to `winner` in the hand that ended."""
    lost = seat_chips(table, loser)
    Seat.objects.filter(table=table, player=loser).update(chips=0)
    Seat.objects.filter(table=table, player=winner).update(chips=seat_chips(table, winner) + lost)


def chips_in_play(table: TableConfig) -> int:
    return Seat.objects.filter(table=table).aggregate(s=Sum("chips"))["s"] or 0


def audit_ok() -> None:
    report = ledger_audit()
    assert report.ok, report.summary()


# Money ------------------------------------------------------------------------------------------
def test_a_rebuy_moves_its_price_to_the_pool_once_per_key(make_player, fake_timers):
    tournament, _table, (ann, _bob) = started(make_player)
    before, key = wallet(ann), str(uuid.uuid4())

    first = rebuy(tournament, ann, key)
    again = rebuy(tournament, ann, key)  # a resent request

    assert again.pk == first.pk and Purchase.objects.count() == 1
    assert (first.kind, first.price, first.chips, first.applied_at) == ("rebuy", REBUY, STACK,
                                                                        None)
    assert wallet(ann) == before - REBUY
    assert pool(tournament) == 2 * BUY_IN + REBUY
    event = events(tournament, "rebuy")[0]
    assert tournament_problems(event) == []
    assert (event["player_id"], event["rebuys"], event["chips"], event["chips_bought"],
            event["prize_pool"]) == (ann.pk, 1, STACK, STACK, 2 * BUY_IN + REBUY)
    audit_ok()


def test_a_key_used_for_another_request_is_refused_and_moves_nothing(make_player, fake_timers):
    tournament, _table, (ann, bob) = started(make_player)
    key = str(uuid.uuid4())
    rebuy(tournament, ann, key)
    before = (wallet(bob), pool(tournament))
    assert refused(rebuy, tournament, bob, key) == "idempotency_conflict"
    assert refused(addon, tournament, ann, key) == "idempotency_conflict"
    assert (wallet(bob), pool(tournament)) == before and Purchase.objects.count() == 1


def test_a_player_who_cannot_pay_gets_nothing(make_player, fake_timers):
    tournament, _table, (ann, _bob) = started(make_player)
    wallet_account(user=ann, currency=Currency.PLAY).__class__.objects.filter(
        pk=wallet_account(user=ann, currency=Currency.PLAY).pk).update(balance=0)
    # (the ledger would disagree with that balance: only the refusal is checked here)
    assert refused(rebuy, tournament, ann) == "insufficient_funds"
    assert not Purchase.objects.exists() and not events(tournament, "rebuy")


# The rules --------------------------------------------------------------------------------------
def test_the_rebuy_window_limits_and_stack(make_player, fake_timers):
    tournament, table, (ann, bob) = started(make_player)
    outsider = make_player("outsider")
    assert refused(rebuy, tournament, outsider) == "not_in_tournament"
    rebuy(tournament, ann)  # 1,500 chips: at the limit
    assert refused(rebuy, tournament, ann) == "stack_too_big"  # 1,500 + 1,500 bought
    assert services.hand_start(table_id=table.pk, force=True) is not None  # the chips join
    play_out(table.pk, rng=random.Random(1), passive=True)
    Seat.objects.filter(table=table, player=ann).update(chips=100)
    rebuy(tournament, ann)
    assert refused(rebuy, tournament, ann) == "no_rebuys_left"  # two of two
    clock_at(tournament, 21)  # level 3: the break after level 2 is over
    assert refused(rebuy, tournament, bob) == "rebuys_closed"
    assert Purchase.objects.count() == 2


def test_bought_chips_join_the_stack_at_the_next_hand_start_never_mid_hand(make_player,
                                                                          fake_timers):
    tournament, table, (ann, _bob) = started(make_player)
    assert services.hand_start(table_id=table.pk, force=True) is not None
    rebuy(tournament, ann)  # during the hand
    assert chips_in_play(table) == 2 * STACK  # nothing joined mid-hand
    play_out(table.pk, rng=random.Random(2), passive=True)
    stack = seat_chips(table, ann)  # (0 if he lost it all: the rebuy still saves him)
    assert services.hand_start(table_id=table.pk, force=True) is not None
    start = HandEvent.objects.filter(table=table, type="hand_start").order_by("-version")[0]
    assert {p["player_id"]: p["stack"] for p in start.payload["players"]}[ann.pk] == \
        stack + STACK
    assert Purchase.objects.get().applied_at is not None
    assert HandEvent.objects.filter(table=table, type="stacks").exists()
    assert chips_in_play(table) == 2 * STACK + STACK  # entries x stack + bought


def test_a_busted_player_who_rebuys_before_the_next_hand_plays_on(make_player, fake_timers):
    tournament, table, (ann, bob, _cat) = started(make_player, 3)
    assert services.hand_start(table_id=table.pk, force=True) is not None
    play_out(table.pk, rng=random.Random(3), passive=True)
    bust(table, ann, bob)  # the hand that ended took all his chips

    rebuy(tournament, ann)  # before the next hand start ranks the busts
    assert services.hand_start(table_id=table.pk, force=True) is not None

    entry = Entry.objects.get(tournament=tournament, user=ann)
    assert entry.state == EntryState.PLAYING and entry.place is None
    assert not events(tournament, "busted")
    assert entry.chips == STACK  # the stack he is dealt this hand with
    assert chips_in_play(table) == 3 * STACK + STACK


def test_a_busted_player_who_does_not_rebuy_in_time_is_out(make_player, fake_timers):
    tournament, table, (ann, bob, _cat) = started(make_player, 3)
    assert services.hand_start(table_id=table.pk, force=True) is not None
    play_out(table.pk, rng=random.Random(3), passive=True)
    bust(table, ann, bob)
    assert services.hand_start(table_id=table.pk, force=True) is not None  # busts ranked
    assert events(tournament, "busted")[0]["player_id"] == ann.pk
    assert refused(rebuy, tournament, ann) == "not_in_tournament"


def test_the_add_on_once_at_the_break_after_the_rebuy_levels(make_player, fake_timers):
    tournament, table, (ann, bob) = started(make_player)
    assert refused(addon, tournament, ann) == "addon_closed"  # level 1
    clock_at(tournament, 11)  # the break after level 2
    before = wallet(ann)

    bought = addon(tournament, ann)

    tournament.refresh_from_db()
    assert tournament.state == TournamentState.ON_BREAK  # the purchase caught the clock up
    assert (bought.kind, bought.price, bought.chips) == ("addon", ADDON, 2_000)
    assert wallet(ann) == before - ADDON and pool(tournament) == 2 * BUY_IN + ADDON
    assert refused(addon, tournament, ann) == "addon_taken"
    rebuy(tournament, bob)  # rebuys stay open through this break too
    assert tournament_problems(events(tournament, "addon")[0]) == []
    clock_at(tournament, 21)  # level 3
    assert refused(addon, tournament, bob) == "addon_closed"
    services.hand_start(table_id=table.pk, force=True)
    assert seat_chips(table, ann) == STACK + 2_000
    assert chips_in_play(table) == 2 * STACK + 2_000 + STACK
    audit_ok()


def test_a_tournament_without_rebuys_or_add_on_refuses_both(make_player, fake_timers):
    tournament, _table, (ann, _bob) = started(
        make_player, max_rebuys=0, rebuy_levels=0, rebuy_price=0, rebuy_chips=0,
        rebuy_max_stack=0, addon_price=0, addon_chips=0)
    assert refused(rebuy, tournament, ann) == "no_rebuys"
    assert refused(addon, tournament, ann) == "no_addon"


def test_no_rebuy_before_the_start(make_player, fake_timers):
    tournament = rebuy_sng(3)
    ann = make_player("ann")
    tournament_register(tournament_id=tournament.pk, user=ann, key=str(uuid.uuid4()))
    assert refused(rebuy, tournament, ann) == "rebuys_closed"


# Cancelling and the end ------------------------------------------------------------------------
def test_cancelling_refunds_rebuys_and_add_ons_too(make_player, fake_timers):
    tournament, _table, users = started(make_player)
    grant = {u.pk: wallet(u) + BUY_IN + FEE for u in users}  # before registering
    rebuy(tournament, users[0])
    clock_at(tournament, 11)
    addon(tournament, users[1])

    tournament_cancel(tournament_id=tournament.pk, reason="test")

    assert {u.pk: wallet(u) for u in users} == grant
    assert pool(tournament) == 0
    assert not Purchase.objects.filter(refunded_at__isnull=True).exists()
    audit_ok()


def test_the_prizes_pay_out_the_rebuys_and_add_ons(make_player, fake_timers):
    tournament, table, users = started(make_player)
    rebuy(tournament, users[0])
    rng = random.Random(28)
    hands = 0
    while services.hand_start(table_id=table.pk, force=True) is not None:
        play_out(table.pk, rng=rng)
        hands += 1
        assert hands < 2_000
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    entries = Entry.objects.filter(tournament=tournament)
    assert sum(e.prize for e in entries) == 2 * BUY_IN + REBUY
    assert pool(tournament) == 0
    assert events(tournament, "finished")[0]["places"][0]["prize"] == 2 * BUY_IN + REBUY
    audit_ok()
