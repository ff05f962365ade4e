"""The packages' import layers: no cycles but a config and its class, no import from a layer above."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("isaaclab_newton", "isaaclab_contrib")
PHYSICS_MAY_NOT_IMPORT = ("cloner", "assets", "sensors", "envs", "renderers", "controllers", "sim")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Our modules that ``path`` imports at run time (function-level imports included, TYPE_CHECKING ones not)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in child.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
            visit(child)

    visit(ast.parse(path.read_text()))
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    modules = {_module_name(p) for p in files}
    return {_module_name(p): _imports(p, modules) for p in files}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph[node]:
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def _is_config_and_class(component: list[str]) -> bool:
    return len(component) == 2 and component[1] == component[0] + "_cfg"


def test_no_import_cycle_but_config_and_class():
    """Every import cycle among our modules is a ``<x>_cfg`` module and its ``<x>`` module."""
    cycles = [c for c in _cycles(_graph()) if not _is_config_and_class(c)]
    assert not cycles, f"import cycles: {cycles}"


def test_backend_never_imports_contrib():
    """No module of isaaclab_newton imports isaaclab_contrib."""
    graph = _graph()
    upward = {m: sorted(d for d in deps if d.startswith("isaaclab_contrib")) for m, deps in graph.items()}
    assert not {m: d for m, d in upward.items() if m.startswith("isaaclab_newton") and d}


@pytest.mark.parametrize("layer", PHYSICS_MAY_NOT_IMPORT)
def test_physics_imports_no_layer_above(layer):
    """isaaclab_newton.physics imports nothing of the layers built on it."""
    graph = _graph()
    above = f"isaaclab_newton.{layer}"
    offending = {
        m: sorted(d for d in deps if d == above or d.startswith(above + "."))
        for m, deps in graph.items()
        if m.startswith("isaaclab_newton.physics")
    }
    assert not {m: d for m, d in offending.items() if d}


CONTRIB_LAYERS = ("app", "upstream", "tasks", "envs")
"""isaaclab_contrib's layers that build on each other, top first: app runs tasks of both registries, upstream
adapts isaaclab_tasks (reusing our tasks' pieces), tasks are ours, envs is the machinery every task uses."""


@pytest.mark.parametrize("layer", CONTRIB_LAYERS[1:])
def test_contrib_layer_imports_no_layer_above(layer):
    """A layer of isaaclab_contrib imports nothing of the layers above it (tasks: upstream.modules only)."""
    graph = _graph()
    above = CONTRIB_LAYERS[: CONTRIB_LAYERS.index(layer)]
    allowed = {"isaaclab_contrib.upstream.modules"} if layer == "tasks" else set()
    offending = {
        m: sorted(
            d
            for d in deps
            if d not in allowed
            and any(d == f"isaaclab_contrib.{a}" or d.startswith(f"isaaclab_contrib.{a}.") for a in above)
        )
        for m, deps in graph.items()
        if m.startswith(f"isaaclab_contrib.{layer}")
    }
    assert not {m: d for m, d in offending.items() if d}
