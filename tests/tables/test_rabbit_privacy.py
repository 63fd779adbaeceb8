"""The rabbit hunt over the socket, and what it gives away: only the board positions that
would have come, never a folded player's hole cards.

Four players fold hands out on every street before the river; after each, somebody dealt in
sends `rabbit_hunt` (and somebody not dealt in, and a second request, are refused by name).
Everything a table observer receives — a spectator's frames, every other player's frames, a
late visitor's snapshot, the anonymous hand JSON and page — is then handed to the attacker of
tests/tables/test_fair_deal_privacy.py, who rebuilds every rabbit card (the openings are real)
and no folded hole card at all."""
from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient
from django.urls import reverse

from tables import services
from tables.engine import fairness
from tables.engine.rabbit import rabbit_deals
from tables.events import problems
from tables.models import Hand
from tests.tables.helpers import live, to_act_user
from tests.tables.test_fair_deal_privacy import Material, contribute, rebuild
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]

STREETS = [0, 3, 4, 0, 3, 4]  # board cards out when the hand is folded to one player


def fold_out_at(table_id: int, board: int) -> int:
    """Check and call until `board` cards are out, then the first to act bets and everybody
    else folds. Returns the bettor's user id (the winner)."""
    while len(live(table_id)[2].board) < board:
        ts, _hand, state = live(table_id)
        action = "call" if state.current_bet > state.players[state.to_act].bet else "check"
        services.act(table_id=table_id, user_id=to_act_user(table_id), action=action,
                     expected_version=ts.version)
    ts, _hand, state = live(table_id)
    bettor = to_act_user(table_id)
    kind = "raise" if state.current_bet else "bet"
    services.act(table_id=table_id, user_id=bettor, action=kind,
                 amount=state.current_bet + 4, expected_version=ts.version)
    while live(table_id)[1].finished_at is None:
        ts = live(table_id)[0]
        services.act(table_id=table_id, user_id=to_act_user(table_id), action="fold",
                     expected_version=ts.version)
    return bettor


async def test_the_rabbit_opens_only_the_board_and_no_folded_hand_can_be_rebuilt(
        make_table, make_player, monkeypatch):
    decks = random.Random(5)
    monkeypatch.setattr("tables.services.dealing.new_key", lambda: decks.randbytes(32).hex())
    rng = random.Random(9)
    table = await sync_to_async(make_table)(
        name="Warren", structure="NL", lower_stake=2, max_seats=6, hand_pause_seconds=3600,
        rabbit_hunt_allowed=True)
    users = [await sync_to_async(make_player)(n) for n in ("ann", "ben", "cat", "dan")]
    outsider = await sync_to_async(make_player)("eve")
    spectator = await Client.open(table.pk)
    watcher = await Client.open(table.pk, outsider)  # logged in, not seated
    players, sent = [], {u.pk: {} for u in users}
    for n, user in enumerate(users, start=1):
        c = await Client.open(table.pk, user)
        await c.send(type="sit", seat=n, amount=200)
        await c.until(lambda c=c: c.seat is not None, what="seated")
        players.append(c)
    hands = []
    for number, board in enumerate(STREETS):
        for c in players:
            await contribute(c, sent[c.user.pk], rng)
        for c in players:
            await c.drain(0.05)
        hand = await sync_to_async(services.hand_start)(table_id=table.pk, force=True)
        winner = await sync_to_async(fold_out_at)(table.pk, board)
        hands.append(hand.pk)
        refused = await watcher.request(type="rabbit_hunt", hand_id=hand.pk)
        assert refused["code"] == "not_dealt_in", refused
        asker = players[number % len(players)]  # the winner or a folder, in turn
        count = len(spectator.events("rabbit_hunt"))
        await asker.send(type="rabbit_hunt", hand_id=hand.pk)
        await spectator.until(lambda n=count: len(spectator.events("rabbit_hunt")) > n,
                              what="the rabbit")
        event = spectator.events("rabbit_hunt")[-1]
        assert problems(event) == [] and len(event["board"]) == board
        assert len(event["cards"]) == 5 - board and event["hand_id"] == hand.pk
        again = await players[(number + 1) % len(players)].request(type="rabbit_hunt",
                                                                   hand_id=hand.pk)
        assert again["code"] == "already_shown"
        assert winner in {u.pk for u in users}
    fresh = await Client.open(table.pk)  # a late visitor: the last hand's rabbit is in it
    snapshot = fresh.frames[0]
    assert snapshot["hand"]["rabbit"] == spectator.events("rabbit_hunt")[-1]["cards"]
    await sync_to_async(_check)(hands, users, players, [spectator, watcher, fresh])
    for c in [*players, spectator, watcher, fresh]:
        await c.close()


def _check(hand_ids: list[int], users, players: list[Client], watchers: list[Client]) -> None:
    anonymous = HttpClient()
    public_items: list = [f for w in watchers for f in w.frames]
    for hand_id in hand_ids:
        public_items.append(anonymous.get(reverse("tables:hand_json", args=[hand_id])).json())
        public_items.append(anonymous.get(reverse("tables:hand", args=[hand_id])).content.decode())
    public = Material(public_items)
    frames = {u.pk: Material(list(c.frames)) for u, c in zip(users, players, strict=True)}
    rabbits = folded = 0
    for hand in Hand.objects.filter(pk__in=hand_ids).order_by("number"):
        state = hand.state
        n = len(state["players"])
        entropy = [e["value"] for e in hand.entropy]
        facts = {"root": hand.commitment, "entropy": entropy, "players": n}
        dealt = fairness.dealt_deck(fairness.committed(hand.deck_key), entropy)
        rabbit = rabbit_deals(n, len(state["board"]))
        # The attacker has teeth: the rabbit's openings give him exactly those cards.
        found = rebuild(public, facts, targets=[])
        assert {k: found[k] for k in rabbit} == {k: dealt[k] for k in rabbit}
        rabbits += len(rabbit)
        assert set(found) <= set(fairness.board_deals(n, 5)), "only board positions are opened"
        for i, p in enumerate(state["players"]):
            if p["shown"]:
                continue
            folded += p["folded"]
            others = public
            for uid, material in frames.items():
                if uid != int(p["player_id"]):
                    others = others + material
            deals = fairness.hole_deals(n, i)
            leaked = {k: c for k, c in rebuild(others, facts, deals).items() if k in deals}
            assert leaked == {}, f"hand {hand.number}: seat {p['seat']} rebuilt: {leaked}"
    assert rabbits == sum(5 - b for b in STREETS) and folded >= 3 * len(STREETS)
