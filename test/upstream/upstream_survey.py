"""Instantiate every ``isaaclab_tasks`` env config under each of its Newton physics presets (no tests here).

Run as a script for a report: ``python test/upstream/upstream_survey.py`` (``--json`` prints one JSON object per
config; ``--names`` prints, as one JSON list, every name an ``isaaclab_tasks`` module imports from our packages
that does not exist). The tests run it in a subprocess: ``isaaclab_tasks`` registers unversioned ids
(``Isaac-Ant-Direct``) that gymnasium refuses next to our versioned ones (``Isaac-Ant-Direct-v0``) in one process.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
import traceback
import warnings
from dataclasses import dataclass

OUR_PACKAGES = ("isaaclab_newton", "isaaclab_contrib")


@dataclass
class ConfigOutcome:
    """Result of instantiating one task's env config."""

    task: str
    newton_presets: tuple[str, ...]
    error: str | None = None
    ours: bool = False
    """Whether the failure is a missing or unknown name from our packages."""


def _is_ours(exc: BaseException) -> bool:
    """Whether ``exc`` is a missing module/name/field of our packages (import, attribute or keyword error)."""
    if isinstance(exc, ImportError):
        module = getattr(exc, "name", None) or ""
        return module.split(".")[0] in OUR_PACKAGES or any(p in str(exc) for p in OUR_PACKAGES)
    if isinstance(exc, (AttributeError, TypeError)):
        text = str(exc)
        if "unexpected keyword argument" in text or "has no attribute" in text:
            frames = traceback.extract_tb(exc.__traceback__)
            return any(p in text for p in OUR_PACKAGES) or any(
                any(f"/{p}/" in f.filename for p in OUR_PACKAGES) for f in frames[-2:]
            )
    return False


def _newton_preset_names(cfg) -> tuple[str, ...]:
    from isaaclab_tasks.utils.hydra import collect_presets

    names = {name for options in collect_presets(cfg).values() for name in options if name.startswith("newton")}
    return tuple(sorted(names))


def survey() -> list[ConfigOutcome]:
    """Instantiate each registered env config and resolve it under each of its ``newton*`` presets."""
    import gymnasium as gym
    import isaaclab_tasks  # noqa: F401  (registers the tasks)
    from isaaclab_tasks.utils.hydra import resolve_presets
    from isaaclab_tasks.utils.parse_cfg import load_cfg_from_registry

    outcomes = []
    tasks = sorted(name for name, spec in gym.registry.items() if "env_cfg_entry_point" in spec.kwargs)
    for task in tasks:
        presets: tuple[str, ...] = ()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cfg = load_cfg_from_registry(task, "env_cfg_entry_point")
                presets = _newton_preset_names(cfg)
                for name in presets:
                    resolve_presets(copy.deepcopy(cfg), (name,))
        except Exception as exc:  # every failure is recorded, classified below
            message = f"{type(exc).__name__}: {exc}".splitlines()[0]
            outcomes.append(ConfigOutcome(task, presets, message, _is_ours(exc)))
            continue
        outcomes.append(ConfigOutcome(task, presets))
    return outcomes


def missing_names() -> list[list[str]]:
    """``[module, name, first importing file, reason]`` per name ``isaaclab_tasks`` imports from us that is missing.

    Every ``from isaaclab_newton|isaaclab_contrib... import name`` in the package's modules and stubs counts, also
    imports inside functions (made only when an env is built).
    """
    import ast
    import importlib
    import pathlib

    import isaaclab_tasks

    root = pathlib.Path(isaaclab_tasks.__file__).parent
    imported: dict[tuple[str, str], str] = {}
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.pyi")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            ours = isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
            if ours and node.module.split(".")[0] in OUR_PACKAGES:
                for alias in node.names:
                    imported.setdefault((node.module, alias.name), str(path.relative_to(root)))
    missing = []
    for (module, name), user in sorted(imported.items()):
        try:
            target = importlib.import_module(module)
        except ImportError as err:
            missing.append([module, name, user, str(err)])
            continue
        if name == "*" or hasattr(target, name):
            continue
        try:
            importlib.import_module(f"{module}.{name}")
        except ImportError:
            missing.append([module, name, user, "no such attribute or submodule"])
    return missing


if __name__ == "__main__":
    if "--names" in sys.argv:
        print(json.dumps(missing_names()))
        sys.exit(0)
    results = survey()
    if "--json" in sys.argv:
        for outcome in results:
            print(json.dumps(dataclasses.asdict(outcome)))
        sys.exit(0)
    for outcome in results:
        status = "ok" if outcome.error is None else ("OURS" if outcome.ours else "other")
        print(f"{status:5s} {outcome.task} {list(outcome.newton_presets)} {outcome.error or ''}")
    ok = sum(o.error is None for o in results)
    print(f"{ok}/{len(results)} configs instantiate; {sum(o.ours for o in results)} fail on names from our packages")
