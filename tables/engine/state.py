"""The state of one hand (plain slotted classes, JSON round-trip) and ``start_hand``.

Players are held in dealing order: index 0 is the first seat left of the button, the button (if
dealt in) is last. Heads-up that makes index 0 the big blind and index 1 the button/small blind; when the button
seat is not dealt in (e.g. a replayed hand), the small blind plays the button and still comes last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import flow
from .deck import commitment as seed_commitment
from .deck import shuffled_deck
from .errors import IllegalAction
from .structures import Structure, TableRules, clockwise_from_button

PREFLOP, FLOP, TURN, RIVER, SHOWDOWN, OVER = range(6)
STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown", "over")


@dataclass(frozen=True, slots=True)
class SeatIn:
    """A player dealt into the hand; ``post_bb`` posts an extra live big blind (new player);
    ``always_show`` shows his hand at an automatic showdown even when it cannot win;
    ``straddle``: he straddles when he is under the gun (``start_hand`` says when it counts)."""

    seat: int
    player_id: str
    stack: int
    post_bb: bool = False
    always_show: bool = False
    straddle: bool = False


class Player:
    """One seat's chips and status in this hand."""

    __slots__ = (
        "acted_level",
        "allin",
        "always_show",
        "ante",
        "bet",
        "description",
        "folded",
        "hole",
        "mucked",
        "player_id",
        "rank",
        "seat",
        "shown",
        "stack",
        "start_stack",
        "timed_out",
        "total",
    )

    def __init__(self, seat: int, player_id: str, stack: int) -> None:
        self.seat = seat
        self.player_id = player_id
        self.start_stack = stack
        self.stack = stack
        self.bet = 0  # put in during the current betting round
        self.total = 0  # put in during the whole hand (antes, blinds, bets)
        self.ante = 0  # dead part of ``total``: goes to the main pot, never returned
        self.folded = False
        self.allin = False  # all-in, or timeout all-in: acts no more this hand
        self.timed_out = False
        self.always_show = False  # shows rather than mucks a losing hand at auto showdown
        self.acted_level = -1  # last full bet level when this player last acted; -1 = not yet
        self.hole: list[str | None] | None = None
        self.shown = False
        self.mucked = False
        self.rank = 0  # phevaluator rank once evaluated at showdown (0 = not yet)
        self.description: str | None = None  # e.g. "a flush, Ace high", once shown

    def to_json(self) -> dict:
        d = {k: getattr(self, k) for k in Player.__slots__}
        if self.hole is not None:
            d["hole"] = list(self.hole)
        return d

    @classmethod
    def from_json(cls, d: dict) -> Player:
        """Fields missing from older saved states keep their fresh-player defaults."""
        if len(d) == len(Player.__slots__):  # the usual case: every field present
            p = cls.__new__(cls)
            for k in Player.__slots__:
                setattr(p, k, d[k])
        else:
            p = cls(d["seat"], d["player_id"], d["start_stack"])
            for k in Player.__slots__:
                if k in d:
                    setattr(p, k, d[k])
        if p.hole is not None:
            p.hole = list(p.hole)
        return p


