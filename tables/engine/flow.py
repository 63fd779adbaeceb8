"""How a hand moves on by itself: next player to act, end of a betting round, uncalled bets,
dealing streets, all-in run-outs, showdown order and awarding the pots.

Internal to the engine: the public entry points are in ``state.py`` and ``actions.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import runs as run_twice
from .pots import build_pots, uncalled_excess
from .rake import compute_rake
from .showdown import describe, hand_rank, split_pot

if TYPE_CHECKING:
    from .state import HandState

PREFLOP, FLOP, TURN, RIVER, SHOWDOWN, OVER = range(6)
_STREET = ("preflop", "flop", "turn", "river")
_WORST = 1 << 30


def able_count(s: HandState) -> int:
    """Players who can still bet: in the hand and not all-in."""
    c = 0
    for p in s.players:
        if not p.folded and not p.allin:
            c += 1
    return c


def advance(s: HandState, ev: list, start: int) -> None:
    """Give the turn to the first player from ``start`` who still owes an action, else end
    the betting round. A lone player who already matches the bet has nobody to bet against,
    nor does one who matches every chip his all-in opponents put in (a big blind all-in for
    less than the bet leaves the bet at the big blind, which a lone small blind need not call).
    """
    players = s.players
    n = len(players)
    cb = s.current_bet
    able = 0
    for p in players:
        if not p.folded and not p.allin:
            able += 1
    for k in range(n):
        i = (start + k) % n
        p = players[i]
        if p.folded or p.allin:
            continue
        if p.bet < cb:
            if able > 1 or p.bet < _top_other_bet(players, i):
                s.to_act = i
                return
        elif p.acted_level < 0 and able > 1:
            s.to_act = i
            return
    end_round(s, ev)


def _top_other_bet(players: list, i: int) -> int:
    """The largest bet this round of a player still in, other than player i."""
    top = 0
    for j, q in enumerate(players):
        if j != i and not q.folded and q.bet > top:
            top = q.bet
    return top


def pots_of(s: HandState, *, with_bets: bool = True) -> list[tuple[int, list[int]]]:
    """Pots by live contribution level; dead antes form the main pot open to everyone still in
    (as pokerkit does), so a player all-in on his ante alone can still win them."""
    players = s.players
    live = [p.total - p.ante - (0 if with_bets else p.bet) for p in players]
    pots = build_pots(live, [not p.folded for p in players])
    antes = 0
    for p in players:
        antes += p.ante
    if antes:  # the antes pot: every player still in may win it, whatever he bet after
        everyone = [i for i, p in enumerate(players) if not p.folded]
        amount, eligible = pots[0]
        if eligible == everyone:
            pots[0] = (amount + antes, eligible)
        else:
            pots.insert(0, (antes, everyone))
    return pots


def return_uncalled(s: HandState, ev: list) -> None:
    """Give back the part of the top live contribution nobody matched (antes are dead)."""
    found = uncalled_excess([p.total - p.ante for p in s.players])
    if found is None:
        return
    i, amount = found
    p = s.players[i]
    if p.folded:
        return
    p.total -= amount
    p.bet -= amount
    p.stack += amount
    if p.allin and not p.timed_out:
        p.allin = False
    if s.current_bet > p.bet:
        s.current_bet = max(q.bet for q in s.players)
    ev.append({
        "type": "returned_uncalled", "seat": p.seat, "amount": amount, "stack": p.stack,
        "version": s.version,
    })


def end_round(s: HandState, ev: list) -> None:
    """Close the betting round: return uncalled chips, then end the hand or move on."""
    s.to_act = -1
    return_uncalled(s, ev)
    for p in s.players:
        p.bet = 0
        p.acted_level = -1
    s.current_bet = 0
    contenders = 0
    for p in s.players:
        if not p.folded:
            contenders += 1
    if contenders <= 1:
        finish_hand(s, ev)
        return
    next_street(s, ev)


def show_all(s: HandState, ev: list) -> None:
    """All-in with no betting left: every hand still in is turned face up."""
    s.all_shown = True
    for p in s.players:
        if not p.folded and not p.shown:
            show(s, p, ev)


def next_street(s: HandState, ev: list) -> None:
    """Deal the next street (or wait for manual cards) until betting or showdown is due."""
    while True:
        if s.street >= RIVER:
            if s.runs == 2 and s.board2 is None:
                run_twice.deal_second(s, ev)
            start_showdown(s, ev)
            return
        if not s.all_shown and able_count(s) <= 1:
            show_all(s, ev)
            if run_twice.offer(s, ev):
                return  # the players all in are asked first (actions.choose_runs)
        s.street += 1
        if s.street == FLOP:
            s.flop_seen = True
        if s.deal_mode == "manual":
            s.pending = _STREET[s.street]
            return
        count = 3 if s.street == FLOP else 1
        deck = s.deck
        pos = s.deck_pos + 1  # burn one
        cards = deck[pos:pos + count]  # type: ignore[index]
        s.deck_pos = pos + count
        s.board.extend(cards)
        ev.append({"type": "board", "street": _STREET[s.street], "cards": cards,
                   "board": list(s.board), "version": s.version})
        if s.all_shown:
            continue
        start_betting(s, ev)
        return


def after_board(s: HandState, ev: list) -> None:
    """Continue once a manually dealt street is on the board."""
    if s.all_shown:
        next_street(s, ev)
    else:
        start_betting(s, ev)


def start_betting(s: HandState, ev: list) -> None:
    """Open a post-flop round: first active player left of the button. The smallest bet is
    the table's big blind (PHH's ``min_bet``), whatever straddle sized raises preflop."""
    s.current_bet = 0
    s.min_raise = s.rules.lower_stake
    s.last_full_to = 0
    s.raise_count = 0
    s.last_aggressor = -1
    advance(s, ev, 0)


def show(s: HandState, p, ev: list) -> None:
    p.shown = True
    e = {"type": "shown", "seat": p.seat, "cards": list(p.hole or ()), "version": s.version}
    if len(s.board) == 5 and p.hole and None not in p.hole:
        p.description = e["description"] = describe(s.board + p.hole, _rank(s, p))
    ev.append(e)


def muck(s: HandState, p, ev: list) -> None:
    p.mucked = True
    ev.append({"type": "mucked", "seat": p.seat, "version": s.version})


def start_showdown(s: HandState, ev: list) -> None:
    """River betting is over with two or more players: reveal in order, or all at once."""
    s.street = SHOWDOWN
    s.to_act = -1
    players = s.players
    if s.all_shown or able_count(s) <= 1:
        show_all(s, ev)
        finish_hand(s, ev)
        return
    contenders = [i for i, p in enumerate(players) if not p.folded]
    first = s.last_aggressor if s.last_aggressor in contenders else contenders[0]
    k = contenders.index(first)
    s.showdown_order = contenders[k:] + contenders[:k]
    s.showdown_pos = 0
    continue_showdown(s, ev)


def _rank(s: HandState, p) -> int:
    """The player's hand rank on the full board (cached on the player), or _WORST."""
    if p.rank:
        return p.rank
    if not p.hole or None in p.hole or len(s.board) != 5:
        return _WORST
    p.rank = hand_rank(s.board + p.hole)
    return p.rank


