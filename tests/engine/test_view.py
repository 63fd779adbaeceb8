"""Views: hole cards only for their owner until shown; legal actions only on one's turn."""

from __future__ import annotations

import json

from tables.engine import TableRules, view_for
from tables.engine.scripted import ScriptedHand

NL = TableRules(lower_stake=10)


def hand() -> ScriptedHand:
    return ScriptedHand(NL, {1: 100, 2: 100, 3: 100}, button=1,
                        holes={1: "AsAd", 2: "KsKd", 3: "QsQd"}, board="2c7d9h3s4c")


def cards_seen(view: dict) -> dict[int, list[str] | None]:
    return {s["seat"]: s["cards"] for s in view["seats"]}


def test_spectator_sees_no_hole_cards_and_no_actions() -> None:
    v = view_for(hand().state, None)
    assert cards_seen(v) == {2: None, 3: None, 1: None}
    assert v["legal"] is None and v["to_act"] == 1
    json.dumps(v)


def test_player_sees_only_his_own_cards_and_his_legal_actions_on_his_turn() -> None:
    h = hand()
    v1 = view_for(h.state, 1)
    assert cards_seen(v1) == {2: None, 3: None, 1: ["As", "Ad"]}
    assert v1["legal"]["seat"] == 1 and v1["legal"]["call_amount"] == 10
    assert view_for(h.state, 2)["legal"] is None


def test_shown_hands_are_visible_to_everyone() -> None:
    h = hand()
    h.act(1, "call")
    h.act(2, "call")
    h.act(3, "check")
    for _ in range(3):
        h.act(2, "check")
        h.act(3, "check")
        h.act(1, "check")
    h.act(2, "show")
    h.act(3, "muck")
    h.act(1, "show")
    v = view_for(h.state, None)
    assert cards_seen(v) == {2: ["Ks", "Kd"], 3: None, 1: ["As", "Ad"]}
    assert v["is_over"] and v["result"]["pots"][0]["winners"] == [1]