class HandState:
    """Everything about one hand in progress; mutated only by the engine's action functions."""

    __slots__ = (
        "all_shown",
        "big_blind",
        "board",
        "board2",
        "button",
        "commitment",
        "current_bet",
        "deal_mode",
        "deck",
        "deck_pos",
        "flop_seen",
        "last_aggressor",
        "last_full_to",
        "min_raise",
        "opener",
        "pending",
        "players",
        "raise_count",
        "result",
        "rules",
        "run_from",
        "run_twice",
        "runs",
        "seed",
        "showdown_order",
        "showdown_pos",
        "straddle",
        "street",
        "to_act",
        "version",
        "votes",
    )

    _SCALARS = (
        "button", "street", "deck_pos", "seed", "commitment", "deal_mode", "pending", "version",
        "to_act", "current_bet", "min_raise", "last_full_to", "raise_count", "big_blind",
        "last_aggressor", "opener", "flop_seen", "all_shown", "showdown_pos", "result",
    )

    def __init__(self, rules: TableRules, players: list[Player], button: int) -> None:
        self.rules = rules
        self.players = players
        self.button = button
        self.street = PREFLOP
        self.board: list[str] = []
        self.deck: list[str] | None = None
        self.deck_pos = 0
        self.seed: str | None = None  # hex, secret: the deck's seed when dealt from one
        self.commitment: str | None = None
        self.deal_mode = "auto"
        self.pending: str | None = None  # "hole", "flop", "turn", "river" while waiting for cards
        self.version = 0
        self.to_act = -1  # player index, -1 when nobody is to act
        self.current_bet = 0
        self.min_raise = rules.lower_stake  # smallest legal raise increment this round
        self.last_full_to = 0  # bet level set by the last full bet/raise this round
        self.raise_count = 0  # bets + full raises this round (limit cap)
        self.big_blind = rules.lower_stake
        self.last_aggressor = -1
        self.opener = 0  # index that opens preflop betting
        self.flop_seen = False
        self.all_shown = False  # all-in with no betting left: every hand is face up
        self.showdown_order: list[int] = []
        self.showdown_pos = 0
        self.result: dict | None = None
        self.straddle: int | None = None  # the seat that straddled, if one did
        # Run it twice (runs.py): offered at this table; the answers while asked (seat ->
        # True/False/None); 0 = not decided, 1 or 2 runs; board cards out when asked; run 2.
        self.run_twice = False
        self.votes: dict[int, bool | None] | None = None
        self.runs = 0
        self.run_from = 0
        self.board2: list[str] | None = None

    # -- queries ---------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.street == OVER

    @property
    def street_name(self) -> str:
        return STREET_NAMES[self.street]

    @property
    def to_act_seat(self) -> int | None:
        return self.players[self.to_act].seat if self.to_act >= 0 else None

    @property
    def pending_deal(self) -> dict | None:
        """What manual dealing waits for: hole cards for some seats, or a board street."""
        if self.pending is None:
            return None
        if self.pending == "hole":
            return {"kind": "hole", "seats": [p.seat for p in self.players if p.hole is None]}
        count = 3 if self.pending == "flop" else 1
        return {"kind": "board", "street": self.pending, "count": count}

    @property
    def pot_total(self) -> int:
        """Every chip put in this hand, including the current round's bets."""
        return sum(p.total for p in self.players)

    def index_of(self, seat: int) -> int:
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        return -1

    def player(self, seat: int) -> Player:
        i = self.index_of(seat)
        if i < 0:
            raise KeyError(seat)
        return self.players[i]

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self._SCALARS}
        d["rules"] = self.rules.to_json()
        d["players"] = [p.to_json() for p in self.players]
        d["board"] = list(self.board)
        d["deck"] = None if self.deck is None else "".join(self.deck)  # compact: 104 chars
        d["showdown_order"] = list(self.showdown_order)
        d["straddle"] = self.straddle
        d["run_twice"] = self.run_twice
        d["votes"] = None if self.votes is None else [[k, v] for k, v in self.votes.items()]
        d["runs"], d["run_from"], d["board2"] = self.runs, self.run_from, self.board2
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandState:
        s = cls.__new__(cls)
        for k in cls._SCALARS:
            setattr(s, k, d[k])
        s.rules = TableRules.from_json(d["rules"])
        s.players = [Player.from_json(p) for p in d["players"]]
        s.board = list(d["board"])
        deck = d["deck"]
        s.deck = None if deck is None else [deck[k:k + 2] for k in range(0, len(deck), 2)]
        s.showdown_order = list(d["showdown_order"])
        s.straddle = d.get("straddle")  # states saved before straddles: none
        s.run_twice = d.get("run_twice", False)  # ... or before run it twice
        votes = d.get("votes")
        s.votes = None if votes is None else {k: v for k, v in votes}
        s.runs, s.run_from = d.get("runs", 0), d.get("run_from", 0)
        s.board2 = None if d.get("board2") is None else list(d["board2"])
        return s