def _description(s: HandState, p) -> str:
    if p.description is None:
        p.description = describe(s.board + p.hole, p.rank)
    return p.description


def would_win_something(s: HandState, i: int) -> bool:
    """Does player i win or tie some pot he is in against the hands shown so far?"""
    players = s.players
    mine = _rank(s, players[i])
    if mine == _WORST:
        return False
    for _amount, eligible in pots_of(s):
        if i not in eligible:
            continue
        shown = [_rank(s, players[j]) for j in eligible if j != i and players[j].shown]
        if not shown or mine <= min(shown):
            return True
    return False


def continue_showdown(s: HandState, ev: list) -> None:
    """Ask the next player in showdown order to show or muck; finish when all decided."""
    order = s.showdown_order
    players = s.players
    while s.showdown_pos < len(order):
        i = order[s.showdown_pos]
        p = players[i]
        others_mucked = sum(1 for j in order if j != i and players[j].mucked)
        if others_mucked == len(order) - 1:
            break  # the last player not mucked wins without showing
        if p.timed_out or s.rules.auto_showdown:  # the first always shows: nothing shown yet
            if would_win_something(s, i) or (p.always_show and s.rules.auto_showdown):
                show(s, p, ev)
            else:
                muck(s, p, ev)
            s.showdown_pos += 1
            continue
        s.to_act = i
        return
    s.to_act = -1
    finish_hand(s, ev)


