"""Hand histories in PokerStars' text format, the one hand-history trackers import.

Written as PokerStars writes cash-game hands: the header ``PokerStars Hand #N:  Hold'em No
Limit ($0.01/$0.02 USD) - <local time> [<Eastern time> ET]`` (two spaces after the colon; the
room's time zone is the "local" one), ``(Play Money)`` on the Table line of play-money hands,
and every hand followed by two blank lines (pokerkit's PokerStars parser, like the trackers,
splits a file on them). Real-money amounts are dollars ("$2.50"), play-money amounts plain chips
("250"). Where the room differs from PokerStars, the nearest thing PokerStars wrote:
* a timeout all-in (the player stays in for the pot so far) is PokerStars' all-in protection of
  a disconnected player: ``<name> has timed out while being disconnected``, with no action, the
  later bets forming side pots;
* a big blind posted by a player entering the game is ``posts big blind``, as PokerStars wrote
  a new player's post out of position;
* the straddle under the gun is ``<name>: posts straddle $4`` (PokerStars' line at tables
  with straddles), untagged in the summary as PokerStars writes it;
* cards shown in the pause after the hand are ``<name>: shows [Th Ah] (high card Ace)`` after
  the pot is collected, as PokerStars wrote a voluntary show (the hand described with the
  board so far, or the two cards alone before the flop).
Run it twice is written as PokerStars writes it: the run-out's streets as ``*** FIRST FLOP ***``
... then ``*** SECOND FLOP ***`` ..., ``*** FIRST SHOW DOWN ***`` (the hands and what the first
run won) and ``*** SECOND SHOW DOWN ***`` (what the second won), and in the summary ``Hand was
run twice``, ``FIRST Board [...]`` and ``SECOND Board [...]``.
As PokerStars writes them, pots are collected side pots first (the last one first) and the
main pot last, and a pot won without a showdown ends with ``<name>: doesn't show hand`` unless
the winner shows.

Written for one player: "Dealt to" names his own hole cards only; other players' cards appear
only when shown (mucked hands never).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from cashier.money import Currency, money_format
from tables.engine import describe
from tables.engine.cards import RANK_NAMES, RANK_PLURALS, RANKS
from tables.histories.record import HandRecord

EASTERN = ZoneInfo("America/New_York")

GAME = {"NL": "Hold'em No Limit", "PL": "Hold'em Pot Limit", "FL": "Hold'em Limit"}
BLIND_WORDS = {"sb": "small blind", "straddle": "straddle"}  # bb and extra_bb: "big blind"
STREET_HEADERS = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}
STREET_WORDS = {"preflop": "before Flop", "flop": "on the Flop", "turn": "on the Turn",
                "river": "on the River"}


def hand_text(record: HandRecord, user_id: int | None) -> str:
    """One hand as PokerStars writes it, seen by ``user_id``."""
    state = record.state
    rules = state.rules
    real = record.real_money
    currency = Currency.REAL if real else Currency.PLAY
    viewer = record.seat_of(user_id)

    def m(amount: int) -> str:
        return money_format(amount, currency, grouped=False)

    def name(seat: int) -> str:
        return record.names.get(seat, f"Seat {seat}")

    if record.structure == "FL":
        low, high = rules.lower_stake, rules.big_bet
    else:
        low, high = rules.small_blind_amount, rules.lower_stake
    stakes = f"{m(low)}/{m(high)}" + (" USD" if real else "")
    play = "" if real else " (Play Money)"
    lines = [
        f"PokerStars Hand #{record.hand_id}:  {GAME[record.structure]} "
        f"({stakes}) - {played_at(record.started_at)}",
        f"Table '{record.table_name}' {record.max_seats}-max{play} "
        f"Seat #{state.button} is the button",
    ]
    for p in sorted(state.players, key=lambda p: p.seat):
        lines.append(f"Seat {p.seat}: {name(p.seat)} ({m(p.start_stack)} in chips)")

    blind_of: dict[int, str] = {}
    posted: set[int] = set()  # blinds: "didn't bet" is for those who put nothing in but antes
    after_hand: list[str] = []  # cards shown in the pause after the hand
    shown_after: set[int] = set()
    collected: list[list[str]] = []  # per pot, in the engine's order (main pot first)
    over = False
    bets: dict[int, int] = {p.seat: 0 for p in state.players}
    level = 0  # the bet to call this round
    street = "preflop"
    folded_on: dict[int, str] = {}
    put_in: dict[int, int] = {p.seat: 0 for p in state.players}  # voluntarily, for "didn't bet"
    showdown: list[str] = []
    shown_lines_done = False
    hole_done = False
    result = state.result or {}
    pots = result.get("pots") or []
    won: dict[int, int] = {}

    def hole_cards_header() -> None:
        nonlocal hole_done
        if hole_done:
            return
        hole_done = True
        lines.append("*** HOLE CARDS ***")
        cards = record.visible_cards(viewer, viewer) if viewer is not None else None
        if cards:
            lines.append(f"Dealt to {name(viewer)} [{' '.join(cards)}]")  # type: ignore[arg-type]

    twice = state.board2 is not None  # run it twice: FIRST/SECOND boards and showdowns
    running_twice = False  # the boards dealt after everyone agreed

    def flush_showdown() -> None:
        nonlocal shown_lines_done
        if showdown and not shown_lines_done:
            lines.append("*** FIRST SHOW DOWN ***" if twice else "*** SHOW DOWN ***")
            lines.extend(showdown)
            shown_lines_done = True

    for e in record.for_viewer(user_id):
        kind = e["type"]
        seat = e.get("seat")
        if kind == "posted_ante":
            lines.append(f"{name(seat)}: posts the ante {m(e['amount'])}" + _allin(e))
        elif kind == "posted_blind":
            word = BLIND_WORDS.get(e["kind"], "big blind")
            if e["kind"] in ("sb", "bb"):
                blind_of[seat] = word
            posted.add(seat)
            bets[seat] += e["amount"]
            lines.append(f"{name(seat)}: posts {word} {m(e['amount'])}" + _allin(e))
        elif kind == "hole_cards":
            continue
        elif kind == "action":
            hole_cards_header()
            if street == "preflop" and not level:
                level = max(max(bets.values()), rules.lower_stake)
            verb = e["action"]
            who = name(seat)
            if verb == "timeout_allin":  # PokerStars' all-in protection: no action line
                lines.append(f"{who} has timed out while being disconnected")
                continue
            if e.get("timeout"):
                lines.append(f"{who} has timed out")
            if verb == "fold":
                folded_on[seat] = street
                lines.append(f"{who}: folds")
            elif verb == "check":
                lines.append(f"{who}: checks")
            elif verb == "call":
                added = e.get("amount", 0)
                bets[seat] += added
                put_in[seat] += added
                lines.append(f"{who}: calls {m(added)}" + _allin(e))
            elif verb == "bet":
                put_in[seat] += e["amount"] - bets[seat]
                bets[seat] = e["amount"]
                level = e["amount"]
                lines.append(f"{who}: bets {m(e['amount'])}" + _allin(e))
            elif verb == "raise":
                put_in[seat] += e["amount"] - bets[seat]
                by = e["amount"] - level
                bets[seat] = e["amount"]
                level = e["amount"]
                lines.append(f"{who}: raises {m(by)} to {m(e['amount'])}" + _allin(e))
        elif kind == "returned_uncalled":
            hole_cards_header()
            bets[seat] -= e["amount"]
            lines.append(f"Uncalled bet ({m(e['amount'])}) returned to {name(seat)}")
        elif kind == "board":
            hole_cards_header()
            street = e["street"]
            bets = dict.fromkeys(bets, 0)
            level = 0
            before = e["board"][: len(e["board"]) - len(e["cards"])]
            word = "FIRST " if running_twice else ""
            head = f"*** {word}{STREET_HEADERS[street]} ***"
            if before:
                head += f" [{' '.join(before)}]"
            lines.append(f"{head} [{' '.join(e['cards'])}]")
        elif kind == "run_twice_decided":
            running_twice = e["runs"] == 2
        elif kind == "second_board":
            before = e["board"][: len(e["board"]) - len(e["cards"])]
            head = f"*** SECOND {STREET_HEADERS[e['street']]} ***"
            if before:
                head += f" [{' '.join(before)}]"
            lines.append(f"{head} [{' '.join(e['cards'])}]")
        elif kind == "hand_end":
            over = True
        elif kind == "shown" and over:
            shown_after.add(seat)
            after_hand.append(f"{name(seat)}: shows [{' '.join(e['cards'])}] "
                              f"({_shown_words(e['cards'], state.board)})")
        elif kind == "shown":
            desc = record.description(seat)
            showdown.append(f"{name(seat)}: shows [{' '.join(e['cards'])}]"
                            + (f" ({desc})" if desc else ""))
        elif kind == "mucked":
            showdown.append(f"{name(seat)}: mucks hand")
        elif kind == "pot_awarded":
            label = _pot_name(pots, e)
            for k, run in enumerate(e.get("runs") or [e]):
                if k == len(collected):
                    collected.append([])
                collected[k].append([])
                for winner, share in run["shares"]:
                    if share:  # a pot the rake took whole leaves nothing to collect
                        won[winner] = won.get(winner, 0) + share
                        collected[k][-1].append(
                            f"{name(winner)} collected {m(share)} from {label}")
    hole_cards_header()
    flush_showdown()
    for k, run_lines in enumerate(collected):
        if k:
            lines.append("*** SECOND SHOW DOWN ***")
        for pot_lines in reversed(run_lines):  # PokerStars: the last side pot first
            lines.extend(pot_lines)
    if not showdown:  # won without a showdown: the winner's cards stay down unless shown
        for seat in won:
            if seat not in shown_after:
                lines.append(f"{name(seat)}: doesn't show hand")
    lines.extend(after_hand)

    rake = int(result.get("rake", 0))
    total = sum(p["amount"] for p in pots) + rake
    pot_parts = ""
    if len(pots) > 1:
        parts = [f"Main pot {m(pots[0]['amount'])}."]
        for k, pot in enumerate(pots[1:], start=1):
            label = "Side pot" if len(pots) == 2 else f"Side pot-{k}"
            parts.append(f"{label} {m(pot['amount'])}.")
        pot_parts = " " + " ".join(parts)
    lines.append("*** SUMMARY ***")
    lines.append(f"Total pot {m(total)}{pot_parts} | Rake {m(rake)}")
    if twice:
        lines.append("Hand was run twice")
        lines.append(f"FIRST Board [{' '.join(state.board)}]")
        lines.append(f"SECOND Board [{' '.join(state.board2)}]")  # type: ignore[arg-type]
    elif state.board:
        lines.append(f"Board [{' '.join(state.board)}]")
    for p in sorted(state.players, key=lambda p: p.seat):
        tags = ""
        if p.seat == state.button:
            tags += " (button)"
        if p.seat in blind_of:
            tags += f" ({blind_of[p.seat]})"
        shown = p.shown and p.seat not in shown_after
        outcome = _outcome(record, p, viewer, folded_on, put_in, won, m, shown=shown,
                           posted=p.seat in posted)
        lines.append(f"Seat {p.seat}: {name(p.seat)}{tags} {outcome}")
    return "\n".join(lines) + "\n"


def _outcome(record: HandRecord, p: Any, viewer: int | None, folded_on: dict[int, str],
             put_in: dict[int, int], won: dict[int, int], m: Any, *, shown: bool,
             posted: bool) -> str:
    """A summary seat line's end; ``shown``: at showdown (a show after the hand is not)."""
    if p.seat in folded_on:
        street = folded_on[p.seat]
        text = f"folded {STREET_WORDS[street]}"
        if street == "preflop" and not put_in[p.seat] and not posted:
            text += " (didn't bet)"
        return text
    if shown and p.hole:
        desc = record.description(p.seat)
        cards = " ".join(p.hole)
        if p.seat in won:
            return f"showed [{cards}] and won ({m(won[p.seat])})" + (f" with {desc}" if desc else "")
        return f"showed [{cards}] and lost" + (f" with {desc}" if desc else "")
    if p.mucked:
        if p.seat == viewer and p.hole:
            return f"mucked [{' '.join(p.hole)}]"
        return "mucked"
    if p.seat in won:
        return f"collected ({m(won[p.seat])})"
    return "lost"


