"""Load task modules of ``isaaclab_tasks`` without importing its package ``__init__``.

``import isaaclab_tasks`` imports every task family (Isaac Sim and Nucleus assets included), which fails
offline. The cartpole environment modules themselves import only Isaac Lab core, so they are loaded by file.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_isaaclab_tasks_module(relative_path: str, name: str) -> ModuleType:
    """Load ``isaaclab_tasks/<relative_path>`` as a standalone module named ``name``.

    Args:
        relative_path: File path inside the installed ``isaaclab_tasks`` package.
        name: Module name to register in :data:`sys.modules`.

    Raises:
        ModuleNotFoundError: If ``isaaclab_tasks`` or the file is not installed.
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec("isaaclab_tasks")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("isaaclab_tasks is not installed; install isaaclab==3.0.0 (it ships the tasks).")
    path = Path(next(iter(spec.submodule_search_locations))) / relative_path
    if not path.is_file():
        raise ModuleNotFoundError(f"{path} does not exist in the installed isaaclab_tasks.")
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module


def import_isaaclab_tasks_submodule(dotted: str) -> ModuleType:
    """Import ``isaaclab_tasks.<dotted>`` (relative imports and all) without running the package's ``__init__``.

    The package ``__init__`` registers every upstream task under unversioned ids, which gymnasium refuses next to
    ours (``Isaac-Velocity-Flat-G1`` vs ``Isaac-Velocity-Flat-G1-v0``). Where ``isaaclab_tasks`` is not imported
    yet, it is entered in :data:`sys.modules` as a bare package over the installed folder, so its subpackages
    import normally. Subpackages that register tasks themselves (``.../config/<robot>/__init__.py``) must not be
    imported this way; load their files with :func:`load_isaaclab_tasks_module`.

    Args:
        dotted: Module path below ``isaaclab_tasks`` (``"core.velocity.velocity_env_cfg"``).

    Raises:
        ModuleNotFoundError: If ``isaaclab_tasks`` or the module is not installed.
    """
    if "isaaclab_tasks" not in sys.modules:
        spec = importlib.util.find_spec("isaaclab_tasks")
        if spec is None or not spec.submodule_search_locations:
            raise ModuleNotFoundError("isaaclab_tasks is not installed; install isaaclab==3.0.0 (it ships the tasks).")
        package = ModuleType("isaaclab_tasks")
        package.__path__ = list(spec.submodule_search_locations)
        package.__spec__ = spec
        package.__file__ = spec.origin
        sys.modules["isaaclab_tasks"] = package
    return importlib.import_module(f"isaaclab_tasks.{dotted}")
