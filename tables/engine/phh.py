"""Poker Hand History (PHH) files: read, write, and verify them against our engine.

PHH (https://phh.readthedocs.io, repository uoftcprg/phh-std) is TOML. The fields we use:
``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet`` (NT/PT) or ``small_bet``/``big_bet``
(FT), ``starting_stacks``, ``actions``, ``finishing_stacks``; every other field is kept verbatim in
``HandHistory.extra`` so a read-write round trip loses nothing but comments. ``PT`` (pot-limit
Texas hold'em, fields as NT) is our own variant code; other variants are skipped.

Seats: PHH player ``pK`` is our seat ``K``, and the button is the last seat ``N``. PHH reverses
antes and blinds heads-up, which is exactly our heads-up rule (the button posts the small blind):
heads-up ``p1`` is the big blind and ``p2`` the button. Non-zero ``blinds_or_straddles`` after
the big blind are straddles (action opens left of the last one). ``ante_trimming_status = false``
means dead antes (a big-blind ante open to every player still in), as in pokerkit.

Replay (``replay``/``verify``) drives our engine through its public API with manual dealing: hole
cards come from the ``d dh`` actions (``??`` = unknown card), board cards from ``d db``, shows from
``pN sm CARDS`` (which may reveal cards that were unknown), mucks from ``pN sm`` without cards.
Shows that come before the board is complete (all-in showdowns) are remembered and applied when
the engine asks for them. Amounts written with decimals are scaled by the smallest power of ten
(up to 10^4) that makes every input amount an integer.

Odd chips. Our rule gives an odd chip of a split pot to the first winner clockwise from the button.
Real hand histories sometimes record the split differently: Pluribus logs give each winner half a
chip (``10162.5``), and a casino may use another odd-chip rule. So a replay whose stacks differ
from ``finishing_stacks`` still passes when (1) the totals agree, (2) every differing player won a
share of a split pot in our replay, and (3) each difference is at most one unit per split pot that
player shared. Such hands are counted as passed and reported in a ``note:`` line before the
summary. Any other difference fails.

CLI: ``python -m tables.engine.phh verify PATH...`` (files, or directories searched recursively
for ``*.phh`` and ``*.phhs``; a ``.phhs`` hand set is read hand by hand) prints one line per
failed or erroring hand and ends with exactly
``N passed, M failed, K skipped``; the exit status is 0 only when M == 0. Skipped: variants other
than NT/FT/PT and hands without ``finishing_stacks``.
"""

from __future__ import annotations

import datetime
import math
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOLDEM_VARIANTS = frozenset({"NT", "FT", "PT"})
_CARD = re.compile(r"[2-9TJQKA?][cdhs?]")

Number = int | float


@dataclass
class HandHistory:
    """One PHH hand. Numbers stay as written (int or float); ``extra`` holds every other field."""

    variant: str
    antes: list[Number]
    blinds_or_straddles: list[Number]
    starting_stacks: list[Number]
    actions: list[str]
    min_bet: Number | None = None
    small_bet: Number | None = None
    big_bet: Number | None = None
    ante_trimming_status: bool | None = None
    finishing_stacks: list[Number] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)


@dataclass(frozen=True)
class Action:
    """One parsed action: ``actor`` is ``"d"`` or a 1-based player number."""

    actor: str | int
    verb: str  # "db", "dh", "f", "cc", "cbr", "sm", "sd", "pb", "" (no-op)
    cards: tuple[str | None, ...] | None = None  # None card = unknown (``??``)
    amount: Number | None = None
    player: int | None = None  # the dealt-to player of ``d dh``
    commentary: str | None = None


# --- reading -----------------------------------------------------------------------------------


def loads(text: str) -> HandHistory:
    """Parse PHH text (TOML) into a ``HandHistory``."""
    return _from_table(tomllib.loads(text))


def loads_all(text: str) -> list[tuple[str, HandHistory]]:
    """Every hand in a PHH text, with its key: a ``.phh`` file is one hand (key ``""``), a
    ``.phhs`` file a set of hands in TOML tables ``[1]``, ``[2]``, ... (the PHH spec's hand
    sets, as pokerkit's ``HandHistory.loads_all`` reads them)."""
    data = tomllib.loads(text)
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        return [(str(key), _from_table(table)) for key, table in data.items()]
    return [("", _from_table(data))]


