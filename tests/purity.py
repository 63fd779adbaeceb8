"""A pure package imports no framework: checked in a fresh interpreter, where nothing else has
loaded Django first."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FRAMEWORKS = ("django", "channels", "celery", "redis", "daphne")
ROOT = Path(__file__).resolve().parents[1]


def assert_imports_no_framework(package: str) -> None:
    code = (
        f"import sys, pkgutil, importlib, {package} as p\n"
        "for m in pkgutil.iter_modules(p.__path__):\n"
        f"    importlib.import_module('{package}.' + m.name)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r}]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
