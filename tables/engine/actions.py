"""What the player to act may do (``legal_actions``) and doing it (``apply_action``), plus the
manual-deal entry points. Every check happens before any mutation, so a refused action leaves
the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import flow
from .cards import check_cards
from .errors import IllegalAction
from .state import OVER, SHOWDOWN, HandState, Player
from .structures import Structure, TimeoutPolicy

ACTIONS = frozenset(("fold", "check", "call", "bet", "raise", "timeout", "show", "muck"))
_FL = Structure.FIXED_LIMIT
_PL = Structure.POT_LIMIT


@dataclass(slots=True)
class LegalActions:
    """Options of the player to act. ``min_to``/``max_to`` are totals for this round."""

    seat: int
    fold: bool = False
    check: bool = False
    call: bool = False
    call_amount: int = 0
    bet: bool = False
    raise_: bool = False
    min_to: int = 0
    max_to: int = 0
    show: bool = False
    muck: bool = False
    timeout: bool = True

    def to_json(self) -> dict:
        return {
            "seat": self.seat, "fold": self.fold, "check": self.check, "call": self.call,
            "call_amount": self.call_amount, "bet": self.bet, "raise": self.raise_,
            "min_to": self.min_to, "max_to": self.max_to, "show": self.show, "muck": self.muck,
        }

    @property
    def actions(self) -> list[str]:
        names = ("fold", "check", "call", "bet", "raise_", "show", "muck")
        return [n.rstrip("_") for n in names if getattr(self, n)]


def _aggression(s: HandState, i: int, p: Player) -> tuple[str | None, int, int]:
    """(reason it is refused or None, min_to, max_to) for a bet/raise by player i."""
    cb = s.current_bet
    call = cb - p.bet
    if p.stack <= call:
        return "above_stack", 0, 0
    if p.acted_level >= s.last_full_to and p.acted_level >= 0:
        return "raise_not_reopened", 0, 0
    for j, q in enumerate(s.players):  # a raise needs someone who could match more than cb
        if j != i and not q.folded and not q.allin and q.bet + q.stack > cb:
            break
    else:
        return "no_opponent_to_raise", 0, 0
    rules = s.rules
    cap_total = p.bet + p.stack
    if rules.structure is _FL:
        if rules.max_raises is not None and s.raise_count >= rules.max_raises + 1:
            return "betting_capped", 0, 0
        size = rules.lower_stake if s.street < 2 else rules.big_bet
        lo = hi = cb + size
    else:
        lo = cb + s.min_raise
        if rules.structure is _PL:
            pot = 0
            for q in s.players:
                pot += q.total
            hi = cb + pot + call
            if hi < lo:  # a tiny pot still allows the minimum bet/raise
                hi = lo
        else:
            hi = cap_total
    if hi > cap_total:
        hi = cap_total
    if lo > cap_total:
        lo = hi = cap_total
    return None, lo, hi


def legal_actions(s: HandState) -> LegalActions | None:
    """The options of the player to act, or None when nobody is (dealing pending, hand over)."""
    i = s.to_act
    if i < 0 or s.street == OVER:
        return None
    p = s.players[i]
    if s.street == SHOWDOWN:
        return LegalActions(seat=p.seat, show=True, muck=True)
    call = s.current_bet - p.bet
    la = LegalActions(seat=p.seat, fold=True)
    if call <= 0:
        la.check = True
    else:
        la.call = True
        la.call_amount = call if call < p.stack else p.stack
    reason, lo, hi = _aggression(s, i, p)
    if reason is None:
        if s.current_bet == 0:
            la.bet = True
        else:
            la.raise_ = True
        la.min_to, la.max_to = lo, hi
    return la


def _verify(s: HandState, seat: int, action: str, amount: int | None) -> int:
    """Raise IllegalAction unless ``action`` is legal now; return the player's index."""
    if s.street == OVER:
        raise IllegalAction("hand_over", "the hand is over")
    if action not in ACTIONS:
        raise IllegalAction("unknown_action", f"unknown action {action!r}")
    if s.pending is not None:
        raise IllegalAction("waiting_for_deal", f"waiting for {s.pending} cards")
    i = s.to_act
    if i < 0 or s.players[i].seat != seat:
        if s.index_of(seat) < 0:
            raise IllegalAction("not_in_hand", f"seat {seat} is not in this hand")
        raise IllegalAction("not_your_turn", f"seat {seat} is not to act")
    p = s.players[i]
    if action == "timeout":
        return i
    if s.street == SHOWDOWN:
        if action not in ("show", "muck"):
            raise IllegalAction("at_showdown", "show or muck")
        if amount is not None:
            raise IllegalAction("bad_amount", "show/muck take no amount")
        return i
    if action in ("show", "muck"):
        raise IllegalAction("not_at_showdown", "betting is not over")
    call = s.current_bet - p.bet
    if action in ("fold", "check", "call"):
        if action == "check" and call > 0:
            raise IllegalAction("cannot_check", f"{call} to call")
        if action == "call" and call <= 0:
            raise IllegalAction("nothing_to_call", "check instead")
        if amount is not None:
            expected = min(call, p.stack) if action == "call" else 0
            if type(amount) is not int or amount != expected:
                raise IllegalAction("bad_amount", f"{action} takes no amount")
        return i
    # bet / raise
    if type(amount) is not int:
        raise IllegalAction("bad_amount", "a bet or raise needs an integer 'to' amount")
    if action == "bet" and s.current_bet > 0:
        raise IllegalAction("cannot_bet", "there is a bet: raise instead")
    if action == "raise" and s.current_bet == 0:
        raise IllegalAction("cannot_raise", "nothing to raise: bet instead")
    reason, lo, hi = _aggression(s, i, p)
    if reason is not None:
        raise IllegalAction(reason, f"cannot {action} now")
    cap_total = p.bet + p.stack
    unit = s.rules.bet_unit
    if amount % unit and amount != cap_total and amount != lo and amount != hi:
        raise IllegalAction("not_whole_unit", f"amounts are multiples of {unit}")
    if amount > cap_total:
        raise IllegalAction("above_stack", f"at most {cap_total}")
    if amount > hi:
        structure = s.rules.structure
        code = "above_pot_limit" if structure is _PL else "above_limit"
        raise IllegalAction(code, f"at most {hi}")
    if amount < lo:
        raise IllegalAction("below_min_raise", f"at least {lo}")
    return i