def _from_table(data: dict[str, Any]) -> HandHistory:
    known = {
        "variant",
        "antes",
        "blinds_or_straddles",
        "starting_stacks",
        "actions",
        "min_bet",
        "small_bet",
        "big_bet",
        "ante_trimming_status",
        "finishing_stacks",
    }
    try:
        hh = HandHistory(
            variant=str(data["variant"]),
            antes=list(data.get("antes", [])),
            blinds_or_straddles=list(data.get("blinds_or_straddles", [])),
            starting_stacks=list(data["starting_stacks"]),
            actions=[str(a) for a in data.get("actions", [])],
            min_bet=data.get("min_bet"),
            small_bet=data.get("small_bet"),
            big_bet=data.get("big_bet"),
            ante_trimming_status=data.get("ante_trimming_status"),
            finishing_stacks=data.get("finishing_stacks"),
            extra={k: v for k, v in data.items() if k not in known},
        )
    except KeyError as exc:
        raise ValueError(f"missing required field {exc.args[0]!r}") from None
    return hh


def load(path: str | Path) -> HandHistory:
    return loads(Path(path).read_text(encoding="utf-8"))


def load_all(path: str | Path) -> list[tuple[str, HandHistory]]:
    return loads_all(Path(path).read_text(encoding="utf-8"))


def parse_cards(text: str) -> tuple[str | None, ...]:
    """``"Ac??Td"`` -> ``("Ac", None, "Td")``; raises ValueError on anything else."""
    if not text or len(text) % 2:
        raise ValueError(f"bad cards {text!r}")
    cards: list[str | None] = []
    for i in range(0, len(text), 2):
        card = text[i : i + 2]
        if not _CARD.fullmatch(card):
            raise ValueError(f"bad card {card!r} in {text!r}")
        cards.append(None if "?" in card else card)
    return tuple(cards)


def parse_amount(text: str) -> Number:
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"bad amount {text!r}")
    return int(text) if re.fullmatch(r"\d+", text) else value


def parse_action(text: str) -> Action:
    """Parse one action notation, e.g. ``"p3 cbr 225"``, ``"d dh p1 Ac??"``, ``"p2 sm"``."""
    commentary = None
    if "#" in text:
        text, commentary = text.split("#", 1)
        commentary = commentary.strip()
    words = text.split()
    if not words:
        return Action(actor="d", verb="", commentary=commentary)
    match words:
        case ["d", "db", cards]:
            return Action("d", "db", cards=parse_cards(cards), commentary=commentary)
        case ["d", "dh", player, cards]:
            return Action(
                "d", "dh", cards=parse_cards(cards), player=_player(player), commentary=commentary
            )
        case [player, ("f" | "cc" | "pb") as verb]:
            return Action(_player(player), verb, commentary=commentary)
        case [player, "cbr", amount]:
            amount_value = parse_amount(amount)
            return Action(_player(player), "cbr", amount=amount_value, commentary=commentary)
        case [player, ("sm" | "sd") as verb]:
            return Action(_player(player), verb, cards=None, commentary=commentary)
        case [player, ("sm" | "sd") as verb, cards]:
            parsed = () if cards == "-" else parse_cards(cards)
            return Action(_player(player), verb, cards=parsed, commentary=commentary)
    raise ValueError(f"unknown action {text!r}")


def _player(word: str) -> int:
    if not re.fullmatch(r"p[1-9]\d*", word):
        raise ValueError(f"bad player {word!r}")
    return int(word[1:])


# --- writing -----------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to PHH")


def dumps(hh: HandHistory) -> str:
    """Write a ``HandHistory`` as PHH text; ``loads(dumps(hh)) == hh``."""
    values: dict[str, Any] = {
        "variant": hh.variant,
        "ante_trimming_status": hh.ante_trimming_status,
        "antes": hh.antes,
        "blinds_or_straddles": hh.blinds_or_straddles,
        "small_bet": hh.small_bet,
        "big_bet": hh.big_bet,
        "min_bet": hh.min_bet,
        "starting_stacks": hh.starting_stacks,
    }
    lines = [f"{k} = {_toml_value(v)}" for k, v in values.items() if v is not None]
    lines.append("actions = [")
    lines.extend(f"  {_toml_value(a)}," for a in hh.actions)
    lines.append("]")
    for key, value in hh.extra.items():
        lines.append(f"{key} = {_toml_value(value)}")
    if hh.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml_value(hh.finishing_stacks)}")
    return "\n".join(lines) + "\n"


