"""The live tables' fixtures (funded players, seating, recorded timers), for the metrics tests."""
from __future__ import annotations

from tests.tables.conftest import (  # noqa: F401  (fixtures)
    close_db_threads,
    fake_timers,
    make_player,
    sit,
)