def _best(s: HandState, cands: list[int], run: int) -> list[int]:
    """The best hands among ``cands`` (indices, sorted) on run ``run``'s board (0: the board)."""
    if len(cands) == 1:
        return list(cands)
    players = s.players
    best = _WORST + 1
    winners: list[int] = []
    for i in cands:
        p = players[i]
        if run == 0:
            r = _rank(s, p)
        else:
            r = hand_rank(s.board2 + p.hole) if p.hole and None not in p.hole else _WORST
        if r < best:
            best, winners = r, [i]
        elif r == best:
            winners.append(i)
    return sorted(winners)


def runs_winners(run: dict, players: list) -> list[int]:
    """Indices of a run's winners (its ``winners`` are seats)."""
    seats = run["winners"]
    return [i for i, p in enumerate(players) if p.seat in seats]


def finish_hand(s: HandState, ev: list) -> None:
    """Award every pot (rake from the main pot first) and write the result."""
    return_uncalled(s, ev)
    s.street = OVER
    s.to_act = -1
    s.pending = None
    players = s.players
    for p in players:
        p.bet = 0
    n = len(players)
    pots = pots_of(s)
    total = 0
    for amount, _e in pots:
        total += amount
    rules = s.rules
    rake = compute_rake(rules.rake, total, n, s.flop_seen, rules.bet_unit)
    remaining = rake
    amounts = []
    for amount, _e in pots:
        take = amount if amount < remaining else remaining
        remaining -= take
        amounts.append(amount - take)
    order = s.showdown_order
    pot_results = []
    boards = [s.board] if s.board2 is None else [s.board, s.board2]
    for (_orig, eligible), amount in zip(pots, amounts, strict=True):
        cands = [i for i in eligible if not players[i].mucked]
        if not cands:
            mucked_in_order = [i for i in order if i in eligible]
            cands = [mucked_in_order[-1] if mucked_in_order else eligible[-1]]
        total: dict[int, int] = {}
        runs = []
        for k, part in enumerate(run_twice.split(amount, len(boards), rules.bet_unit)):
            winners = _best(s, cands, k)
            shares = split_pot(part, winners, rules.bet_unit) if part else [0] * len(winners)
            for i, share in zip(winners, shares, strict=True):
                players[i].stack += share
                total[i] = total.get(i, 0) + share
            runs.append({"board": list(boards[k]), "amount": part,
                         "winners": [players[i].seat for i in winners],
                         "shares": [[players[i].seat, share]
                                    for i, share in zip(winners, shares, strict=True)]})
            if len(cands) > 1 and k:
                runs[-1]["hands"] = [[players[i].seat, describe(s.board2 + players[i].hole)]
                                     for i in winners]
        winners = sorted(total)
        pot = {
            "amount": amount,
            "eligible": [players[i].seat for i in eligible],
            "winners": [players[i].seat for i in winners],
            "shares": [[players[i].seat, total[i]] for i in winners],
        }
        if len(cands) > 1:
            pot["hands"] = [[players[i].seat, _description(s, players[i])]
                            for i in runs_winners(runs[0], players) if players[i].rank]
        if len(boards) > 1:
            pot["runs"] = runs
        pot_results.append(pot)
        ev.append({"type": "pot_awarded", **pot, "version": s.version})
    if rake:
        ev.append({"type": "rake", "amount": rake, "version": s.version})
    s.result = {
        "pots": pot_results,
        "rake": rake,
        "board": list(s.board),
        **({"board2": list(s.board2)} if s.board2 is not None else {}),
        "players": [
            {"seat": p.seat, "player_id": p.player_id, "start_stack": p.start_stack,
             "stack": p.stack, "net": p.stack - p.start_stack}
            for p in players
        ],
        "shown": [{"seat": p.seat, "cards": list(p.hole or ())} for p in players if p.shown],
    }
    ev.append({"type": "hand_end", "result": s.result, "version": s.version})
