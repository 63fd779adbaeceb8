"""The room's import structure, read from the source with `ast` (nothing is imported):

* arrows between apps: for each ordered pair of top-level packages (cashier → tables, ...),
  how many (importing module, imported module) pairs there are;
* which apps import each other (both arrows exist);
* the longest import cycle between modules, twice: at load time (imports run when a module
  is first imported: module and class bodies, not functions, not `if TYPE_CHECKING:`), and
  counting imports inside functions as well.

Importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first, so an import is an arrow
to the module and to each package above it. Only the room's own modules count (every package
at the top of the repository but tests/); migrations are left out (they name models by string).

    .venv/bin/python tools/import_graph.py [--root .]
"""
from __future__ import annotations

import argparse
import ast
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SKIPPED = {"tests", "migrations", "node_modules", ".venv", "__pycache__"}


@dataclass
class Graph:
    """Module → the modules its imports run (packages above included): at load time, and all
    (functions included); → the modules they name, `TYPE_CHECKING` ones too (the arrows
    between apps count these); and → the modules it runs code of (`modules`: named, functions
    included, packages above and `TYPE_CHECKING` left out): a cycle there is two modules
    needing each other, not a package's initialiser re-exporting its modules."""

    load: dict[str, set[str]] = field(default_factory=dict)
    every: dict[str, set[str]] = field(default_factory=dict)
    load_named: dict[str, set[str]] = field(default_factory=dict)
    every_named: dict[str, set[str]] = field(default_factory=dict)
    modules: dict[str, set[str]] = field(default_factory=dict)


def _modules(root: Path) -> dict[str, Path]:
    """Dotted name → file, for every module of every top-level package under `root`."""
    found: dict[str, Path] = {}
    for package in sorted(p for p in root.iterdir() if (p / "__init__.py").is_file()):
        if package.name in SKIPPED:
            continue
        for path in sorted(package.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if SKIPPED & set(parts):
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool | None]]:
    """Every import statement with whether it runs at load time (None: never, it is only for
    the type checker)."""

    def walk(node: ast.AST, at_load: bool | None
             ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool | None]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, at_load
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, False if at_load else at_load)
            elif isinstance(child, ast.If) and _is_type_checking(child):
                for stmt in child.body:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), None)
                for stmt in child.orelse:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), at_load)
            else:
                yield from walk(child, at_load)

    yield from walk(tree, True)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: dict[str, Path]) -> tuple[set[str], set[str]]:
    """The room's modules an import statement names (the longest known prefix of each name),
    and those it runs (the packages above them too)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[:len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{alias.name}" for alias in node.names]
    named: set[str] = set()
    run: set[str] = set()
    for name in names:  # `from a import b`: a.b if it is a module, else a (b is a name in it)
        parts = name.split(".")
        prefixes = [p for p in (".".join(parts[:n]) for n in range(1, len(parts) + 1))
                    if p in known]
        run.update(prefixes)
        if prefixes:
            named.add(prefixes[-1])
    return named, run


def graph_read(root: Path) -> Graph:
    known = _modules(root)
    graph = Graph()
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        load, every, load_named, every_named, calls = set(), set(), set(), set(), set()
        for node, at_load in _imports(tree):
            named, run = _targets(node, name, path.name == "__init__.py", known)
            every_named |= named - {name}
            if at_load is None:
                continue  # runs never: an arrow between apps, in no cycle
            every |= run - {name}
            calls |= named - {name}
            if at_load:
                load |= run - {name}
                load_named |= named - {name}
        graph.load[name], graph.every[name] = load, every
        graph.load_named[name], graph.every_named[name] = load_named, every_named
        graph.modules[name] = calls
    return graph


def app_of(module: str) -> str:
    return module.split(".")[0]


def app_arrows(edges: dict[str, set[str]]) -> Counter[tuple[str, str]]:
    """(app, app) → the number of module pairs importing across (within an app not counted)."""
    arrows: Counter[tuple[str, str]] = Counter()
    for source, targets in edges.items():
        for target in targets:
            if app_of(source) != app_of(target):
                arrows[app_of(source), app_of(target)] += 1
    return arrows


def apps_importing_each_other(arrows: Counter[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, b in arrows if a < b and (b, a) in arrows)


def _components(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(sorted(component))
    return out


def longest_cycle(edges: dict[str, set[str]], *, budget_seconds: float = 10.0
                  ) -> tuple[list[str], bool]:
    """The longest simple cycle of modules ([a, b, ..., a]; [] when there is none) and
    whether the search was complete (it is exhaustive inside each strongly connected
    component, within `budget_seconds`; otherwise the longest found so far)."""
    best: list[str] = []
    deadline = time.monotonic() + budget_seconds
    complete = True
    for component in _components(edges):
        if len(component) < 2 and component[0] not in edges.get(component[0], ()):
            continue
        members = set(component)
        order = {m: k for k, m in enumerate(component)}
        for start in component:  # cycles whose smallest member is `start`
            path, on_path = [start], {start}
            work = [iter(sorted(t for t in edges[start] if t in members))]
            while work:
                if time.monotonic() > deadline:
                    return best, False
                step = next(work[-1], None)
                if step is None:
                    work.pop()
                    on_path.discard(path.pop())
                    continue
                if step == start:
                    if len(path) > len(best) - 1:
                        best = [*path, start]
                    continue
                if step in on_path or order[step] < order[start]:
                    continue
                path.append(step)
                on_path.add(step)
                work.append(iter(sorted(t for t in edges[step] if t in members)))
    return best, complete


def report(root: Path) -> str:
    graph = graph_read(root)
    lines = []
    for label, edges, named in (
            ("at load time", graph.load, graph.load_named),
            ("counting imports inside functions", graph.every, graph.every_named)):
        arrows = app_arrows(named)
        lines.append(f"Arrows between apps {label} (module pairs):")
        lines += [f"  {a} -> {b}: {n}" for (a, b), n in sorted(arrows.items())]
        mutual = apps_importing_each_other(arrows)
        lines.append("  apps importing each other: "
                     + (", ".join(f"{a} <-> {b}" for a, b in mutual) or "none"))
        cycle, complete = longest_cycle(edges)
        biggest = max((len(c) for c in _components(edges)), default=0)
        lines.append(f"  longest import cycle: {max(len(cycle) - 1, 0)} modules"
                     + ("" if complete else " (search stopped by its time budget)")
                     + (": " + " -> ".join(cycle) if cycle else ""))
        lines.append(f"  largest set of modules importing each other (strongly connected): "
                     f"{biggest if biggest > 1 else 0}")
    cycle, complete = longest_cycle(graph.modules)
    lines.append("Modules needing each other (package initialisers' re-exports and TYPE_CHECKING "
                 "aside, imports inside functions counted): longest cycle "
                 f"{max(len(cycle) - 1, 0)} modules"
                 + ("" if complete else " (search stopped by its time budget)")
                 + (": " + " -> ".join(cycle) if cycle else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    print(report(args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
