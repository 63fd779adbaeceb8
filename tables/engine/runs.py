"""Run it twice: when every player still in is all in before the river (no betting left), a
table that offers it asks them; if all agree, the rest of the board is dealt twice from the
same deck (the second run continues after the first run's river, a burn before each street)
and each pot is split between the runs, the odd chip (or odd bet unit) to the first run.

Internal to the engine: ``flow`` offers and deals, ``actions.choose_runs`` answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import HandState

_STREETS = (("flop", 3), ("turn", 1), ("river", 1))


def offer(s: HandState, ev: list) -> bool:
    """Ask every player still in whether to run it twice (True: the hand waits for answers).
    Only where the table offers it, the cards come from the engine's deck, the decision is
    not made yet and cards are still to come."""
    if not s.run_twice or s.deal_mode != "auto" or s.runs or len(s.board) >= 5:
        return False
    asked = [p.seat for p in s.players if not p.folded]
    if len(asked) < 2:
        return False
    s.votes = {seat: None for seat in asked}
    s.to_act = -1
    ev.append({"type": "run_twice_offer", "seats": asked, "version": s.version})
    return True


def second_streets(shared: int) -> list[tuple[str, int]]:
    """The streets the second run deals when ``shared`` board cards were out at the offer."""
    done = {0: 0, 3: 1, 4: 2}[shared]
    return list(_STREETS[done:])


def deal_second(s: HandState, ev: list) -> None:
    """The second run: the board as it was at the offer, then fresh cards from where the
    first run stopped (a burn before each street), one ``second_board`` event per street."""
    board = s.board[:s.run_from]
    deck = s.deck
    assert deck is not None
    for street, count in second_streets(s.run_from):
        pos = s.deck_pos + 1  # burn one
        cards = deck[pos:pos + count]
        s.deck_pos = pos + count
        board.extend(cards)
        ev.append({"type": "second_board", "street": street, "cards": cards,
                   "board": list(board), "version": s.version})
    s.board2 = board


def split(amount: int, runs: int, unit: int) -> list[int]:
    """A pot's parts per run: halves in whole bet units, the odd one to the first run."""
    if runs == 1:
        return [amount]
    second = amount // 2 // unit * unit
    return [amount - second, second]