def format_cards(cards: Iterable[str | None]) -> str:
    return "".join(card or "??" for card in cards)


# --- from our engine ------------------------------------------------------------------------------

_VARIANT_OF = {"FIXED_LIMIT": "FT", "NO_LIMIT": "NT", "POT_LIMIT": "PT"}


def from_hand(state: Any, events: Iterable[dict]) -> HandHistory:
    """The PHH of a hand our engine played: ``state`` after the hand, ``events`` every event
    from ``start_hand`` on (in order, private ones included).

    Seats become ``p1..pN`` in dealing order (first seat left of the button first, the button
    last; heads-up ``p1`` is the big blind), recorded in the ``seats`` field. Blinds and antes are
    written at their nominal size. The table's rake rule travels in user fields (``_rake_bp``,
    ``_rake_cap``, ``_rake_no_flop_no_drop``) so ``replay`` reproduces raked stacks.

    Things PHH has no action for, written so that PHH readers (ours, pokerkit) read them:
    * an extra live big blind posted out of position by a player entering the game is a
      negative ``blinds_or_straddles`` entry (pokerkit's notation for it: a live bet that does
      not move the opener, unlike a straddle);
    * a timeout all-in (the player stays in for what he has put in, bets no more) is that
      player going all-in: his ``starting_stacks`` entry is what he put in, the chips he kept
      are in the user field ``_stacks_behind`` (his true stacks are the sum of the two), his
      checks after it are left out, the timeout is a commentary no-op, and a raise nobody
      can answer any more (in the file) is written as the call it amounts to (the excess
      comes back), and a check or bet when nobody else can bet is left out;
    * run it twice (the PHH spec and pokerkit's reader have no action for a second run-out):
      the first run is the board (``d db``), the second run's streets are the user field
      ``_second_board`` (``d db`` lines, the cards after those both runs share) with
      ``_run_count = 2``, and ``finishing_stacks`` are what was paid (each pot split between
      the runs), so ``verify_hand`` skips such a hand rather than replay one run;
    * cards shown after the hand (``shown`` after ``hand_end``: a folded or uncontested hand
      turned up in the pause) are in the deal line, as known cards are, and in the user field
      ``_shown_after_hand`` (``"pN CARDS"``), not as a show action the hand has no room for.
    """
    events = list(events)
    rules = state.rules
    players = state.players
    n = len(players)
    index = {p.seat: k for k, p in enumerate(players)}
    antes = [0] * n
    forced = [0] * n
    actions: list[str] = []
    table_blinds = True  # blinds from the table rules, not explicit forced bets (straddles)
    # Timeout all-ins: what each such player put in the pot, and the file's all-in players.
    put_in = [0] * n
    timed_out = {index[e["seat"]] for e in events
                 if e.get("type") == "action" and e.get("action") == "timeout_allin"}
    stake = _stakes_of(events, index, n) if timed_out else [0] * n
    allin = [False] * n
    folded = [False] * n
    bets = [0] * n  # this round's bets
    # Chips each player has in the file: a timeout all-in player only his stake.
    room = [stake[k] if k in timed_out else p.start_stack for k, p in enumerate(players)]
    deal_line: dict[int, int] = {}
    after_hand: list[str] = []
    over = False
    for e in events:
        kind = e.get("type")
        if kind in ("posted_ante", "posted_blind"):
            i = index[e["seat"]]
            # A short stack posts less than the forced bet; PHH wants the nominal size.
            nominal = {
                "ante": rules.ante, "bb_ante": rules.ante * n, "sb": rules.small_blind_amount,
                "bb": rules.lower_stake, "extra_bb": rules.lower_stake,
            }.get(e["kind"], 0)
            amount = nominal if e["stack"] == 0 and nominal > e["amount"] else e["amount"]
            if e["kind"] == "extra_bb":
                amount = -amount
            (antes if kind == "posted_ante" else forced)[i] = amount
            table_blinds = table_blinds and e["kind"] != "forced"
            put_in[i] += e["amount"]
            if kind == "posted_blind":
                bets[i] += e["amount"]
            allin[i] = e["stack"] == 0 or (i in timed_out and put_in[i] >= stake[i])
        elif kind == "hole_cards":
            deal_line[index[e["seat"]]] = len(actions)
            actions.append(f"d dh p{index[e['seat']] + 1} {format_cards(e['cards'])}")
        elif kind == "board":
            actions.append(f"d db {format_cards(e['cards'])}")
            bets = [0] * n
        elif kind == "returned_uncalled":
            put_in[index[e["seat"]]] -= e["amount"]
        elif kind == "action":
            i = index[e["seat"]]
            who = f"p{i + 1}"
            verb = e["action"]
            note = " # timeout" if e.get("timeout") else ""
            if verb == "timeout_allin":
                actions.append(f"# {who} timed out: all-in for the pot so far")
                allin[i] = True
                continue
            added = e.get("added", e.get("amount", 0) if verb == "call" else 0)
            top = max(bets)
            alone = bool(timed_out) and not any(
                not (allin[k] or folded[k]) and room[k] - put_in[k] > top - bets[k]
                for k in range(n) if k != i)  # nobody could answer a raise
            facing = max(bets) > bets[i]
            put_in[i] += added
            bets[i] += added
            if (i in timed_out and allin[i]) or (alone and not facing):
                continue  # no betting for him in the file: he or all the others are all-in
            if verb == "fold":
                folded[i] = True
                actions.append(f"{who} f{note}")
            elif verb in ("check", "call") or alone:
                actions.append(f"{who} cc{note}")  # alone: a raise nobody can answer is a call
            else:
                actions.append(f"{who} cbr {e['amount']}{note}")
            allin[i] = e.get("stack") == 0 or (i in timed_out and put_in[i] >= stake[i])
        elif kind == "hand_end":
            over = True
        elif kind == "shown" and over:
            i = index[e["seat"]]
            cards = format_cards(e["cards"])
            after_hand.append(f"p{i + 1} {cards}")
            if i in deal_line:
                actions[deal_line[i]] = f"d dh p{i + 1} {cards}"
        elif kind == "shown":
            actions.append(f"p{index[e['seat']] + 1} sm {format_cards(e['cards'])}")
        elif kind == "mucked":
            actions.append(f"p{index[e['seat']] + 1} sm")
    if table_blinds:  # a blind all-in on his ante posts nothing, yet the blind is still due
        sb_i, bb_i = (1, 0) if n == 2 else (0, 1)
        forced[sb_i] = rules.small_blind_amount
        forced[bb_i] = rules.lower_stake
    if n == 2:
        antes.reverse()
        forced.reverse()
    variant = _VARIANT_OF[rules.structure.value]
    hh = HandHistory(
        variant=variant,
        ante_trimming_status=not any(getattr(p, "ante", 0) for p in players),  # dead antes
        antes=antes,
        blinds_or_straddles=forced,
        starting_stacks=[p.start_stack for p in players],
        actions=actions,
        finishing_stacks=[p.stack for p in players] if state.is_over else None,
    )
    if timed_out:
        behind = [p.start_stack - stake[k] if k in timed_out else 0
                  for k, p in enumerate(players)]
        hh.starting_stacks = [v - b for v, b in zip(hh.starting_stacks, behind, strict=True)]
        if hh.finishing_stacks is not None:
            hh.finishing_stacks = [v - b for v, b in
                                   zip(hh.finishing_stacks, behind, strict=True)]
        hh.extra["_stacks_behind"] = behind
    if variant == "FT":
        hh.small_bet, hh.big_bet = rules.lower_stake, rules.big_bet
    else:
        hh.min_bet = rules.lower_stake
    if rules.bet_unit != 1:
        hh.extra["_bet_unit"] = rules.bet_unit
    hh.extra["seats"] = [p.seat for p in players]
    hh.extra["players"] = [str(p.player_id) for p in players]
    rake = rules.rake
    if rake.percent_bp:
        from tables.engine.rake import rake_cap

        hh.extra["_rake_bp"] = rake.percent_bp
        cap = rake_cap(rake, n)
        if cap is not None:
            hh.extra["_rake_cap"] = cap
        hh.extra["_rake_no_flop_no_drop"] = rake.no_flop_no_drop
    if after_hand:
        hh.extra["_shown_after_hand"] = after_hand
    board2 = getattr(state, "board2", None)
    if board2 is not None:  # run it twice: the second run-out beside the first
        hh.extra["_run_count"] = 2
        hh.extra["_second_board"] = [f"d db {format_cards(e['cards'])}" for e in events
                                     if e.get("type") == "second_board"]
    if state.commitment:
        hh.extra["_commitment"] = state.commitment
    if state.is_over and state.seed:
        hh.extra["_seed"] = state.seed
    return hh


