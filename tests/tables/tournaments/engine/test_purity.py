"""The tournament rules import no framework, like the hand engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_tournament_engine_imports_no_framework() -> None:
    code = (
        "import sys, pkgutil, importlib, tables.tournaments.engine as e\n"
        "for m in pkgutil.iter_modules(e.__path__):\n"
        "    importlib.import_module('tables.tournaments.engine.' + m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('django', 'channels', 'celery', 'redis', 'daphne')]\n"
        "assert not bad, bad\n"
    )
    root = Path(__file__).resolve().parents[4]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