def _post(
    s: HandState, i: int, amount: int, kind: str, live: bool, ev: list, dead: bool = False
) -> None:
    """Post a forced bet; a short stack posts what it has and is all-in.

    ``live`` blinds count as this round's bet. Antes do not; a ``dead`` ante (the big-blind
    ante, paid for everyone) also does not count towards its payer's side-pot level.
    """
    p = s.players[i]
    amt = amount if amount < p.stack else p.stack
    if amt <= 0:
        return
    p.stack -= amt
    p.total += amt
    if live:
        p.bet += amt
    elif dead:
        p.ante += amt
    if p.stack == 0:
        p.allin = True
    ev.append({
        "type": "posted_blind" if live else "posted_ante", "seat": p.seat, "kind": kind,
        "amount": amt, "stack": p.stack, "version": s.version,
    })


def _straddler(rules: TableRules, players: list[Player], by_seat: dict[int, SeatIn],
               bb_i: int) -> int:
    """The index of the player who straddles, or -1: the player under the gun (left of the big
    blind) who asked to, with three or more players dealt in, at a no-limit or pot-limit table
    (a fixed-limit table has no straddle), and with more than the straddle in his stack (a
    straddle is never an all-in)."""
    n = len(players)
    if n < 3 or rules.structure is Structure.FIXED_LIMIT:
        return -1
    utg = (bb_i + 1) % n
    p = players[utg]
    if not by_seat[p.seat].straddle or p.stack <= 2 * rules.lower_stake:
        return -1
    return utg