def _stakes_of(events: list[dict], index: dict[int, int], n: int) -> list[int]:
    """What each player has in the pot when the hand ends (posts and bets, less what came
    back uncalled): a timeout all-in player's stake in the hand."""
    stakes = [0] * n
    for e in events:
        kind = e.get("type")
        if kind in ("posted_ante", "posted_blind"):
            stakes[index[e["seat"]]] += e["amount"]
        elif kind == "returned_uncalled":
            stakes[index[e["seat"]]] -= e["amount"]
        elif kind == "action" and e["action"] in ("call", "bet", "raise"):
            stakes[index[e["seat"]]] += e["amount"] if e["action"] == "call" else e["added"]
    return stakes


# --- replay ------------------------------------------------------------------------------------


class ReplayError(ValueError):
    """The hand cannot be replayed: an action our engine refuses, or a malformed file."""


@dataclass
class Replay:
    """What our engine made of a hand: stacks in file order (in scaled units)."""

    stacks: list[int]
    scale: int
    split_shares: list[int]  # per player: how many split pots (2+ winners) he shared
    state: Any = None


def amount_scale(hh: HandHistory) -> int:
    """The smallest power of ten (<= 10^4) that turns every input amount into an integer."""
    values: list[Number] = [*hh.antes, *hh.blinds_or_straddles, *hh.starting_stacks]
    values += [v for v in (hh.min_bet, hh.small_bet, hh.big_bet) if v is not None]
    for text in hh.actions:
        words = text.split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "cbr":
            values.append(parse_amount(words[2]))
    for scale in (1, 10, 100, 1000, 10000):
        if all(_is_integral(v * scale) for v in values):
            return scale
    raise ReplayError("amounts need more than four decimals")


