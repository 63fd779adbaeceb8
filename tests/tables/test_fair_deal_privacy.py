"""After the hand, nobody but its owner can rebuild a hole card that was not shown — and every
player still proves his own cards and the board against the commitment.

Hands with folds, mucks, timeouts, all-ins, shows at showdown and shows after folding are
played over sockets whose players send entropy as the browser does. Then everything a
non-owner can get is collected — what an anonymous visitor, a spectator socket and each other
seated player receive: events, snapshots, recent hands, hand JSON and pages, PHH and
PokerStars downloads — and an attacker tries to rebuild each unshown hand from it with the
engine's own functions: any 64-hex string as a deck key (this scheme's or an old seed), every
opening it can verify, and every 32-hex string as a salt against every hash it has seen."""
from __future__ import annotations

import datetime
import functools
import hashlib
import json
import random
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient
from django.urls import reverse

from tables import services
from tables.engine import fairness
from tables.engine.deck import FRESH_DECK, shuffled_deck
from tables.models import Hand
from tests.tables.helpers import live
from tests.tables.ws import Client

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("fake_timers", "close_db_threads")]

HANDS = 12
HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
HEX32 = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")


# The attacker ---------------------------------------------------------------------------------
def openings_in(value: Any) -> list[dict[str, Any]]:
    """Every object shaped like an opening, anywhere in a JSON value."""
    if isinstance(value, dict):
        found = [value] if {"deal", "position", "card", "salt", "path"} <= value.keys() else []
        return found + [o for v in value.values() for o in openings_in(v)]
    if isinstance(value, list):
        return [o for v in value for o in openings_in(v)]
    return []


class Material:
    """What someone got (JSON values and texts), as the attacker reads it: every 64-hex and
    32-hex string in it, and every object shaped like an opening."""

    def __init__(self, items: list[Any]) -> None:
        text = "\n".join(m if isinstance(m, str) else json.dumps(m) for m in items)
        self.hashes = set(HEX64.findall(text))
        self.salts = set(HEX32.findall(text))
        self.openings = [o for m in items if not isinstance(m, str) for o in openings_in(m)]

    def __add__(self, other: Material) -> Material:
        both = Material([])
        both.hashes, both.salts = self.hashes | other.hashes, self.salts | other.salts
        both.openings = self.openings + other.openings
        return both


@functools.cache
def roots_of(token: str) -> tuple[str, str]:
    """The commitments `token` would have as a deck key, and as an old seed."""
    return fairness.committed(token).root, hashlib.sha256(bytes.fromhex(token)).hexdigest()


def rebuild(material: Material, hand: dict[str, Any], targets: Any = None) -> dict[int, str]:
    """What `material` gives away of `hand`'s deal (deal position → card), by every means the
    engine offers; `hand`: its public facts (root, entropy, players); `targets`: the deal
    positions whose salts are tried (default: every hole card)."""
    root, entropy, n = hand["root"], hand["entropy"], hand["players"]
    order = fairness.deal_order(root, entropy)
    found: dict[int, str] = {}
    for token in material.hashes:  # a deck key of this scheme, or a published seed of the old
        committed_root, seed_commitment = roots_of(token)
        if committed_root == root:
            found.update(enumerate(fairness.dealt_deck(fairness.committed(token), entropy)))
        if seed_commitment == root:
            found.update(enumerate(shuffled_deck(token)))
    verified = [o for o in material.openings if not fairness.opening_problems(root, order, o)]
    for o in verified:  # openings it can verify against the root
        found[o["deal"]] = o["card"]
    # An opened position's path starts with its neighbour's leaf hash: every salt seen is tried
    # with every card at that neighbour.
    beside = {o["position"] ^ 1: o["path"][0] for o in verified}
    for k in targets if targets is not None else range(2 * n):
        if k in found or order[k] not in beside:
            continue
        for salt in material.salts:
            for card in FRESH_DECK:
                if fairness.leaf_hash(order[k], card, bytes.fromhex(salt)).hex() == beside[order[k]]:
                    found[k] = card
    return found


