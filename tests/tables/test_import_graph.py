"""No import circle inside tables/: the steps' effects queue tasks by name and get the dealer of
due hands from the app (tables/scheduling.py), so the tasks can import the services they call.
Imports inside functions count (they only postpone a circle); `TYPE_CHECKING` ones do not."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    files = {module_of(p): p for p in (ROOT / "tables").rglob("*.py")
             if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text())
        skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test)
                   for stmt in node.body for n in ast.walk(stmt)}
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        names: list[str] = []
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                names += [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                          for a in node.names]
        graph[module] = set()
        for name in names:
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                graph[module].add(name)
    return graph


def a_circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle (empty when there is none), by depth-first search."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for dep in sorted(graph[module]):
            if state.get(dep) == 1:
                return [*path[path.index(dep):], dep]
            if dep not in state and (found := visit(dep)):
                return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return []


def test_the_graph_sees_in_function_imports():
    graph = import_graph()
    assert "tables.services.starting" in graph["tables.apps"]  # inside ready()
    assert "tables.services.locks" not in graph["tables.services.effects"]  # TYPE_CHECKING


def test_no_import_circle_in_tables():
    assert a_circle(import_graph()) == []