def _is_integral(value: Number) -> bool:
    return isinstance(value, int) or (math.isfinite(value) and abs(value - round(value)) < 1e-6)


def _scaled(value: Number, scale: int) -> int:
    if not _is_integral(value * scale):
        raise ReplayError(f"amount {value!r} is not a multiple of 1/{scale}")
    return round(value * scale)


def replay(hh: HandHistory) -> Replay:
    """Play ``hh`` through our engine (manual dealing) and return the finishing stacks."""
    from tables.engine import (
        IllegalAction,
        SeatIn,
        Structure,
        TableRules,
        apply_action,
        deal_board,
        deal_hole,
        legal_actions,
        start_hand,
    )

    if hh.variant not in HOLDEM_VARIANTS:
        raise ReplayError(f"variant {hh.variant!r} is not Texas hold'em")
    n = hh.player_count
    if n < 2 or len(hh.antes) != n or len(hh.blinds_or_straddles) != n:
        raise ReplayError("antes, blinds_or_straddles and starting_stacks differ in length")
    scale = amount_scale(hh)
    stacks = [_scaled(v, scale) for v in hh.starting_stacks]
    antes = [_scaled(v, scale) for v in hh.antes]
    blinds = [_scaled(v, scale) for v in hh.blinds_or_straddles]
    if n == 2:  # PHH reverses forced bets heads-up: p1 is the big blind, p2 the button
        antes.reverse()
        blinds.reverse()
    big_blind = max(blinds) or 1
    if hh.variant == "FT":
        if hh.small_bet is None or hh.big_bet is None:
            raise ReplayError("FT needs small_bet and big_bet")
        rules = TableRules(
            structure=Structure.FIXED_LIMIT,
            lower_stake=_scaled(hh.small_bet, scale),
            upper_stake=_scaled(hh.big_bet, scale),
        )
    else:
        min_bet = _scaled(hh.min_bet, scale) if hh.min_bet is not None else big_blind
        rules = TableRules(
            structure=Structure.NO_LIMIT if hh.variant == "NT" else Structure.POT_LIMIT,
            lower_stake=min_bet,
        )
    from dataclasses import replace

    if hh.extra.get("_bet_unit"):
        rules = replace(rules, bet_unit=_scaled(hh.extra["_bet_unit"], scale))
    if hh.extra.get("_rake_bp"):
        from tables.engine import RakeRule

        rake = RakeRule(
            percent_bp=int(hh.extra["_rake_bp"]),
            cap=hh.extra.get("_rake_cap"),
            no_flop_no_drop=bool(hh.extra.get("_rake_no_flop_no_drop", True)),
        )
        rules = replace(rules, rake=rake)
    actions = [parse_action(a) for a in hh.actions]
    shows: dict[int, tuple[str | None, ...] | None] = {}  # player -> shown cards, None = muck
    for a in actions:
        if a.verb == "sm" and isinstance(a.actor, int):
            shows[a.actor] = a.cards if a.cards else None
        elif a.verb in ("sd", "pb"):
            raise ReplayError(f"{a.verb!r} is not a hold'em action")

    try:
        state, _ = start_hand(
            rules=rules,
            seats=[SeatIn(seat=k + 1, player_id=f"p{k + 1}", stack=stacks[k]) for k in range(n)],
            button=n,
            seed=None,
            deal="manual",
            forced_bets={k + 1: b for k, b in enumerate(blinds) if b},
            antes={k + 1: a for k, a in enumerate(antes) if a},
            # PHH (as pokerkit): without ante trimming, antes are dead money open to all.
            dead_antes=None if hh.ante_trimming_status is None else not hh.ante_trimming_status,
        )
    except IllegalAction as exc:
        raise ReplayError(f"start: {exc}") from None

    def settle_showdown() -> None:
        """Answer the engine's show-or-muck questions from the file's ``sm`` actions."""
        while True:
            la = legal_actions(state)
            if la is None or not (la.show or la.muck) or la.fold:
                return
            seat = la.seat
            shown = shows.get(seat, ())
            hole = state.player(seat).hole
            if shown is None or (shown == () and (not hole or None in hole)):
                apply_action(state, seat, "muck")
            elif shown:
                cards = _complete(hole, shown)
                apply_action(state, seat, "show", cards=cards)
            else:
                apply_action(state, seat, "show")

    for number, a in enumerate(actions, 1):
        where = f"action {number} {hh.actions[number - 1]!r}"
        try:
            if a.verb == "":
                continue
            if a.verb == "dh":
                assert a.player is not None and a.cards is not None
                cards = a.cards
                if None in cards and isinstance(shows.get(a.player), tuple):
                    cards = tuple(_complete(list(cards), shows[a.player]))  # type: ignore[arg-type]
                if len(cards) != 2:
                    raise ReplayError(f"{where}: hold'em deals two hole cards")
                deal_hole(state, a.player, list(cards))
            elif a.verb == "db":
                assert a.cards is not None
                if None in a.cards:
                    raise ReplayError(f"{where}: unknown board cards")
                deal_board(state, list(a.cards))  # type: ignore[arg-type]
            elif a.verb == "sm":
                pass  # shows are answered when the engine asks (settle_showdown)
            else:
                la = legal_actions(state)
                if la is None or la.seat != a.actor or la.show:
                    raise ReplayError(f"{where}: p{a.actor} is not to act")
                if a.verb == "f":
                    apply_action(state, la.seat, "fold")
                elif a.verb == "cc":
                    apply_action(state, la.seat, "check" if la.check else "call")
                else:
                    to = _scaled(a.amount, scale)  # type: ignore[arg-type]
                    verb = "bet" if la.bet else "raise"
                    apply_action(state, la.seat, verb, to)
            settle_showdown()
        except IllegalAction as exc:
            raise ReplayError(f"{where}: {exc}") from None
    if not state.is_over:
        raise ReplayError(f"hand not finished after the last action (street {state.street_name})")
    splits = [0] * n
    for pot in (state.result or {}).get("pots", []):
        if len(pot["winners"]) > 1:
            for seat in pot["winners"]:
                splits[seat - 1] += 1
    finals = [state.player(k + 1).stack for k in range(n)]
    return Replay(stacks=finals, scale=scale, split_shares=splits, state=state)


