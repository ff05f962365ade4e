"""scripts/ci/_warp_cuda_cache.py: Warp modules loaded on the CPU also compiled for a CUDA architecture."""

from __future__ import annotations

import runpy
import uuid
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ci" / "_warp_cuda_cache.py"


@pytest.fixture(scope="module")
def plugin() -> dict:
    """The plugin's names, loaded by path (scripts are not a package)."""
    return runpy.run_path(str(SCRIPT))


def test_a_cpu_load_leaves_a_cuda_binary_where_a_cuda_load_looks(plugin, monkeypatch, tmp_path):
    """A module loaded on the CPU is compiled for sm_90 too, as the CUBIN file a CUDA load of it reads."""
    import warp as wp
    from warp._src.context import _get_module_artifact_path

    wp.init()
    monkeypatch.setattr(wp.config, "kernel_cache_dir", str(tmp_path))
    scale = float(uuid.uuid4().int % 1000) + 0.5  # a module content no earlier test compiled

    @wp.kernel(module="unique")
    def scaled(x: wp.array(dtype=float)):
        x[wp.tid()] = x[wp.tid()] * wp.static(scale)

    scaled.module.load("cpu")
    plugin["CudaCacheFiller"](90).after_load(scaled.module, "cpu")
    binary = _get_module_artifact_path(scaled.module, None, 90, None, use_ptx=False)
    assert binary.is_file() and binary.name.endswith(".sm90.cubin")
    assert binary.is_relative_to(tmp_path)


def test_arch_must_be_digits(plugin, monkeypatch):
    """An architecture given as anything but digits is refused with the form it takes."""
    monkeypatch.setenv("WARP_CUDA_CACHE_ARCH", "sm_90")
    with pytest.raises(ValueError, match="e.g. 90"):
        plugin["cuda_arch"]()