def test_the_attacker_rebuilds_a_hand_from_its_key_its_openings_or_its_salts():
    """The attack has teeth: given the secret, it finds the cards."""
    key, entropy = "5a" * 32, ["01" * 32]
    deck = fairness.committed(key)
    dealt = fairness.dealt_deck(deck, entropy)
    hand = {"root": deck.root, "entropy": entropy, "players": 3}
    assert rebuild(Material([{"note": key}]), hand)[0] == dealt[0]
    assert rebuild(Material([{"x": fairness.openings(deck, entropy, [4])}]), hand) == {
        4: dealt[4]}
    order = fairness.deal_order(deck.root, entropy)
    neighbour = fairness.openings(deck, entropy, [order.index(order[2] ^ 1)])
    leaked_salt = deck.salts[order[2]].hex()  # the salt of deal position 2, and a path past it
    assert rebuild(Material([neighbour[0], leaked_salt]), hand).get(2) == dealt[2]
    assert rebuild(Material([neighbour[0]]), hand).get(2) is None
    assert rebuild(Material([{"root": deck.root, "entropy": entropy}]), hand) == {}


# The hands ------------------------------------------------------------------------------------
def latest_commitment(client: Client) -> str | None:
    found = None
    for frame in client.frames:
        if frame["type"] == "snapshot":
            found = frame.get("next_commitment") or found
        elif frame["type"] == "event" and frame["event"].get("next_commitment"):
            found = frame["event"]["next_commitment"]
    return found


async def contribute(client: Client, sent: dict[str, str], rng: random.Random) -> None:
    """What the browser does (static/js/entropy.js): answer each new commitment once."""
    await client.drain(0)
    commitment = latest_commitment(client)
    if commitment and commitment not in sent:
        sent[commitment] = rng.randbytes(32).hex()
        await client.send(type="entropy", commitment=commitment, value=sent[commitment])


def time_out(table_id: int) -> None:
    _ts, hand, _ = live(table_id)
    hand.deadline = hand.deadline - datetime.timedelta(hours=1)
    hand.save(update_fields=["deadline"])
    services.hand_timeout(hand_id=hand.pk, version=hand.version)


async def play(players: list[Client], watchers: list[Client], table_id: int,
               rng: random.Random, kinds: set[str]) -> None:
    everyone = players + watchers
    ends = {c.name: len(c.events("hand_end")) for c in everyone}
    for _ in range(400):
        for c in everyone:
            await c.drain(0.01)
        if all(len(c.events("hand_end")) > ends[c.name] for c in everyone):
            return
        turn = next(((c, c.my_turn()) for c in players if c.my_turn()), None)
        if turn is None:
            continue
        c, legal = turn
        roll = rng.random()
        before = c.version
        if roll < 0.08:
            await sync_to_async(time_out)(table_id)
            kinds.add("timeout")
        elif roll < 0.2:
            await c.send(type="act", action="fold", version=c.version)
            kinds.add("fold")
        elif roll < 0.3 and legal["raise"]:
            await c.send(type="act", action="raise", amount=legal["max_to"], version=c.version)
            kinds.add("all-in")
        else:
            await c.send(type="act", action="check" if legal["check"] else "call",
                         version=c.version)
        await c.until(lambda c=c, v=before: c.version > v or bool(c.errors()), what="a reply")
        assert not c.errors(), c.errors()
    raise AssertionError("the hand did not finish")


async def test_no_unshown_hole_card_can_be_rebuilt_by_anyone_but_its_owner(
        make_table, make_player, monkeypatch):
    decks = random.Random(3)
    monkeypatch.setattr("tables.services.dealing.new_key", lambda: decks.randbytes(32).hex())
    rng = random.Random(8)
    play_table = await sync_to_async(make_table)(  # a long pause: shows after the hand
        name="Private", structure="NL", lower_stake=2, max_seats=6, hand_pause_seconds=3600)
    users = [await sync_to_async(make_player)(n) for n in ("ann", "ben", "cat", "dan")]
    spectator = await Client.open(play_table.pk)
    players, sent = [], {u.pk: {} for u in users}
    for n, user in enumerate(users, start=1):
        c = await Client.open(play_table.pk, user)
        await c.send(type="sit", seat=n, amount=200)
        await c.until(lambda c=c: c.seat is not None, what="seated")
        players.append(c)
    kinds: set[str] = set()
    for number in range(HANDS):
        for c in players:
            await sync_to_async(_refill)(play_table.pk, c.user.pk, number)
            await sync_to_async(_sit_in)(play_table.pk, c.user.pk)
        for c in players:
            await contribute(c, sent[c.user.pk], rng)
        for c in players:  # the contributions are in before the deal
            await c.drain(0.05)
        hand = await sync_to_async(services.hand_start)(table_id=play_table.pk, force=True)
        assert hand is not None
        await play(players, [spectator], play_table.pk, rng, kinds)
        folded = await sync_to_async(_a_folded_player)(hand.pk)
        if folded is not None and number % 3 == 0:  # shows his folded hand in the pause
            c = next(c for c in players if c.user.pk == folded)
            await c.send(type="show")
            await c.until(lambda c=c: c.events()[-1]["type"] == "shown", what="his show")
            kinds.add("shown after fold")
    fresh = await Client.open(play_table.pk)  # a late visitor's snapshot and recent hands
    await sync_to_async(_check)(users, players, [spectator, fresh], sent, kinds)
    for c in [*players, spectator, fresh]:
        await c.close()


