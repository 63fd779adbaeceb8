"""The tournament rules import no framework, like the hand engine."""

from __future__ import annotations

from tests.purity import assert_imports_no_framework


def test_tournament_engine_imports_no_framework() -> None:
    assert_imports_no_framework("tables.tournaments.engine")
