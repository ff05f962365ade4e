"""The packages' import layers: no cycles but a config and its class, no import from a layer above."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("isaaclab_newton", "isaaclab_contrib")


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


LAYERS = {
    "isaaclab_newton": (
        ("envs",),
        ("assets", "cloner", "controllers", "renderers", "sensors", "terrains"),
        ("sim",),
        ("physics",),
    ),
    "isaaclab_contrib": (
        ("app",),
        ("viewer",),
        ("upstream",),
        ("tasks",),
        ("envs", "mdp", "coupling", "custom_coupling"),
        ("assets", "controllers", "sensors"),
        ("actuators", "asset_cache", "viewer_backends"),
    ),
}
"""Each package's subpackages by layer, top first: a module imports its own layer and those below, never one above.

isaaclab_newton: envs build on the scene pieces (assets, sensors, ...), which build on sim (spawners, the
simulation context), which builds on physics (the Newton manager). isaaclab_contrib (all of it above
isaaclab_newton): app runs tasks of both registries and shows them through the live viewer, upstream adapts
isaaclab_tasks (reusing our tasks' pieces), tasks are ours, built on the env machinery and the scene pieces, which
use actuators, the asset cache and the viewer backend checks."""

UPWARD_ALLOWED = {("isaaclab_contrib.tasks", "isaaclab_contrib.upstream.modules")}
"""(importing subpackage, imported module) pairs allowed to point up: ``upstream.modules`` loads isaaclab_tasks
files for our tasks and imports nothing of ours (:func:`test_upstream_modules_imports_nothing_of_ours`)."""


def _layer_of(module: str) -> tuple[str, int] | None:
    """``(subpackage, layer index)`` of ``module`` (0 = top), or ``None`` for a package root."""
    package, _, rest = module.partition(".")
    sub = rest.partition(".")[0]
    for index, names in enumerate(LAYERS.get(package, ())):
        if sub in names:
            return f"{package}.{sub}", index
    return None


def test_every_subpackage_has_a_layer():
    """Every subpackage of isaaclab_newton and isaaclab_contrib is placed in LAYERS (a new one must be placed)."""
    unplaced = {m for m in _graph() if m.count(".") >= 1 and _layer_of(m) is None}
    assert not unplaced, f"not in LAYERS: {sorted(unplaced)}"


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_no_module_imports_a_layer_above_its_own(package):
    """No module of ``package`` imports a subpackage of a layer above its own (see LAYERS)."""
    offending = {}
    for module, deps in _graph().items():
        if not module.startswith(package + "."):
            continue
        sub, layer = _layer_of(module)
        for dep in deps:
            placed = _layer_of(dep)
            if placed is None or not dep.startswith(package + "."):
                continue
            if placed[1] < layer and (sub, dep) not in UPWARD_ALLOWED:
                offending.setdefault(module, []).append(dep)
    assert not offending, f"imports from a layer above: {offending}"


def test_upstream_modules_imports_nothing_of_ours():
    """isaaclab_contrib.upstream.modules, which our tasks may import, imports no module of ours."""
    deps = _graph()["isaaclab_contrib.upstream.modules"]
    assert not {d for d in deps if d.startswith(("isaaclab_contrib", "isaaclab_newton"))}
