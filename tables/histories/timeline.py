"""A finished hand step by step, as one player may see it: the hand page's action list (with
the pot after each action) and the replayer's frames (seats, stacks, bets, board, pot).
"""

from __future__ import annotations

from typing import Any

from cashier.money import Currency, money_format
from tables.histories.labels import positions
from tables.histories.record import HandRecord

STREETS = {"flop": "Flop", "turn": "Turn", "river": "River"}
BLIND_WORDS = {"sb": "small blind", "bb": "big blind", "extra_bb": "extra big blind",
               "straddle": "straddle",
               "forced": "forced bet", "ante": "ante", "bb_ante": "big-blind ante"}


def timeline(record: HandRecord, user_id: int | None) -> dict[str, Any]:
    """``{"seats": [...as dealt], "steps": [...], ...}``: every step has a ``text`` line and a
    ``frame`` to draw (the replayer). Only the viewer's own hole cards and cards shown at showdown appear.

    From the first award (or the rake) on, a step's ``pot`` stays the hand's final pot and each
    seat's ``won`` counts what it collected, so the last frame reads "Pot 24" and names the
    winners instead of an emptied pot."""
    state = record.state
    real = record.real_money
    currency = Currency.REAL if real else Currency.PLAY
    viewer = record.seat_of(user_id)
    pos = positions(state)
    seats = {
        p.seat: {"seat": p.seat, "name": record.names.get(p.seat, f"Seat {p.seat}"),
                 "position": pos.get(p.seat, ""), "stack": p.start_stack, "bet": 0,
                 "folded": False, "allin": False, "cards": None, "won": 0}
        for p in state.players
    }
    if viewer in seats:
        seats[viewer]["cards"] = record.visible_cards(viewer, viewer)
    start = [dict(s) for s in seats.values()]
    board: list[str] = []
    board2: list[str] | None = None  # run it twice: the second run's board
    pot = 0  # collected from earlier rounds
    street = "Preflop"
    steps: list[dict[str, Any]] = []
    result = state.result or {}
    swept = False
    final_pot: int | None = None  # the pot as it stood when the awards began

    def m(amount: int) -> str:
        return money_format(amount, currency)

    def name(seat: int) -> str:
        return seats[seat]["name"]

    def step(text: str, kind: str, actor: int | None = None) -> None:
        bets = sum(s["bet"] for s in seats.values())
        shown = pot + bets if final_pot is None else final_pot
        steps.append({
            "text": text, "kind": kind, "street": street, "actor": actor,
            "pot": shown, "pot_label": m(shown),
            "frame": {"board": list(board), "pot": pot, "seats": [dict(s) for s in seats.values()],
                      "actor": actor, "street": street,
                      **({"board2": list(board2)} if board2 is not None else {})},
        })

    def sweep() -> None:
        nonlocal pot
        for s in seats.values():
            pot += s["bet"]
            s["bet"] = 0

    def settle() -> None:
        """The awards begin: the bets join the pot, whose total the last frames keep."""
        nonlocal swept, final_pot
        if final_pot is None:
            final_pot = pot + sum(s["bet"] for s in seats.values())
        if not swept:
            sweep()
            swept = True

    step(f"{len(seats)} players; button on seat {state.button}", "start")
    for e in record.for_viewer(user_id):
        kind = e["type"]
        seat = e.get("seat")
        if kind == "posted_ante":
            seats[seat]["stack"] -= e["amount"]
            pot += e["amount"]
            step(f"{name(seat)} posts {BLIND_WORDS.get(e['kind'], 'ante')} {m(e['amount'])}",
                 "post", seat)
        elif kind == "posted_blind":
            seats[seat]["stack"] -= e["amount"]
            seats[seat]["bet"] += e["amount"]
            allin = " (all-in)" if e.get("stack") == 0 else ""
            step(f"{name(seat)} posts {BLIND_WORDS.get(e['kind'], 'blind')} {m(e['amount'])}"
                 f"{allin}", "post", seat)
        elif kind == "hole_cards" and seat == viewer and e["cards"][0]:
            step(f"Dealt to {name(seat)} [{' '.join(e['cards'])}]", "deal", seat)
        elif kind == "action":
            s = seats[seat]
            verb = e["action"]
            added = e.get("added", e.get("amount", 0)) if verb in ("call", "bet", "raise") else 0
            s["bet"] += added
            s["stack"] = e.get("stack", s["stack"] - added)
            s["allin"] = bool(e.get("allin")) or verb == "timeout_allin"
            if verb == "fold":
                s["folded"] = True
                text = f"{s['name']} folds"
            elif verb == "check":
                text = f"{s['name']} checks"
            elif verb == "call":
                text = f"{s['name']} calls {m(added)}"
            elif verb == "bet":
                text = f"{s['name']} bets {m(e['amount'])}"
            elif verb == "raise":
                text = f"{s['name']} raises to {m(e['amount'])}"
            else:
                text = f"{s['name']} times out and stays in for the pot so far"
            if e.get("allin") and verb != "timeout_allin":
                text += " and is all-in"
            if e.get("timeout") and verb != "timeout_allin":
                text += " (timed out)"
            step(text, "action", seat)
        elif kind == "board":
            sweep()
            board = list(e["board"])
            street = STREETS.get(e["street"], e["street"].title())
            step(f"{street} [{' '.join(e['cards'])}]", "board")
        elif kind == "run_twice_offer":
            step("All in: run it twice? (" + ", ".join(name(s) for s in e["seats"]) + ")",
                 "offer")
        elif kind == "run_twice_vote":
            step(f"{name(seat)}: {'twice' if e['twice'] else 'once'}", "vote", seat)
        elif kind == "run_twice_decided":
            step("The board is run twice" if e["runs"] == 2 else "The board is run once",
                 "decided")
        elif kind == "second_board":
            board2 = list(e["board"])
            street = "Second " + STREETS.get(e["street"], e["street"].title()).lower()
            step(f"{street} [{' '.join(e['cards'])}]", "board")
        elif kind == "returned_uncalled":
            s = seats[seat]
            taken = min(s["bet"], e["amount"])
            s["bet"] -= taken
            pot -= e["amount"] - taken
            s["stack"] = e["stack"]
            s["allin"] = False
            step(f"Uncalled {m(e['amount'])} returned to {s['name']}", "return", seat)
        elif kind == "shown":
            if len(board) == 5:
                street = "Showdown"
            seats[seat]["cards"] = list(e["cards"])
            described = record.description(seat)
            step(f"{name(seat)} shows [{' '.join(e['cards'])}]"
                 + (f" ({described})" if described else ""), "show", seat)
        elif kind == "mucked":
            street = "Showdown"
            step(f"{name(seat)} mucks", "muck", seat)
        elif kind == "pot_awarded":
            settle()
            pot -= e["amount"]
            for winner, share in e["shares"]:
                seats[winner]["stack"] += share
                seats[winner]["won"] += share
            label = _pot_label(result, e)
            if e.get("runs"):  # run it twice: what each run paid
                who = "; ".join(
                    f"{('first', 'second')[k]} run " + " and ".join(
                        f"{name(w)} {m(share)}" for w, share in run["shares"])
                    for k, run in enumerate(e["runs"]))
            else:
                who = " and ".join(f"{name(w)} {m(share)}" for w, share in e["shares"])
            step(f"{label}: {who}", "win")
        elif kind == "rake":
            settle()
            pot -= e["amount"]
            step(f"Rake {m(e['amount'])}", "rake")
    return {"seats": start, "steps": steps, "max_seats": record.max_seats,
            "button": state.button, "currency": "REAL" if real else "PLAY"}


def _pot_label(result: dict[str, Any], e: dict[str, Any]) -> str:
    pots = result.get("pots") or []
    if len(pots) <= 1:
        return "Pot"
    for k, pot in enumerate(pots):
        if pot["eligible"] == e["eligible"] and pot["amount"] == e["amount"]:
            return "Main pot" if k == 0 else ("Side pot" if len(pots) == 2 else f"Side pot {k}")
    return "Pot"

