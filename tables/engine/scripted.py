"""Play a hand from known cards: worked-example tests and hand replays.

Uses the engine's manual dealing, so the cards are whatever the script says; board streets are
dealt automatically whenever the hand waits for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .actions import LegalActions, apply_action, deal_board, deal_hole, legal_actions
from .state import SeatIn, start_hand
from .structures import TableRules


def split_cards(text: str) -> list[str]:
    """``"AsKd"`` or ``"As Kd"`` -> ``["As", "Kd"]``."""
    text = text.replace(" ", "")
    return [text[k:k + 2] for k in range(0, len(text), 2)]


class ScriptedHand:
    """A hand whose hole cards and board come from the script; collects every event."""

    def __init__(
        self,
        rules: TableRules,
        stacks: Mapping[int, int],
        button: int,
        holes: Mapping[int, str] | None = None,
        board: str = "",
        *,
        post_bb: Iterable[int] = (),
        forced_bets: dict[int, int] | None = None,
        antes: dict[int, int] | None = None,
        always_show: Iterable[int] = (),
        straddles: Iterable[int] = (),
    ) -> None:
        extra, showing, straddling = set(post_bb), set(always_show), set(straddles)
        seats = [SeatIn(seat, f"p{seat}", stack, post_bb=seat in extra,
                        always_show=seat in showing, straddle=seat in straddling)
                 for seat, stack in stacks.items()]
        self.state, self.events = start_hand(
            rules, seats, button, seed=None, deal="manual", forced_bets=forced_bets, antes=antes
        )
        holes = holes or {}
        for p in list(self.state.players):
            text = holes.get(p.seat)
            self.events += deal_hole(self.state, p.seat, split_cards(text) if text else None)
        self._board = split_cards(board)
        self._feed()

    def _feed(self) -> None:
        s = self.state
        while s.pending in ("flop", "turn", "river"):
            count = 3 if s.pending == "flop" else 1
            if len(self._board) < count:
                return
            cards, self._board = self._board[:count], self._board[count:]
            self.events += deal_board(s, cards)

    @property
    def legal(self) -> LegalActions | None:
        return legal_actions(self.state)

    def act(self, seat: int, action: str, amount: int | None = None, **kw: object) -> list[dict]:
        ev = apply_action(self.state, seat, action, amount, **kw)  # type: ignore[arg-type]
        self.events += ev
        self._feed()
        return ev

    def stacks(self) -> dict[int, int]:
        return {p.seat: p.stack for p in self.state.players}

    def of_type(self, kind: str) -> list[dict]:
        return [e for e in self.events if e["type"] == kind]
