"""One scripted hand per case the exports must write as PokerStars and PHH readers expect
(tests/tables/histories/test_golden.py compares each with its golden files).

Engine hands with known cards (no database): ``CASES`` maps a case name to a function that
plays it and returns the finished record and the user it is exported for. Seat ``s`` is user
``100 + s``; names are the seats' fixed names below.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from tables.engine import RakeRule, Structure, TableRules, describe
from tables.engine.scripted import ScriptedHand
from tables.histories.record import HandRecord
from tests.tables.histories.scripted import heads_up_fold, record_of

NAMES = {1: "alice", 2: "bob", 3: "carl", 4: "dora", 5: "erin", 6: "finn"}
STRUCTURE = {Structure.NO_LIMIT: "NL", Structure.POT_LIMIT: "PL", Structure.FIXED_LIMIT: "FL"}


def finish(h: ScriptedHand, *, real: bool, muck: Iterable[int] = (),
           shown_after: Iterable[int] = ()) -> HandRecord:
    """Answer the showdown (show, or muck for the seats in ``muck``), turn up the
    ``shown_after`` seats' cards in the pause after the hand (as ``hand_show`` does) and make
    the record."""
    mucking = set(muck)
    while not h.state.is_over:
        la = h.legal
        assert la is not None and (la.show or la.muck), "the script left a decision open"
        h.act(la.seat, "muck" if la.seat in mucking and la.muck else "show")
    for seat in shown_after:
        p = h.state.player(seat)
        assert not p.shown
        p.shown = True
        event = {"type": "shown", "seat": seat, "cards": list(p.hole)}
        if len(h.state.board) == 5:
            event["description"] = describe(h.state.board + list(p.hole))
        h.events.append(event)
    seats = [p.seat for p in h.state.players]
    return record_of(h, {s: NAMES[s] for s in seats}, real=real,
                     structure=STRUCTURE[h.state.rules.structure])


def preflop_fold_real_money() -> tuple[HandRecord, int]:
    """$1/$2 heads-up: the button raises, the big blind folds (no flop, no rake)."""
    return heads_up_fold(), 101


def antes_uncalled_bet_play_money() -> tuple[HandRecord, int]:
    """5/10 with a 1 ante: carl raises, dora and alice fold, bob calls; bob bets the river,
    carl folds and bob's bet comes back uncalled."""
    h = ScriptedHand(TableRules(lower_stake=10, ante=1), {1: 500, 2: 500, 3: 500, 4: 500},
                     button=4, holes={1: "9c4d", 2: "KhQh", 3: "AsJd", 4: "7s2c"},
                     board="Qs8d3c6h2d")
    h.act(3, "raise", 30)
    h.act(4, "fold")
    h.act(1, "fold")
    h.act(2, "call")
    h.act(2, "check")
    h.act(3, "bet", 40)
    h.act(2, "call")
    h.act(2, "check")
    h.act(3, "check")
    h.act(2, "bet", 50)
    h.act(3, "fold")
    return finish(h, real=False), 103


def big_blind_ante_play_money() -> tuple[HandRecord, int]:
    """5/10 with a big-blind ante (the big blind posts 3 x 1 for everyone): alice limps on
    the button, bob completes, carl checks; checked down, carl's two pair wins."""
    h = ScriptedHand(TableRules(lower_stake=10, ante=1, bb_ante=True),
                     {1: 300, 2: 300, 3: 300}, button=1,
                     holes={1: "Ah9s", 2: "Kd7d", 3: "Tc8c"}, board="Td8h4s2c5d")
    h.act(1, "call")
    h.act(2, "call")
    h.act(3, "check")
    for _street in ("flop", "turn", "river"):
        h.act(2, "check")
        h.act(3, "check")
        h.act(1, "check")
    return finish(h, real=False, muck={2}), 101


