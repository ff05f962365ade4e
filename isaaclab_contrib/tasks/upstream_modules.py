"""Load task modules of ``isaaclab_tasks`` without importing its package ``__init__``.

``import isaaclab_tasks`` imports every task family (Isaac Sim and Nucleus assets included), which fails
offline. The cartpole environment modules themselves import only Isaac Lab core, so they are loaded by file.
"""

from __future__ import annotations

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
