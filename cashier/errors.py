"""The one exception cashier services raise for a refusal."""
from __future__ import annotations


class CashierError(ValueError):
    """A refused money movement. `code` is stable (views, tables and tests match on it);
    `message` is written for the player. Nothing was applied when this is raised."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"CashierError({self.code!r}, {self.message!r})"


class LedgerBroken(RuntimeError):
    """The ledger disagrees with the table: a table's escrow is not its seated chips plus its
    pending top-ups. Never a player's doing (a bug, or a row changed by hand): the step that
    found it writes nothing, and an operator looks (`audit_ledger` names every such table)."""