def verify_action(s: HandState, seat: int, action: str, amount: int | None = None) -> None:
    """Raise ``IllegalAction`` unless ``apply_action`` would accept this action now."""
    _verify(s, seat, action, amount)


def can_act(s: HandState, seat: int, action: str, amount: int | None = None) -> bool:
    """Would ``apply_action`` accept this action now? (Never changes the state.)"""
    try:
        _verify(s, seat, action, amount)
    except IllegalAction:
        return False
    return True


def _put_in(s: HandState, p: Player, to: int) -> int:
    add = to - p.bet
    p.stack -= add
    p.bet = to
    p.total += add
    if p.stack == 0:
        p.allin = True
    return add


def apply_action(
    s: HandState,
    seat: int,
    action: str,
    amount: int | None = None,
    *,
    allow_timeout_allin: bool = True,
    cards: Sequence[str] | None = None,
) -> list[dict]:
    """Apply one action by ``seat`` and return the resulting events.

    ``amount`` is the "to" total of a bet or raise this round. ``timeout`` applies the table's
    policy (``allow_timeout_allin=False`` turns a SEEDS timeout all-in into a fold, for the daily
    cap). ``cards`` completes unknown hole cards when showing in a manually dealt hand.
    """
    i = _verify(s, seat, action, amount)
    p = s.players[i]
    if action == "show" and cards is not None:
        known = check_cards(cards, 2)
        if p.hole and None not in p.hole and list(p.hole) != known:
            raise IllegalAction("bad_cards", "those are not the player's cards")
    s.version += 1
    ev: list[dict] = []
    timed_out = action == "timeout"
    if timed_out:
        action = _timeout_choice(s, p, allow_timeout_allin)
    if s.street == SHOWDOWN:
        if action == "show":
            if cards is not None:
                p.hole = list(cards)
            flow.show(s, p, ev)
        else:
            flow.muck(s, p, ev)
        s.showdown_pos += 1
        flow.continue_showdown(s, ev)
        return ev
    e = {"type": "action", "seat": seat, "action": action, "version": s.version}
    if timed_out:
        e["timeout"] = True
    ev.append(e)
    if action == "fold":
        p.folded = True
        contenders = 0
        for q in s.players:
            if not q.folded:
                contenders += 1
        if contenders == 1:
            e["stack"] = p.stack  # every action event carries the actor's stack
            s.to_act = -1
            flow.finish_hand(s, ev)
            return ev
    elif action == "timeout_allin":
        p.allin = True
        p.timed_out = True
    elif action == "check":
        p.acted_level = s.last_full_to
    elif action == "call":
        cb = s.current_bet
        to = cb if cb - p.bet < p.stack else p.bet + p.stack
        e["amount"] = _put_in(s, p, to)
        p.acted_level = s.last_full_to
    else:  # bet / raise to `amount`
        rules = s.rules
        cb = s.current_bet
        inc = amount - cb  # type: ignore[operator]
        if rules.structure is _FL:
            full = inc >= (rules.lower_stake if s.street < 2 else rules.big_bet)
        else:
            full = inc >= s.min_raise
        e["amount"] = amount
        e["added"] = _put_in(s, p, amount)  # type: ignore[arg-type]
        if full:
            if inc > s.min_raise:
                s.min_raise = inc
            s.last_full_to = amount  # type: ignore[assignment]
            s.raise_count += 1
        s.current_bet = amount  # type: ignore[assignment]
        s.last_aggressor = i
        p.acted_level = s.last_full_to
    if p.allin:
        e["allin"] = True
    e["stack"] = p.stack
    flow.advance(s, ev, i + 1)
    return ev


