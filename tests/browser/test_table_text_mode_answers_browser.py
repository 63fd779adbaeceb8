"""static/js/table/textmode.js answers typed commands from a table state alone, as worked
examples: a real-money table with a side pot, amounts in dollars, all in, a fixed-limit bet, the
showdown. The actions go to the action bar (a stand-in here that records what it was asked)."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RUN = """async ([state, commands]) => {
  const { TextMode } = await import('/static/js/table/textmode.js');
  const sent = [];
  const bar = { act: (action, amount) => sent.push([action, amount ?? null]),
                showdown: (kind) => sent.push([kind, null]) };
  const mode = new TextMode({ state: () => state, bar });
  return commands.map((c) => { const answer = mode.run(c); return [answer, sent.splice(0)]; });
}"""


def seat(number: int, name: str, **facts: object) -> dict:
    return {"seat": number, "name": name, "stack": 10_000, "bet": 0, "status": "playing",
            "in_hand": True, "folded": False, "allin": False, "timed_out": False,
            "has_cards": True, "cards": None, "blind": None, "leaving": False, "time_bank": 0,
            "time_bank_running": False, **facts}


def table_state(legal: dict | None, **hand: object) -> dict:
    """Ann (seat 1, the viewer, the button) and Ben (seat 3, all-in) at a $1/$2 table."""
    return {
        "version": 40, "clockOffset": 0, "button": 1,
        "table": {"currency": "REAL", "structure": "NL", "big_blind": 200, "time_bank": 0},
        "you": {"seat": 1, "legal": legal},
        "seats": [seat(1, "ann", stack=9_450, bet=150, cards=["Ah", "Td"]),
                  seat(3, "ben", stack=0, bet=0, allin=True),
                  seat(4, "cy", status="sitting_out", in_hand=False, has_cards=False)],
        "hand": {"id": 9, "street": "turn", "board": ["2c", "7d", "Ks", "Qh"], "is_over": False,
                 "pot_total": 1_250, "current_bet": 350, "to_act": 1, "deadline": None,
                 "pots": [{"amount": 800, "eligible": [1, 3]}, {"amount": 300, "eligible": [1]}],
                 **hand},
    }


def answers(page, state: dict, commands: list[str]) -> list[tuple[str, list]]:
    return [(text, [tuple(s) for s in sent]) for text, sent in page.evaluate(RUN, [state, commands])]


def test_a_real_money_decision_in_words_and_dollars(room_url, new_page):
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    legal = {"fold": True, "check": False, "call": True, "call_amount": 200, "bet": False,
             "raise": True, "min_to": 550, "max_to": 9_600}
    assert answers(page, table_state(legal), [
        "hand", "board", "pot", "stacks", "actions", "raise 7.50", "RAISE $1,000", "raise 7.505",
        "bet 3", "all in", "check", "show",
    ]) == [
        ("Your cards: Ace of hearts, Ten of diamonds.", []),
        ("Board: Two of clubs, Seven of diamonds, King of spades, Queen of hearts.", []),
        ("Pot: $12.50 (main pot $8, side pot 1 $3). To call: $2.", []),
        ("Seat 1: ann (you, button), stack $94.50, bet $1.50, in the hand, to act. "
         "Seat 3: ben, stack $0, all-in. "
         "Seat 4: cy, stack $100, sitting out, not in this hand.", []),
        ("Your turn on the turn: fold, call $2, raise to $5.50 up to $96.", []),
        ("Sent: raise to $7.50.", [("raise", 750)]),
        ("You cannot raise to $1,000: you may raise to $5.50 up to $96.", []),
        ('"7.505" is not an amount: you may raise to $5.50 up to $96.', []),
        ("You cannot raise to $3: you may raise to $5.50 up to $96.", []),  # bet = raise
        ("Sent: all in, raise to $96.", [("raise", 9_600)]),
        ("You cannot check now. Your turn on the turn: fold, call $2, "
         "raise to $5.50 up to $96.", []),
        ("You cannot show now. Your turn on the turn: fold, call $2, "
         "raise to $5.50 up to $96.", []),
    ]


def test_a_fixed_limit_bet_an_all_in_call_and_the_showdown(room_url, new_page):
    page = new_page()
    page.goto(room_url + "/accounts/login/")
    fixed = {"fold": True, "check": True, "call": False, "bet": True, "raise": False,
             "min_to": 400, "max_to": 400}
    assert answers(page, table_state(fixed), ["bet", "bet 5"]) == [
        ("Sent: bet $4.", [("bet", 400)]),
        ("You cannot bet $5: you may bet $4.", []),
    ]
    short = {"fold": True, "check": False, "call": True, "call_amount": 9_450, "bet": False,
             "raise": False}
    assert answers(page, table_state(short), ["all in", "raise 100"]) == [
        ("Sent: call $94.50, all in.", [("call", None)]),
        ("You cannot raise now. Your turn on the turn: fold, call $94.50.", []),
    ]
    showdown = {"show": True, "muck": True}
    assert answers(page, table_state(showdown, street="showdown"), ["fold", "muck"]) == [
        ("Showdown: show or muck.", []),
        ("Sent: muck.", [("muck", None)]),
    ]
    assert answers(page, table_state(None, to_act=3), ["call"]) == [
        ("It is not your turn: ben is to act.", []),
    ]
