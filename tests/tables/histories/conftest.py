"""Fixtures of the histories' tests."""
from __future__ import annotations

import pytest

from tests.tables.decks import deck_key_fix
from tests.tables.histories.playing import SEED


@pytest.fixture
def fixed_seed(monkeypatch):
    """Every hand deals from the same known deck."""
    deck_key_fix(monkeypatch, SEED.hex())
