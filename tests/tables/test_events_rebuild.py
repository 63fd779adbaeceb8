"""Events are enough to follow the table (as the browser client does): applying the events of
docs/protocol.md to an old snapshot gives what a fresh snapshot shows (Zulip's events-system
test pattern)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tables import services
from tables.models import Seat
from tables.snapshots import events_since, table_snapshot
from tests.tables.helpers import live, random_action

pytestmark = pytest.mark.django_db(transaction=True)


def apply(view: dict[str, Any], event: dict[str, Any]) -> None:
    """A client's reducer for the fields compared below."""
    kind = event["type"]
    seats = {s["seat"]: s for s in view["seats"]}
    seat = seats.get(event.get("seat"))
    if event.get("next_commitment"):  # hand_start, or the seat_taken that opens the table
        view["next_commitment"] = event["next_commitment"]
    if kind == "seat_taken":
        view["seats"].append({"seat": event["seat"], "stack": event["stack"], "bet": 0,
                              "folded": False, "status": event["status"], "post_bb": False,
                              "missed_blinds": False})
    elif kind == "seat_left":
        view["seats"] = [s for s in view["seats"] if s["seat"] != event["seat"]]
    elif kind == "status":
        seat.update(status=event["status"], post_bb=event["post_bb"],
                    missed_blinds=event["missed_blinds"])
    elif kind == "hand_start":
        view["button"], view["board"], view["to_act"] = event["button"], [], None
        view["deal_order"], view["blinds"] = event["seats"], {"straddle": None}
        view["street"], view["pots"] = "preflop", []
        for p in event["players"]:
            seats[p["seat"]].update(stack=p["stack"], bet=0, folded=False, status="playing",
                                    post_bb=False, missed_blinds=False)
    elif kind in ("posted_blind", "posted_ante"):
        seat["stack"] = event["stack"]
        seat["bet"] += event["amount"] if kind == "posted_blind" else 0
        if event["kind"] in ("sb", "bb", "straddle"):
            view["blinds"][event["kind"]] = event["seat"]
    elif kind == "action":
        seat["stack"] = event["stack"]
        if event["action"] == "fold":  # no longer eligible for the pots gathered so far
            seat["folded"] = True
            view["pots"] = [{**pot, "eligible": [n for n in pot["eligible"] if n != seat["seat"]]}
                            for pot in view["pots"]]
        elif event["action"] == "call":
            seat["bet"] += event["amount"]
        elif event["action"] in ("bet", "raise"):
            seat["bet"] = event["amount"]
    elif kind == "returned_uncalled":
        seat["stack"], seat["bet"] = event["stack"], max(seat["bet"] - event["amount"], 0)
    elif kind == "board":
        view["board"], view["street"], view["pots"] = event["board"], event["street"], event["pots"]
        for s in view["seats"]:
            s["bet"] = 0
    elif kind == "turn":
        view["to_act"], view["street"] = event["seat"], event["street"]
    elif kind in ("hand_end", "shown", "mucked", "pot_awarded"):
        view["to_act"] = None
        if kind == "hand_end":  # nobody is in a hand any more
            for s in view["seats"]:
                s["bet"], s["folded"] = 0, False
            view["recent_hands"] = [event["recent"], *view["recent_hands"]][:10]
    elif kind == "stacks":
        for number, stack in event["stacks"].items():
            if int(number) in seats:
                seats[int(number)]["stack"] = stack


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    hand = snapshot["hand"] or {}
    over = hand.get("is_over", True)
    return {
        "button": snapshot["button"],
        "board": hand.get("board", []),
        "to_act": None if over else hand.get("to_act"),
        "deal_order": hand.get("deal_order", []),
        "blinds": hand.get("blinds"),
        "street": None if over else hand.get("street"),
        "pots": None if over else hand.get("pots"),
        "recent_hands": snapshot["recent_hands"],
        "next_commitment": snapshot["next_commitment"],
        "seats": sorted(
            [{"seat": s["seat"], "stack": s["stack"], "bet": s["bet"],
              "folded": s["folded"] if not over else False, "status": s["status"],
              "post_bb": s["post_bb"], "missed_blinds": s["missed_blinds"]}
             for s in snapshot["seats"]], key=lambda s: s["seat"]),
    }


def test_events_applied_to_an_old_snapshot_match_a_fresh_one(play_table, make_player, sit,
                                                             monkeypatch):
    """Seeded decks as well as actions: the same hands on every run, among them a fold after
    the flop (the folder leaves the gathered pots' `eligible`) and straddles (ann straddles
    whenever she is under the gun)."""
    decks = random.Random(7)
    monkeypatch.setattr("tables.services.dealing.new_key", lambda: decks.randbytes(32).hex())
    users = [make_player(n) for n in ("ann", "ben", "cat", "dan")]
    old = comparable(table_snapshot(table_id=play_table.pk, user_id=None))
    version = 0
    rng = random.Random(5)
    for n, u in enumerate(users, start=1):
        sit(play_table, u, n)
    play_table.straddle_allowed = True
    play_table.save()
    services.seat_straddle(table_id=play_table.pk, user_id=users[0].pk, on=True)
    checked = folds_with_pots = straddles = 0
    for round_ in range(10):
        for seat in Seat.objects.filter(table=play_table, chips=0):  # busted: buys again
            services.seat_top_up(table_id=play_table.pk, user_id=seat.player_id, amount=100,
                            idempotency_key=f"rebuy-{round_}-{seat.pk}")
        if round_ == 2:  # dan sits out and misses blinds (status events say so), then is back
            services.sit_out(table_id=play_table.pk, user_id=users[3].pk)
        if round_ == 6:
            services.sit_in(table_id=play_table.pk, user_id=users[3].pk)
        if services.hand_start(table_id=play_table.pk, force=True) is None:
            break
        straddles += live(play_table.pk)[2].straddle is not None
        while True:
            ts, hand, state = live(play_table.pk)
            for frame in events_since(table_id=play_table.pk, last_version=version,
                                      user_id=None):
                apply(old, frame["event"])
                version = frame["version"]
            fresh = comparable(table_snapshot(table_id=play_table.pk, user_id=None))
            old["seats"].sort(key=lambda s: s["seat"])
            rebuilt = {**old, "street": None if hand.finished_at else old.get("street"),
                       "pots": None if hand.finished_at else old.get("pots")}
            assert rebuilt == fresh, f"after version {version}"
            checked += 1
            if hand.finished_at is not None:
                break
            action, amount = random_action(state, rng)
            folds_with_pots += action == "fold" and bool(old["pots"])
            services.act(table_id=play_table.pk, user_id=int(state.players[state.to_act]
                         .player_id), action=action, amount=amount, expected_version=ts.version)
    assert checked > 20 and folds_with_pots > 0 and straddles > 0