def start_hand(
    rules: TableRules,
    seats: list[SeatIn],
    button: int,
    seed: bytes | str | None = None,
    deal: str = "auto",
    forced_bets: dict[int, int] | None = None,
    antes: dict[int, int] | None = None,
    dead_antes: bool | None = None,
    deck: Sequence[str] | None = None,
    commitment: str | None = None,
    run_it_twice: bool = False,
) -> tuple[HandState, list[dict]]:
    """Post antes and blinds, deal (or wait for manual cards) and open preflop betting.

    A player under the gun whose ``SeatIn.straddle`` is set posts a live straddle of two big
    blinds after the blinds (``_straddler`` says when it counts): preflop action then opens
    left of him, the straddle is the bet to call and the size of a raise, and he acts last
    preflop with the option to raise, as the big blind does without a straddle.

    ``forced_bets``/``antes`` (seat -> amount) replace the computed blinds/antes, e.g. for
    straddles or PHH replay: the largest forced bet then sizes raises, and action opens left of
    the last largest one. A negative forced bet is a live post out of position (a player
    entering the game posts a big blind, as PHH and pokerkit write it): it counts as his bet
    this round but moves neither the opener nor the size of raises.

    Antes paid by every player are ordinary contributions (an all-in player wins only up to his
    own ante from each opponent); a big-blind ante is dead money forming a main pot that every
    player still in may win. ``dead_antes`` overrides that for an explicit ``antes`` dict
    (default: dead when only one seat posts an ante).

    ``run_it_twice``: the table offers running the rest of the board twice when everyone
    still in is all in before the river (runs.py; answered with ``actions.choose_runs``).

    The cards come from ``deck`` (dealing order) under its public ``commitment`` (the fair
    deal: fairness.py), or from ``shuffled_deck(seed)`` under ``sha256(seed)`` (tests, tools).
    """
    if deal not in ("auto", "manual"):
        raise IllegalAction("bad_deal_mode", deal)
    if len(seats) < 2:
        raise IllegalAction("too_few_players", "a hand needs two players")
    if len(seats) > 10:
        raise IllegalAction("too_many_players", "at most ten players")
    by_seat = {si.seat: si for si in seats}
    if len(by_seat) != len(seats):
        raise IllegalAction("duplicate_seat", "a seat is listed twice")
    for si in seats:
        if si.stack <= 0:
            raise IllegalAction("bad_stack", f"seat {si.seat} has no chips")
    if deal == "auto" and seed is None and deck is None:
        raise IllegalAction("no_seed", "auto dealing needs a seed or a deck")
    if deck is not None and (len(deck) != 52 or len(set(deck)) != 52):
        raise IllegalAction("bad_deck", "a deck has 52 different cards")
    order = clockwise_from_button(button, list(by_seat))
    if len(order) == 2 and button not in by_seat:
        # Heads-up the small blind plays the button (acts first preflop, last after), even when
        # the button seat itself is not dealt in: it goes last in dealing order.
        order.reverse()
    players = [Player(seat, by_seat[seat].player_id, by_seat[seat].stack) for seat in order]
    for p in players:
        p.always_show = by_seat[p.seat].always_show
    s = HandState(rules, players, button)
    s.deal_mode = deal
    s.run_twice = run_it_twice
    s.version = 1
    if seed is not None:
        raw = bytes.fromhex(seed) if isinstance(seed, str) else bytes(seed)
        s.seed = raw.hex()
        s.commitment = seed_commitment(raw)
    if deck is not None:
        s.commitment = commitment
    ev: list[dict] = [{
        "type": "hand_start", "button": button, "seats": order, "commitment": s.commitment,
        "version": s.version,
    }]
    n = len(players)
    index = {p.seat: i for i, p in enumerate(players)}
    straddler = -1
    if forced_bets is None and antes is None:
        if n == 2:
            sb_i, bb_i = 1, 0
        else:
            sb_i, bb_i = 0, 1
        if rules.ante:
            if rules.bb_ante:
                _post(s, bb_i, rules.ante * n, "bb_ante", False, ev, dead=True)
            else:
                for i in range(n):
                    _post(s, i, rules.ante, "ante", False, ev)
        _post(s, sb_i, rules.small_blind_amount, "sb", True, ev)
        _post(s, bb_i, rules.lower_stake, "bb", True, ev)
        straddler = _straddler(rules, players, by_seat, bb_i)
        if straddler >= 0:
            _post(s, straddler, 2 * rules.lower_stake, "straddle", True, ev)
            s.straddle = players[straddler].seat
        for si in seats:
            i = index[si.seat]
            if si.post_bb and i not in (sb_i, bb_i, straddler):  # a straddle covers his BB
                _post(s, i, rules.lower_stake, "extra_bb", True, ev)
        s.big_blind = rules.lower_stake
        s.opener = (bb_i + 1) % n if straddler < 0 else (straddler + 1) % n
        s.raise_count = 1
    else:
        for seat in antes or {}:
            if seat not in index:
                raise IllegalAction("not_in_hand", f"ante for seat {seat}")
        for seat in forced_bets or {}:
            if seat not in index:
                raise IllegalAction("not_in_hand", f"forced bet for seat {seat}")
        if dead_antes is None:
            dead_antes = sum(1 for a in (antes or {}).values() if a > 0) == 1
        for i, p in enumerate(players):
            amount = (antes or {}).get(p.seat, 0)
            if amount:
                _post(s, i, amount, "ante", False, ev, dead=dead_antes)
        big_i, big = -1, 0
        for i, p in enumerate(players):
            amount = (forced_bets or {}).get(p.seat, 0)
            if amount < 0:
                _post(s, i, -amount, "forced", True, ev)
            elif amount:
                _post(s, i, amount, "forced", True, ev)
                if amount >= big:
                    big_i, big = i, amount
        s.big_blind = big if big > 0 else rules.lower_stake
        s.opener = (big_i + 1) % n
        s.raise_count = 1 if big > 0 else 0
    # A blind all-in for less than its size does not lower the bet: at 5/10 a big blind who
    # posts only 4 still leaves 10 to call and a raise to (at least) 20 (rules: "the value of
    # each bet in the first round is $10").
    s.current_bet = max(max(p.bet for p in players), s.big_blind if s.raise_count else 0)
    s.min_raise = s.big_blind
    s.last_full_to = s.big_blind if s.raise_count else 0
    if forced_bets is None and antes is None and straddler >= 0:
        # The straddle is the bet to call and sizes raises preflop (a raise is to 4 BB or
        # more); the big blind still sizes bets after the flop (flow.start_betting).
        s.current_bet = s.min_raise = s.last_full_to = 2 * rules.lower_stake
    if deal == "auto":
        s.deck = list(deck) if deck is not None else shuffled_deck(s.seed)  # type: ignore[arg-type]
        deck = s.deck
        for i, p in enumerate(players):
            p.hole = [deck[i], deck[n + i]]
            ev.append({
                "type": "hole_cards", "seat": p.seat, "to_seat": p.seat, "cards": list(p.hole),
                "version": s.version,
            })
        s.deck_pos = 2 * n
        flow.advance(s, ev, s.opener)
    else:
        s.pending = "hole"
    return s, ev