def extra_big_blind_real_money() -> tuple[HandRecord, int]:
    """$1/$2: dora comes back from missed blinds and posts a live big blind out of position
    (seat 4, under the gun). She checks her option; carl bets the flop, dora folds, alice
    calls; checked down, alice shows, carl mucks."""
    h = ScriptedHand(TableRules(lower_stake=200), {1: 20000, 2: 20000, 3: 20000, 4: 20000},
                     button=1, holes={1: "AcQd", 2: "6h6s", 3: "KsJc", 4: "9d9h"},
                     board="Qh7c3d2s4h", post_bb=(4,))
    h.act(4, "check")
    h.act(1, "call")
    h.act(2, "fold")
    h.act(3, "check")
    h.act(3, "bet", 600)
    h.act(4, "fold")
    h.act(1, "call")
    for _street in ("turn", "river"):
        h.act(3, "check")
        h.act(1, "check")
    return finish(h, real=True, muck={3}), 104


def straddle_real_money() -> tuple[HandRecord, int]:
    """$1/$2 with a straddle: dora, under the gun, straddles $4. erin calls, alice (button)
    raises to $12, bob folds, carl calls, dora (acting last preflop) calls, erin folds. On the
    flop carl checks, dora bets $2 (the big blind, the smallest bet again), alice calls, carl
    folds; checked down, dora's nines beat alice's ace high."""
    h = ScriptedHand(TableRules(lower_stake=200),
                     {1: 20000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}, button=1,
                     holes={1: "AcQd", 2: "6h5s", 3: "KsJc", 4: "9d9h", 5: "8c8s"},
                     board="Th7c3d2s4h", straddles=(4,))
    h.act(5, "call")
    h.act(1, "raise", 1200)
    h.act(2, "fold")
    h.act(3, "call")
    h.act(4, "call")
    h.act(5, "fold")
    h.act(3, "check")
    h.act(4, "bet", 200)
    h.act(1, "call")
    h.act(3, "fold")
    for _street in ("turn", "river"):
        h.act(4, "check")
        h.act(1, "check")
    return finish(h, real=True), 104


def side_pots_real_money() -> tuple[HandRecord, int]:
    """$1/$2, four stacks ($10, $25, $50, $200): carl moves all in, dora calls, alice and bob
    call all in: a main pot and two side pots with three different winners."""
    h = ScriptedHand(TableRules(lower_stake=200), {1: 1000, 2: 2500, 3: 5000, 4: 20000},
                     button=4, holes={1: "AsAd", 2: "KsKd", 3: "QsQd", 4: "7c2h"},
                     board="Ah9c5d3s8h")
    h.act(3, "raise", 5000)  # all in
    h.act(4, "call")
    h.act(1, "call")
    h.act(2, "call")
    return finish(h, real=True), 102


def split_pot_odd_chip_play_money() -> tuple[HandRecord, int]:
    """5/10: alice (button) limps, bob's small blind folds, carl checks; both play the board's
    straight and split 25: the odd chip goes to carl, first clockwise from the button."""
    h = ScriptedHand(TableRules(lower_stake=10), {1: 200, 2: 200, 3: 200}, button=1,
                     holes={1: "2c3d", 2: "KcKd", 3: "2h4s"}, board="9h8dTc7sJh")
    h.act(1, "call")
    h.act(2, "fold")
    h.act(3, "check")
    for _street in ("flop", "turn", "river"):
        h.act(3, "check")
        h.act(1, "check")
    return finish(h, real=False), 101


def rake_real_money() -> tuple[HandRecord, int]:
    """$0.50/$1 with 5% rake capped at $3: three players see the flop, the $23 pot is raked
    $1.15."""
    rules = TableRules(lower_stake=100, rake=RakeRule(percent_bp=500, cap=300))
    h = ScriptedHand(rules, {1: 10000, 2: 10000, 3: 10000}, button=1,
                     holes={1: "JhJs", 2: "Ad5d", 3: "9s9c"}, board="Jd6c2h5sKc")
    h.act(1, "raise", 300)
    h.act(2, "call")
    h.act(3, "call")
    h.act(2, "check")
    h.act(3, "bet", 700)
    h.act(1, "call")
    h.act(2, "fold")
    for _street in ("turn", "river"):
        h.act(3, "check")
        h.act(1, "check")
    return finish(h, real=True), 101


