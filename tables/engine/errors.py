"""The one exception the engine raises for a refused action."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action or deal the rules refuse; the hand state is left exactly as it was.

    ``reason`` is a stable code clients and tests match on; ``message`` is for humans.
    """

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message or reason