def _complete(hole: list[str | None] | None, shown: Sequence[str | None]) -> list[str]:
    """The shown cards, with any ``??`` in the show filled from the known hole cards."""
    known = list(hole or [None, None])
    cards = [s if s is not None else h for s, h in zip(shown, known, strict=False)]
    if len(cards) != 2 or None in cards:
        raise ReplayError(f"cannot tell the shown cards {format_cards(shown)}")
    return cards  # type: ignore[return-value]


@dataclass
class Verdict:
    """``status`` is "passed", "failed" or "skipped"; ``odd_chip`` marks a tolerated split."""

    status: str
    message: str = ""
    odd_chip: bool = False


def verify_hand(hh: HandHistory) -> Verdict:
    """Replay one hand and compare with its ``finishing_stacks`` (see the module docstring)."""
    if hh.variant not in HOLDEM_VARIANTS:
        return Verdict("skipped", f"variant {hh.variant}")
    if hh.finishing_stacks is None:
        return Verdict("skipped", "no finishing_stacks")
    if hh.extra.get("_run_count", 1) != 1:
        return Verdict("skipped", "run twice: PHH has no action for a second run-out")
    try:
        result = replay(hh)
    except ReplayError as exc:
        return Verdict("failed", f"error: {exc}")
    expected = [v * result.scale for v in hh.finishing_stacks]
    if len(expected) != len(result.stacks):
        return Verdict("failed", "finishing_stacks has the wrong length")
    diffs = [ours - theirs for ours, theirs in zip(result.stacks, expected, strict=True)]
    if all(abs(d) < 1e-6 for d in diffs):
        return Verdict("passed")
    tolerated = abs(sum(diffs)) < 1e-6 and all(
        abs(d) < 1e-6 or abs(d) <= result.split_shares[k] + 1e-6 for k, d in enumerate(diffs)
    )
    if tolerated:
        return Verdict("passed", "odd chip of a split pot", odd_chip=True)
    ours = [_unscale(v, result.scale) for v in result.stacks]
    return Verdict("failed", f"finishing stacks {ours} != file {hh.finishing_stacks}")