def timeout_all_in_play_money() -> tuple[HandRecord, int]:
    """5/10, seeds timeout policy: alice raises, bob (small blind, 5 in) times out and stays in
    for the pot so far; carl calls, alice and carl bet on into a side pot. bob's aces win the
    main pot, alice's kings the side pot."""
    h = ScriptedHand(TableRules(lower_stake=10), {1: 300, 2: 300, 3: 300}, button=1,
                     holes={1: "KsKd", 2: "AsAd", 3: "QsQd"}, board="2c7h9d3s4c")
    h.act(1, "raise", 30)
    h.act(2, "timeout")
    h.act(3, "call")
    h.act(3, "check")
    h.act(1, "bet", 40)
    h.act(3, "call")
    h.act(3, "check")
    h.act(1, "check")
    h.act(3, "check")
    h.act(1, "check")
    return finish(h, real=False), 102


def show_after_fold_real_money() -> tuple[HandRecord, int]:
    """$1/$2: bob bets the flop, alice folds, and turns up her cards in the pause after the
    hand (the winner does not show)."""
    h = ScriptedHand(TableRules(lower_stake=200), {1: 20000, 2: 20000}, button=2,
                     holes={1: "ThAh", 2: "8c8d"}, board="Kd9s2c")
    h.act(2, "call")
    h.act(1, "check")
    h.act(1, "check")
    h.act(2, "bet", 300)
    h.act(1, "fold")
    return finish(h, real=True, shown_after=(1,)), 102


def fixed_limit_capped_real_money() -> tuple[HandRecord, int]:
    """Limit $1/$2 (blinds $0.50/$1): the preflop betting is capped (a bet and three raises),
    small bets on the flop, big bets on the turn, checked river; carl's set wins."""
    rules = TableRules(structure=Structure.FIXED_LIMIT, lower_stake=100)
    h = ScriptedHand(rules, {1: 5000, 2: 5000, 3: 5000}, button=1,
                     holes={1: "AhKh", 2: "QcQs", 3: "5d5c"}, board="5hQd2s9cJh")
    h.act(1, "raise", 200)
    h.act(2, "raise", 300)
    h.act(3, "call")
    h.act(1, "raise", 400)
    h.act(2, "call")
    h.act(3, "call")
    h.act(2, "bet", 100)
    h.act(3, "raise", 200)
    h.act(1, "fold")
    h.act(2, "call")
    h.act(2, "check")
    h.act(3, "bet", 200)
    h.act(2, "call")
    h.act(2, "check")
    h.act(3, "check")
    return finish(h, real=True, muck={2}), 103


def pot_limit_play_money() -> tuple[HandRecord, int]:
    """Pot limit 5/10: alice raises the pot (to 35), bob folds, carl re-raises the pot (to
    110), alice calls; carl bets the pot (225) on the flop and alice folds."""
    rules = TableRules(structure=Structure.POT_LIMIT, lower_stake=10)
    h = ScriptedHand(rules, {1: 1000, 2: 1000, 3: 1000}, button=1,
                     holes={1: "JcTc", 2: "8h3d", 3: "AcAd"}, board="Ks7d2h")
    h.act(1, "raise", 35)
    h.act(2, "fold")
    h.act(3, "raise", 110)
    h.act(1, "call")
    h.act(3, "bet", 225)
    h.act(1, "fold")
    return finish(h, real=False), 101


CASES: dict[str, Callable[[], tuple[HandRecord, int]]] = {
    "preflop_fold_real_money": preflop_fold_real_money,
    "antes_uncalled_bet_play_money": antes_uncalled_bet_play_money,
    "big_blind_ante_play_money": big_blind_ante_play_money,
    "extra_big_blind_real_money": extra_big_blind_real_money,
    "side_pots_real_money": side_pots_real_money,
    "straddle_real_money": straddle_real_money,
    "split_pot_odd_chip_play_money": split_pot_odd_chip_play_money,
    "rake_real_money": rake_real_money,
    "timeout_all_in_play_money": timeout_all_in_play_money,
    "show_after_fold_real_money": show_after_fold_real_money,
    "fixed_limit_capped_real_money": fixed_limit_capped_real_money,
    "pot_limit_play_money": pot_limit_play_money,
}
