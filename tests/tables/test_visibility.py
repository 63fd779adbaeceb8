"""One card-visibility rule (tables/engine/view.py, `hole_visible`): the events, the snapshot,
the hand's history and the fair deal's openings of the same finished hand reveal exactly the
same hole cards to a spectator — the shown ones — and to a player the same plus his own."""
from __future__ import annotations

from typing import Any

import pytest

from tables import services
from tables.engine import HandState, fairness, legal_actions
from tables.histories.record import load_record
from tables.models import Hand, HandEvent, TableConfig
from tables.services.dealing import hand_proof
from tables.snapshots import table_snapshot
from tests.tables.helpers import live, to_act_user

pytestmark = pytest.mark.django_db(transaction=True)
Seen = dict[int, list[str]]


def from_events(hand: Hand, user_id: int | None) -> Seen:
    seen: Seen = {}
    for row in HandEvent.objects.filter(hand=hand).order_by("version"):
        event = row.for_user(user_id)
        if event["type"] in ("hole_cards", "shown") and event.get("cards"):
            seen[event["seat"]] = event["cards"]
    return seen


def from_snapshot(table: TableConfig, user_id: int | None) -> Seen:
    snap = table_snapshot(table_id=table.pk, user_id=user_id)
    return {s["seat"]: s["cards"] for s in snap["seats"] if s["cards"]}


def from_history(hand: Hand, user_id: int | None) -> Seen:
    record = load_record(Hand.objects.select_related("table").get(pk=hand.pk))
    mine = record.seat_of(user_id)
    seen = {seat: cards for seat in record.users
            if (cards := record.visible_cards(seat, mine))}
    for e in record.for_viewer(user_id):  # the hand's page and exports read these
        if e["type"] in ("hole_cards", "shown") and e.get("cards") and None not in e["cards"]:
            assert seen.get(e["seat"]) == e["cards"], e
    return seen


def from_openings(hand: Hand, seat: int | None) -> set[int]:
    """The deal positions opened to a viewer: publicly, plus his own."""
    proof = hand_proof(hand, HandState.from_json(hand.state), seat)
    return {o["deal"] for o in [*proof.public["openings"], *proof.own_openings]}


def hole_positions(hand: Hand, seats: set[int]) -> set[int]:
    players = hand.state["players"]
    return {d for i, p in enumerate(players) if p["seat"] in seats
            for d in fairness.hole_deals(len(players), i)}


@pytest.fixture
def finished(make_table, make_player, sit, fake_timers) -> dict[str, Any]:
    """Three players: one folds (and shows afterwards), one calls to the river and folds there,
    the last wins without showing."""
    table = make_table(name="Seen", structure="NL", lower_stake=2, max_seats=6,
                       hand_pause_seconds=60)
    players = [make_player(name) for name in ("alice", "bob", "carol")]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    hand = services.hand_start(table_id=table.pk, force=True)
    folder = to_act_user(table.pk)
    services.act(table_id=table.pk, user_id=folder, action="fold")
    while (user_id := to_act_user(table.pk)) is not None:
        state = live(table.pk)[2]
        la = legal_actions(state)
        if len(state.board) == 5 and la.check:
            services.act(table_id=table.pk, user_id=user_id, action="bet", amount=la.min_to)
            user_id = to_act_user(table.pk)
            services.act(table_id=table.pk, user_id=user_id, action="fold")
            break
        services.act(table_id=table.pk, user_id=user_id, action="check" if la.check else "call")
    services.hand_show(table_id=table.pk, user_id=folder)  # after the hand, by choice
    hand = Hand.objects.get(pk=hand.pk)
    seats = {int(p["player_id"]): p["seat"] for p in hand.state["players"]}
    shown = {p["seat"] for p in hand.state["players"] if p.get("shown")}
    assert shown == {seats[folder]}  # the river's folder and the winner showed nothing
    return {"table": table, "hand": hand, "seats": seats, "shown": shown}


def test_a_spectator_sees_the_same_cards_everywhere(finished):
    table, hand, shown = finished["table"], finished["hand"], finished["shown"]
    events, snapshot, history = (from_events(hand, None), from_snapshot(table, None),
                                 from_history(hand, None))
    assert set(events) == shown
    assert events == snapshot == history
    board = set(fairness.board_deals(len(hand.state["players"]), 5))
    assert from_openings(hand, None) == board | hole_positions(hand, shown)


def test_a_player_sees_the_same_plus_his_own(finished):
    table, hand, shown = finished["table"], finished["hand"], finished["shown"]
    public = from_events(hand, None)
    for user_id, seat in finished["seats"].items():
        own = next(p["hole"] for p in hand.state["players"] if p["seat"] == seat)
        expected = {**public, seat: own}
        assert from_events(hand, user_id) == expected
        assert from_snapshot(table, user_id) == expected
        assert from_history(hand, user_id) == expected
        board = set(fairness.board_deals(len(hand.state["players"]), 5))
        assert from_openings(hand, seat) == board | hole_positions(hand, shown | {seat})
