"""Hole-card privacy: over many random hands, no frame sent to anyone but the owner carries a
hole card before that hand is shown — not to opponents, spectators or staff."""
from __future__ import annotations

import bisect
import random
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables import services
from tables.models import Hand, HandEvent, Seat, TableState
from tests.tables.ws import Client, play_hand

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]

HANDS = 15


def strings_in(value: Any) -> set[str]:
    """Every string leaf of a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def hand_facts(table_id: int) -> tuple[list[int], list[dict[str, Any]]]:
    """Per hand (by the version its hand_start got): owner and shown version of each card."""
    starts, facts = [], []
    for hand in Hand.objects.filter(table_id=table_id).order_by("number"):
        events = list(HandEvent.objects.filter(hand=hand).order_by("version"))
        shown_at = {e.payload["seat"]: e.version for e in events if e.type == "shown"}
        cards = {}
        for p in hand.state["players"]:
            for card in p["hole"]:
                cards[card] = (int(p["player_id"]), shown_at.get(p["seat"]))
        starts.append(events[0].version)
        facts.append(cards)
    return starts, facts


def leaks(client: Client, starts: list[int], facts: list[dict[str, Any]]) -> list[str]:
    viewer = client.user.pk if client.user else None
    found = []
    for frame in client.frames:
        version = frame.get("version")
        if version is None:
            continue
        i = bisect.bisect_right(starts, version) - 1
        if i < 0:
            continue
        for card in strings_in(frame) & facts[i].keys():
            owner, shown_at = facts[i][card]
            if owner != viewer and (shown_at is None or version < shown_at):
                found.append(f"{client.name} saw {card} of user {owner} at version {version}: "
                             f"{frame}")
    return found


def key_leaks(client: Client, table_id: int) -> list[str]:
    """A deck key in any frame, ever (snapshots and recent hands included), would let its holder
    know every card of that hand, shown or not (tables/engine/fairness.py)."""
    keys = set(Hand.objects.filter(table_id=table_id).values_list("deck_key", flat=True))
    keys.add(TableState.objects.get(pk=table_id).next_deck_key)
    return [f"{client.name} saw a deck key at version {frame.get('version')}"
            for frame in client.frames for key in keys if key and key in strings_in(frame)]


def refill(table_id: int) -> None:
    for seat in Seat.objects.filter(table_id=table_id, chips__lt=100):
        services.seat_top_up(table_id=table_id, user_id=seat.player_id, amount=200 - seat.chips,
                        idempotency_key=f"refill-{uuid.uuid4().hex}")


async def test_no_hole_card_reaches_anyone_but_its_owner_before_showdown(
        play_table, make_player, make_user):
    users = [await sync_to_async(make_player)(n) for n in ("ann", "ben", "cat", "dan")]
    staff = await sync_to_async(make_user)(username="boss", is_staff=True, is_superuser=True)
    spectator = await Client.open(play_table.pk)
    admin = await Client.open(play_table.pk, staff)
    players = []
    for n, user in enumerate(users, start=1):
        c = await Client.open(play_table.pk, user)
        await c.drain()
        await c.send(type="sit", seat=n, amount=200)
        await c.until(lambda c=c: c.seat is not None, what="seated")
        players.append(c)
    rng = random.Random(11)
    late: list[Client] = []
    for number in range(HANDS):
        await sync_to_async(refill)(play_table.pk)
        hand = await sync_to_async(services.hand_start)(table_id=play_table.pk, force=True)
        assert hand is not None
        if number % 5 == 2:  # somebody opens a fresh socket mid-hand: snapshots are checked too
            for who in (None, users[0]):
                c = await Client.open(play_table.pk, who, name=f"late-{number}-{who}")
                await c.drain()
                late.append(c)
        await play_hand(players, [spectator, admin], rng=rng, passive=False)
    starts, facts = await sync_to_async(hand_facts)(play_table.pk)
    assert len(facts) == HANDS
    found = []
    for c in [*players, spectator, admin, *late]:
        found += leaks(c, starts, facts)
    assert found == []
    for c in [*players, spectator, admin, *late]:
        found += await sync_to_async(key_leaks)(c, play_table.pk)
    assert found == []
    # snapshots opened mid-hand name the blinds and the dealing order, and show finished hands
    # only
    for c in late:
        snap = next(f for f in c.frames if f["type"] == "snapshot")
        assert not snap["hand"]["is_over"]
        assert sorted(snap["hand"]["deal_order"]) == [1, 2, 3, 4]
        assert set(snap["hand"]["blinds"]) == {"sb", "bb", "straddle"}  # (no straddle: None)
        assert snap["recent_hands"] and all(r["commitment"] and r["summary"]
                                            for r in snap["recent_hands"])
        assert snap["hand"]["id"] not in {r["id"] for r in snap["recent_hands"]}
    # and the owners did get their cards
    for c in players:
        assert len([e for e in c.events("hole_cards") if "cards" in e]) == HANDS
    for c in [*players, spectator, admin, *late]:
        await c.close()