def _unscale(value: int, scale: int) -> Number:
    return value if scale == 1 else value / scale


@dataclass
class Report:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    odd_chip: int = 0

    @property
    def summary(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def verify_paths(paths: Sequence[str | Path], out: Any = None) -> Report:
    """Verify every hand under ``paths``; print failures and the summary line to ``out``."""
    report = Report()
    for path in iter_phh_paths(paths):
        try:
            hands = load_all(path)
        except (OSError, ValueError, tomllib.TOMLDecodeError) as exc:
            report.failed += 1
            _print(out, f"{path}: error: cannot read: {exc}")
            continue
        for key, hh in hands:
            try:
                verdict = verify_hand(hh)
            except Exception as exc:  # an engine crash fails this hand, not the run
                verdict = Verdict("failed", f"error: engine crashed: {type(exc).__name__}: {exc}")
            if verdict.status == "passed":
                report.passed += 1
                report.odd_chip += verdict.odd_chip
            elif verdict.status == "skipped":
                report.skipped += 1
            else:
                report.failed += 1
                _print(out, f"{path}{f'[{key}]' if key else ''}: {verdict.message}")
    if report.odd_chip:
        _print(
            out,
            f"note: {report.odd_chip} passed hands differ from the file only by the odd chip "
            "of a split pot (tolerated, see tables/engine/phh.py)",
        )
    _print(out, report.summary)
    return report


def _print(out: Any, line: str) -> None:
    if out is not None:
        print(line, file=out, flush=True)


# --- files -------------------------------------------------------------------------------------


def iter_phh_paths(paths: Sequence[str | Path]) -> Iterator[Path]:
    """Files as given, directories searched recursively for ``*.phh`` and ``*.phhs`` (sorted,
    stable output)."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.phh*")
                              if p.is_file() and p.suffix in (".phh", ".phhs"))
        else:
            yield path


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] != "verify":
        print("usage: python -m tables.engine.phh verify PATH...", file=sys.stderr)
        return 2
    report = verify_paths(args[1:], out=sys.stdout)
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
