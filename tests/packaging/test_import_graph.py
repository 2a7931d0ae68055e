"""The layering rules, checked on the import graph of every import statement in the four
packages (imports inside functions included): framework <- geometry <- multibody <-
controllers with no upward import, no import cycle inside framework/, none longer than
two modules anywhere, numba imported by the one compilation module only."""

import ast
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parents[2]
LAYERS = ("framework", "geometry", "multibody", "controllers")


def _modules():
    files = {}
    for layer in LAYERS:
        for path in (REPO / layer).rglob("*.py"):
            rel = path.relative_to(REPO).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            files[".".join(parts)] = path
    return files


def _imports(module, path, files):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                src = ".".join(base + ([node.module] if node.module else []))
            else:
                src = node.module or ""
            names = [src] + [f"{src}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            name = name.removeprefix("merganser.")
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                yield node.lineno, name


@pytest.fixture(scope="module")
def graph():
    files = _modules()
    g = nx.DiGraph()
    for module, path in files.items():
        for line, target in _imports(module, path, files):
            g.add_edge(module, target, line=line)
    return g, files


def test_no_upward_import(graph):
    g, _ = graph
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    upward = [f"{a} -> {b} (line {d['line']})" for a, b, d in g.edges(data=True)
              if rank[b.split(".")[0]] > rank[a.split(".")[0]]]
    assert upward == []


def test_no_cycle_in_framework_and_none_longer_than_two_modules(graph):
    g, files = graph
    # A package's __init__ re-exporting its own modules is not a cycle of logic.
    sub = g.subgraph([m for m in g if files[m].name != "__init__.py"])
    cycles = [sorted(c) for c in nx.strongly_connected_components(sub) if len(c) > 1]
    assert [c for c in cycles if any(m.startswith("framework") for m in c)] == []
    assert [c for c in cycles if len(c) > 2] == []


def test_numba_is_imported_by_the_compilation_module_only():
    users = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "numba" for a in node.names):
                users.append(module)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
                users.append(module)
    assert sorted(set(users)) == ["framework.compilation"]
