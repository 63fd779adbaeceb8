"""The structure the room promises (docs/architecture.md, DESIGN.md "Ownership"), enforced
from the source by tools/import_graph.py: the cashier imports nothing from the tables, and
observability/ is a leaf that imports no app of the room."""
from __future__ import annotations

import textwrap
from pathlib import Path

from tools.import_graph import app_arrows, apps_importing_each_other, graph_read, longest_cycle

ROOT = Path(__file__).resolve().parents[2]
APPS = {"accounts", "cashier", "tables", "pokerroom", "observability"}


def test_nothing_in_the_cashier_imports_the_tables() -> None:
    graph = graph_read(ROOT)
    found = sorted((module, target) for module, targets in graph.every.items()
                   if module.startswith("cashier") for target in targets
                   if target.split(".")[0] == "tables")
    assert found == []


def test_observability_imports_no_app() -> None:
    graph = graph_read(ROOT)
    found = sorted((module, target) for module, targets in graph.every.items()
                   if module.startswith("observability") for target in targets
                   if target.split(".")[0] in APPS - {"observability"})
    assert found == []


def test_no_two_modules_of_the_room_need_each_other() -> None:
    """Imports inside functions count (they only postpone a circle); a package's initialiser
    re-exporting its modules (`tables.services`) and `TYPE_CHECKING` imports do not."""
    cycle, complete = longest_cycle(graph_read(ROOT).modules)
    assert complete and cycle == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_graph_counts_load_time_and_function_imports_apart(tmp_path: Path) -> None:
    _write(tmp_path, {
        "alpha/__init__.py": "",
        "alpha/one.py": """\
            from __future__ import annotations
            from typing import TYPE_CHECKING
            from beta import two
            if TYPE_CHECKING:
                from gamma.three import Thing
            """,
        "beta/__init__.py": "",
        "beta/two.py": """\
            from . import four
            def later():
                from alpha import one
            """,
        "beta/four.py": "import beta.two\n",
        "gamma/__init__.py": "",
        "gamma/three.py": """\
            from alpha.one import x
            def f():
                import beta.four
            """,
        "tests/__init__.py": "",
        "tests/test_x.py": "import gamma.three\n",
    })
    graph = graph_read(tmp_path)
    assert app_arrows(graph.load_named) == {("alpha", "beta"): 1, ("gamma", "alpha"): 1}
    assert app_arrows(graph.every_named) == {("alpha", "beta"): 1, ("alpha", "gamma"): 1,
                                             ("beta", "alpha"): 1, ("gamma", "alpha"): 1,
                                             ("gamma", "beta"): 1}
    assert apps_importing_each_other(app_arrows(graph.every_named)) == [
        ("alpha", "beta"), ("alpha", "gamma")]
    cycle, complete = longest_cycle(graph.load)
    assert complete and cycle == ["beta.four", "beta.two", "beta.four"]
    cycle, complete = longest_cycle(graph.every)  # TYPE_CHECKING imports never run
    assert complete and cycle == ["alpha.one", "beta.two", "alpha.one"]