def _shown_words(cards: list[str], board: list[str]) -> str:
    """What PokerStars writes after cards shown: the best hand with the board so far ("a pair
    of Kings"); before the flop, the two hole cards alone."""
    if board:
        return describe(list(board) + list(cards))
    low, high = sorted(cards, key=lambda c: RANKS.index(c[0]))
    if low[0] == high[0]:
        return f"a pair of {RANK_PLURALS[high[0]]}"
    return f"high card {RANK_NAMES[high[0]]}"


def _allin(e: dict[str, Any]) -> str:
    return " and is all-in" if e.get("allin") or e.get("stack") == 0 else ""


def _pot_name(pots: list[dict[str, Any]], e: dict[str, Any]) -> str:
    if len(pots) <= 1:
        return "pot"
    for k, pot in enumerate(pots):
        if pot["eligible"] == e["eligible"] and pot["amount"] == e["amount"]:
            if k == 0:
                return "main pot"
            return "side pot" if len(pots) == 2 else f"side pot-{k}"
    return "pot"


def hands_text(records: Iterable[HandRecord], user_id: int | None) -> str:
    """Several hands, each followed by two blank lines as in PokerStars' hand-history files
    (trackers and pokerkit split a file into hands on them)."""
    return "".join(hand_text(r, user_id) + "\n\n" for r in records)


def played_at(started: datetime.datetime) -> str:
    """``2026/11/26 6:02:03 UTC [2026/11/26 1:02:03 ET]``: the room's local time, then Eastern
    time in brackets, as PokerStars writes a hand's start (just ``... ET`` when local is ET)."""
    local = timezone.localtime(started)
    eastern = started.astimezone(EASTERN)
    if local.utcoffset() == eastern.utcoffset() and local.tzname() in ("EST", "EDT"):
        return f"{_stamp(eastern)} ET"
    return f"{_stamp(local)} {local.tzname()} [{_stamp(eastern)} ET]"


def _stamp(moment: datetime.datetime) -> str:
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S}"
