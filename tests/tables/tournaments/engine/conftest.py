"""The tournament rules are pure: their tests use no database (like tests/engine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def drop_test_database_cleanly() -> Iterator[None]:
    """Replaces tests/tables/conftest.py's fixture of the same name for these tests only: that
    one asks for ``django_db_setup``, so a PostgreSQL run of only these tests would create a test
    database nothing uses and then wait 20 s for a pooled connection to drop it, and fail
    (the same happens today to any selection of database-free tests under tests/tables)."""
    yield
