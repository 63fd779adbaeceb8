"""Registering and unregistering: a play-money Sit & Go for six, 1,000 + 100, 1,500 chips
(tests/tables/tournaments/factories.py); players start with the 10,000-chip sign-up grant."""
from __future__ import annotations

import uuid

import pytest

from cashier.audit import ledger_audit
from cashier.models import AccountKind, IdempotencyRecord
from cashier.money import Currency
from cashier.services import pool_account, self_exclusion_start, system_account, wallet_account
from tables.errors import TableError
from tables.tournaments.models import (
    Entry,
    EntryState,
    Tournament,
    TournamentEvent,
    TournamentKind,
    TournamentState,
)
from tables.tournaments.services import tournament_register, tournament_unregister
from tests.tables.tournaments.factories import tournament_make

pytestmark = pytest.mark.django_db
PLAY = Currency.PLAY


def key() -> str:
    return str(uuid.uuid4())


@pytest.fixture
def sng() -> Tournament:
    return tournament_make()


def register(tournament: Tournament, user, request: str | None = None) -> Entry:
    return tournament_register(tournament_id=tournament.pk, user=user,
                               key=key() if request is None else request)


def unregister(tournament: Tournament, user, request: str | None = None) -> Entry:
    return tournament_unregister(tournament_id=tournament.pk, user=user,
                                 key=key() if request is None else request)


def wallet(user, currency: str = PLAY) -> int:
    return wallet_account(user=user, currency=currency).balance


def pool(tournament: Tournament) -> int:
    return pool_account(tournament_id=tournament.pk, currency=tournament.currency).balance


def event_types(tournament: Tournament) -> list[str]:
    return list(TournamentEvent.objects.filter(tournament=tournament)
                .order_by("version").values_list("type", flat=True))


def refused(call, *args) -> TableError:
    with pytest.raises(TableError) as caught:
        call(*args)
    return caught.value


# Registering ----------------------------------------------------------------------------------
def test_registering_pays_the_buy_in_and_fee_and_gives_a_full_starting_stack(make_player, sng):
    ann = make_player("ann")

    entry = register(sng, ann)

    assert (entry.number, entry.state, entry.chips) == (1, EntryState.REGISTERED, 1_500)
    assert (wallet(ann), pool(sng)) == (8_900, 1_000)
    assert system_account(kind=AccountKind.HOUSE, currency=PLAY).balance == 100
    assert event_types(sng) == ["created", "registered"]
    last = TournamentEvent.objects.get(tournament=sng, type="registered")
    assert last.payload == {"type": "registered", "player": "ann", "player_id": ann.pk,
                            "entry": 1, "entries": 1, "players": 1, "prize_pool": 1_000,
                            "payouts": [{"place": 1, "share": 10_000, "prize": 1_000}]}
    assert Tournament.objects.get(pk=sng.pk).version == last.version == 2
    assert ledger_audit().ok


def test_a_retried_registration_returns_the_entry_and_pays_once(make_player, sng):
    ann, request = make_player("ann"), key()
    first = register(sng, ann, request)

    again = register(sng, ann, request)

    assert again.pk == first.pk
    assert (wallet(ann), pool(sng), Entry.objects.count()) == (8_900, 1_000, 1)
    assert event_types(sng) == ["created", "registered"]


def test_a_request_key_of_another_player_is_refused(make_player, sng):
    ann, bob, request = make_player("ann"), make_player("bob"), key()
    register(sng, ann, request)
    assert refused(register, sng, bob, request).code == "idempotency_conflict"
    assert wallet(bob) == 10_000


def test_a_player_is_registered_once(make_player, sng):
    ann = make_player("ann")
    register(sng, ann)
    error = refused(register, sng, ann)
    assert error.code == "already_registered"
    assert (wallet(ann), pool(sng)) == (8_900, 1_000)


def test_a_full_sit_and_go_takes_no_more_players(make_player):
    heads_up = tournament_make(entries_cap=2, seats_per_table=2,
                               payouts=[(1, 2, [10_000])])
    register(heads_up, make_player("ann"))
    register(heads_up, make_player("bob"))
    cy = make_player("cy")
    error = refused(register, heads_up, cy)
    assert error.code == "tournament_full"
    assert "2 entries" in error.message
    assert wallet(cy) == 10_000


def test_a_player_who_cannot_pay_is_refused_with_a_clear_message_and_nothing_moves(
        make_player):
    high_roller = tournament_make(buy_in=9_500, fee=600)
    ann = make_player("ann")
    request = key()

    error = refused(register, high_roller, ann, request)

    assert error.code == "insufficient_funds"
    assert error.message == "Insufficient balance: 10,000 available, 10,100 needed."
    assert (wallet(ann), pool(high_roller), Entry.objects.count()) == (10_000, 0, 0)
    assert event_types(high_roller) == ["created"]
    assert not IdempotencyRecord.objects.filter(key=request).exists()


def test_a_self_excluded_player_is_refused(make_player, sng):
    ann = make_player("ann")
    self_exclusion_start(user=ann, days=30)
    error = refused(register, sng, ann)
    assert error.code == "self_excluded"
    assert "you cannot enter a tournament" in error.message
    assert (wallet(ann), Entry.objects.count()) == (10_000, 0)


