"""Fixtures of the histories' tests."""
from __future__ import annotations

import pytest

from tests.tables.histories.playing import SEED


@pytest.fixture
def fixed_seed(monkeypatch):
    """Every hand deals from the same known deck."""
    from tables.services import starting as hands

    monkeypatch.setattr(hands, "new_seed", lambda: SEED)
