"""Known decks for tests: the deck key every table commits is fixed, so with no entropy sent
every hand deals the same cards (`dealt(key)`, in dealing order)."""
from __future__ import annotations

import pytest

from tables.engine import fairness


def dealt(key: str, entropy: tuple[str, ...] = ()) -> list[str]:
    """The cards a hand dealt from `key` gets, in dealing order."""
    return fairness.dealt_deck(fairness.committed(key), list(entropy))


def deck_key_fix(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    """Every deck committed from now on has `key` (tables/services/dealing.py)."""
    monkeypatch.setattr("tables.services.dealing.new_key", lambda: key)