def test_a_real_money_tournament_takes_real_money_only(make_player):
    real = tournament_make(currency=Currency.REAL, buy_in=500, fee=50)
    ann = make_player("ann")  # play money only
    error = refused(register, real, ann)
    assert error.code == "insufficient_funds"
    assert (wallet(ann), wallet(ann, Currency.REAL)) == (10_000, 0)


def test_the_pool_keeps_its_currency_whatever_the_tournament_row_says(make_player, sng):
    register(sng, make_player("ann"))
    Tournament.objects.filter(pk=sng.pk).update(currency=Currency.REAL)  # a corrupted row
    bob = make_player("bob")
    error = refused(register, sng, bob)
    assert error.code == "currency_mismatch"
    assert "this tournament is played for play money" in error.message
    assert wallet(bob, Currency.REAL) == 0
    assert pool_account(tournament_id=sng.pk, currency=PLAY).balance == 1_000


@pytest.mark.parametrize("state", [TournamentState.ANNOUNCED, TournamentState.FINISHED,
                                   TournamentState.CANCELLED, TournamentState.RUNNING])
def test_registration_is_open_only_while_registering_or_during_late_registration(
        make_player, sng, state):
    Tournament.objects.filter(pk=sng.pk).update(state=state, level=1)
    error = refused(register, sng, make_player("ann"))
    assert error.code == "registration_closed"


def test_late_registration_is_open_through_its_levels(make_player):
    late = tournament_make(kind=TournamentKind.SCHEDULED, late_registration_levels=2)
    Tournament.objects.filter(pk=late.pk).update(state=TournamentState.RUNNING, level=2)
    assert register(late, make_player("ann")).chips == 1_500
    Tournament.objects.filter(pk=late.pk).update(level=3)
    assert refused(register, late, make_player("bob")).code == "registration_closed"


# Re-entry -------------------------------------------------------------------------------------
def bust(entry: Entry) -> None:
    """What play does when the entry loses its last chip (the lead's table code, later)."""
    Entry.objects.filter(pk=entry.pk).update(state=EntryState.BUSTED, chips=0)


def test_a_busted_player_re_enters_up_to_the_limit(make_player):
    reentry = tournament_make(kind=TournamentKind.SCHEDULED, max_reentries=1,
                              late_registration_levels=3)
    ann = make_player("ann")
    bust(register(reentry, ann))

    second = register(reentry, ann)

    assert (second.number, second.chips) == (2, 1_500)
    assert (wallet(ann), pool(reentry)) == (7_800, 2_000)
    bust(second)
    assert refused(register, reentry, ann).code == "no_reentry"


def test_a_freezeout_allows_no_re_entry(make_player, sng):
    ann = make_player("ann")
    bust(register(sng, ann))
    error = refused(register, sng, ann)
    assert (error.code, error.message) == ("no_reentry",
                                           "This tournament is a freezeout: no re-entry.")


def test_registering_again_after_unregistering_is_not_a_re_entry(make_player, sng):
    ann = make_player("ann")
    register(sng, ann)
    unregister(sng, ann)
    assert register(sng, ann).number == 2
    assert (wallet(ann), pool(sng)) == (8_900, 1_000)


# Unregistering --------------------------------------------------------------------------------
def test_unregistering_before_the_start_refunds_buy_in_and_fee(make_player, sng):
    ann, bob = make_player("ann"), make_player("bob")
    register(sng, ann)
    register(sng, bob)

    entry = unregister(sng, ann)

    assert (entry.state, entry.chips) == (EntryState.UNREGISTERED, 0)
    assert (wallet(ann), pool(sng)) == (10_000, 1_000)
    assert system_account(kind=AccountKind.HOUSE, currency=PLAY).balance == 100
    assert event_types(sng) == ["created", "registered", "registered", "unregistered"]
    assert TournamentEvent.objects.get(type="unregistered").payload["prize_pool"] == 1_000
    assert ledger_audit().ok


def test_a_retried_unregistration_refunds_once(make_player, sng):
    ann, request = make_player("ann"), key()
    register(sng, ann)
    first = unregister(sng, ann, request)
    assert unregister(sng, ann, request).pk == first.pk
    assert (wallet(ann), pool(sng)) == (10_000, 0)
    assert event_types(sng).count("unregistered") == 1


def test_a_player_not_registered_cannot_unregister(make_player, sng):
    assert refused(unregister, sng, make_player("ann")).code == "not_registered"


def test_no_unregistering_once_play_has_started(make_player, sng):
    ann = make_player("ann")
    register(sng, ann)
    Tournament.objects.filter(pk=sng.pk).update(state=TournamentState.RUNNING, level=1)
    assert refused(unregister, sng, ann).code == "tournament_started"
    assert (wallet(ann), pool(sng)) == (8_900, 1_000)


def test_an_unknown_tournament_is_named(make_player):
    error = refused(register, Tournament(pk=999_999), make_player("ann"))
    assert (error.code, error.message) == ("no_tournament", "There is no tournament 999999.")


@pytest.mark.parametrize("request_key", ["", "k" * 201])
def test_a_request_without_a_valid_key_is_refused_before_anything(make_player, sng,
                                                                  request_key):
    ann = make_player("ann")
    entry = register(sng, ann)
    for call in (register, unregister):
        assert refused(call, sng, ann, request_key).code == "missing_idempotency_key"
    assert Entry.objects.get(pk=entry.pk).state == EntryState.REGISTERED
    assert (wallet(ann), pool(sng)) == (8_900, 1_000)