def leavers_fold(s: HandState, seats: Sequence[int]) -> list[dict]:
    """Act for the players who left during the hand (``seats``) whenever the action is theirs:
    fold while betting; at showdown show a hand that wins something, else muck. Nobody waits
    out an absent player's clock. Returns the events, in order (none when the player to act
    stayed)."""
    ev: list[dict] = []
    while not s.is_over and s.pending is None and s.to_act_seat in seats:
        if s.street == SHOWDOWN:
            action = "show" if flow.would_win_something(s, s.to_act) else "muck"
        else:
            action = "fold"
        ev += apply_action(s, s.to_act_seat, action)
    return ev


def _timeout_choice(s: HandState, p: Player, allow_allin: bool) -> str:
    """The action a timeout stands for under the table's policy."""
    if s.street == SHOWDOWN:
        return "show" if flow.would_win_something(s, s.to_act) else "muck"
    free = s.current_bet <= p.bet
    if s.rules.timeout_policy is TimeoutPolicy.MODERN:
        return "check" if free else "fold"
    if p.total > 0 and allow_allin:
        return "timeout_allin"
    return "fold"


def choose_runs(s: HandState, seat: int, twice: bool) -> list[dict]:
    """A player asked to run it twice answers (runs.py). The first "once" settles it: the board
    is dealt once. When every player asked said "twice", the rest of the board is dealt twice.
    Either way the hand then runs out to the showdown (``run_twice_decided`` says which)."""
    if s.votes is None:
        raise IllegalAction("no_run_offer", "nobody is asked to run it twice")
    if seat not in s.votes:
        raise IllegalAction("not_asked", f"seat {seat} is not asked to run it twice")
    if s.votes[seat] is not None:
        raise IllegalAction("already_answered", f"seat {seat} already answered")
    s.version += 1
    s.votes[seat] = bool(twice)
    ev: list[dict] = [{"type": "run_twice_vote", "seat": seat, "twice": bool(twice),
                       "version": s.version}]
    if twice and any(v is None for v in s.votes.values()):
        return ev  # waiting for the others
    s.runs = 2 if twice else 1
    s.votes = None
    s.run_from = len(s.board)
    ev.append({"type": "run_twice_decided", "runs": s.runs, "version": s.version})
    flow.next_street(s, ev)
    return ev


def deal_hole(s: HandState, seat: int, cards: Sequence[str | None] | None) -> list[dict]:
    """Manual deal: give ``seat`` its two hole cards (``None`` = unknown to the engine)."""
    if s.street == OVER:
        raise IllegalAction("hand_over", "the hand is over")
    if s.pending != "hole":
        raise IllegalAction("no_deal_pending", "hole cards are not being dealt")
    i = s.index_of(seat)
    if i < 0:
        raise IllegalAction("not_in_hand", f"seat {seat} is not in this hand")
    p = s.players[i]
    if p.hole is not None:
        raise IllegalAction("already_dealt", f"seat {seat} has cards")
    hole = [None, None] if cards is None else check_cards(cards, 2, allow_unknown=True)
    _check_unused(s, hole)
    s.version += 1
    p.hole = hole
    ev: list[dict] = [{"type": "hole_cards", "seat": seat, "to_seat": seat, "cards": list(hole),
                       "version": s.version}]
    if all(q.hole is not None for q in s.players):
        s.pending = None
        flow.advance(s, ev, s.opener)
    return ev


def deal_board(s: HandState, cards: Sequence[str]) -> list[dict]:
    """Manual deal: put the pending street's cards (3 for the flop, else 1) on the board."""
    if s.street == OVER:
        raise IllegalAction("hand_over", "the hand is over")
    if s.pending not in ("flop", "turn", "river"):
        raise IllegalAction("no_deal_pending", "no board cards are due")
    count = 3 if s.pending == "flop" else 1
    dealt = check_cards(cards, count)
    _check_unused(s, dealt)
    s.version += 1
    street = s.pending
    s.pending = None
    s.board.extend(dealt)
    ev: list[dict] = [{"type": "board", "street": street, "cards": dealt, "board": list(s.board),
                       "version": s.version}]
    flow.after_board(s, ev)
    return ev


def _check_unused(s: HandState, cards: Sequence[str | None]) -> None:
    used = set(s.board)
    for p in s.players:
        if p.hole:
            used.update(c for c in p.hole if c is not None)
    for c in cards:
        if c is not None and c in used:
            raise IllegalAction("bad_cards", f"{c} is already dealt")
