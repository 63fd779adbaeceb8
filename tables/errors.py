"""The one exception tables services raise for a refused request."""
from __future__ import annotations


class TableError(ValueError):
    """A refused table request; nothing was changed. `code` is stable (clients match on it,
    see docs/protocol.md); `message` names the problem for a human."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
