"""The task ids ``isaaclab_tasks`` registers, read from its sources without importing it (standard library only).

Importing ``isaaclab_tasks`` takes seconds and registers every upstream id; the scripts only need to know whether a
``--task`` is one of them before anything heavy is imported.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

_REGISTERED_ID = re.compile(r"""id\s*=\s*["']([^"']+)["']""")


@functools.cache
def upstream_task_ids() -> tuple[str, ...]:
    """Sorted ids of the ``gym.register(id=...)`` calls in the installed ``isaaclab_tasks`` (none if not installed)."""
    spec = importlib.util.find_spec("isaaclab_tasks")
    if spec is None or not spec.submodule_search_locations:
        return ()
    root = Path(next(iter(spec.submodule_search_locations)))
    ids: set[str] = set()
    for init in root.rglob("__init__.py"):
        text = init.read_text(encoding="utf-8")
        if "gym.register" in text:
            ids.update(_REGISTERED_ID.findall(text))
    return tuple(sorted(ids))