def _refill(table_id: int, user_id: int, number: int) -> None:
    from tables.models import Seat

    seat = Seat.objects.get(table_id=table_id, player_id=user_id)
    if seat.chips < 100:
        services.seat_top_up(table_id=table_id, user_id=user_id, amount=200 - seat.chips,
                        idempotency_key=f"refill-{number}-{user_id}")


def _sit_in(table_id: int, user_id: int) -> None:
    from tables.models import Seat, SeatStatus

    if Seat.objects.get(table_id=table_id, player_id=user_id).status != SeatStatus.PLAYING:
        services.sit_in(table_id=table_id, user_id=user_id)


def _a_folded_player(hand_id: int) -> int | None:
    state = Hand.objects.get(pk=hand_id).state
    return next((int(p["player_id"]) for p in state["players"] if p["folded"]), None)


def _check(users: list[Any], players: list[Client], watchers: list[Client],
           sent: dict[int, dict[str, str]], kinds: set[str]) -> None:
    hands = list(Hand.objects.filter(finished_at__isnull=False).order_by("number"))
    assert len(hands) == HANDS
    anonymous = HttpClient()
    items: list[Any] = [f for w in watchers for f in w.frames]
    for hand in hands:
        items.append(anonymous.get(reverse("tables:hand_json", args=[hand.pk])).json())
        items.append(anonymous.get(reverse("tables:hand", args=[hand.pk])).content.decode())
    public = Material(items)
    own: dict[int, Material] = {}  # what each player gets
    own_json: dict[tuple[int, int], dict[str, Any]] = {}
    for user, c in zip(users, players, strict=True):
        http = HttpClient()
        http.force_login(user)
        mine: list[Any] = list(c.frames)
        for hand in hands:
            own_json[user.pk, hand.pk] = http.get(reverse("tables:hand_json", args=[hand.pk])).json()
            mine.append(own_json[user.pk, hand.pk])
            mine.append(http.get(reverse("tables:hand", args=[hand.pk])).content.decode())
            for fmt in ("pokerstars", "phh"):
                got = http.get(reverse("tables:hand_download", args=[hand.pk, fmt]))
                if got.status_code == 200:
                    mine.append(got.content.decode())
        for fmt in ("pokerstars", "phh"):
            mine.append(http.get(reverse("tables:my_hands_download", args=[fmt])).content
                        .decode())
        own[user.pk] = Material(mine)
    mucked = shown = unshown = 0
    for hand in hands:
        state = hand.state
        n = len(state["players"])
        facts = {"root": hand.commitment, "entropy": [e["value"] for e in hand.entropy],
                 "players": n}
        assert hand.entropy, "the players' entropy fixed the deal order"
        dealt = fairness.dealt_deck(fairness.committed(hand.deck_key), facts["entropy"])
        for i, p in enumerate(state["players"]):
            owner = int(p["player_id"])
            deals = fairness.hole_deals(n, i)
            assert [dealt[k] for k in deals] == p["hole"]
            mucked += p["mucked"]
            if p["shown"]:
                shown += 1
                continue
            unshown += 1
            others = public
            for uid, material in own.items():
                if uid != owner:
                    others = others + material
            leaked = {k: c for k, c in rebuild(others, facts, deals).items() if k in deals}
            assert leaked == {}, f"hand {hand.number}: {p['seat']}'s cards rebuilt: {leaked}"
            # his own material proves his own cards, with his own entropy in the deal
            data = own_json[owner, hand.pk]
            assert fairness.verify_hand(data, my_entropy=sent[owner][hand.commitment]) == []
            assert set(deals) <= set(fairness.seen_cards(data))
            assert {k: c for k, c in rebuild(own[owner], facts, deals).items() if k in deals} == {
                k: dealt[k] for k in deals}
    assert kinds >= {"timeout", "fold", "all-in", "shown after fold"}, kinds
    assert mucked and shown and unshown, (mucked, shown, unshown)
    print(f"privacy scan: {HANDS} hands, {shown + unshown} hand records, {shown} shown, "
          f"{unshown} unshown ({mucked} mucked), 0 rebuilt from what others received")
