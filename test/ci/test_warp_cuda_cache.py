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


@pytest.fixture
def scaled(monkeypatch, tmp_path):
    """A kernel of its own module, of a content no earlier test compiled, with Warp's kernel cache in ``tmp_path``."""
    import warp as wp

    wp.init()
    monkeypatch.setattr(wp.config, "kernel_cache_dir", str(tmp_path))
    scale = float(uuid.uuid4().int % 100000) + 0.5

    @wp.kernel(module="unique")
    def scaled(x: wp.array(dtype=float)):
        x[wp.tid()] = x[wp.tid()] * wp.static(scale)

    return scaled


def test_a_cpu_load_leaves_a_cuda_binary_where_a_cuda_load_looks(plugin, scaled, tmp_path):
    """A module loaded on the CPU is compiled for sm_90 too, as the CUBIN file a CUDA load of it reads."""
    from warp._src.context import _get_module_artifact_path

    scaled.module.load("cpu")
    plugin["CudaCacheFiller"](90).after_load(scaled.module, "cpu", 256)
    binary = _get_module_artifact_path(scaled.module, None, 90, None, use_ptx=False)
    assert binary.is_file() and binary.name.endswith(".sm90.cubin")
    assert binary.is_relative_to(tmp_path)


def test_a_cpu_load_of_a_block_size_leaves_the_binary_of_that_size(plugin, scaled, tmp_path):
    """A CPU load at block size 128 leaves the sm_90 CUBIN a CUDA launch at block size 128 looks for."""
    plugin["CudaCacheFiller"](90).after_load(scaled.module, "cpu", 128)
    name = scaled.module.get_module_identifier(128)
    assert name != scaled.module.get_module_identifier(256)
    assert [p.name for p in tmp_path.rglob("*.sm90.cubin")] == [f"{name}.sm90.cubin"]
    assert scaled.module.options["block_dim"] == 256, "the module's default block size is left as it was"


def test_cpu_launches_leave_the_binaries_of_the_block_sizes_they_ask_for(plugin, scaled, monkeypatch, tmp_path):
    """Hooked CPU launches asking for 64 threads a block and for none leave the sm_90 CUBINs of 64 and 256."""
    import warp as wp
    from warp._src import context

    resolve, load = plugin["launch_hooks"](
        plugin["CudaCacheFiller"](90), context._resolve_launch_block_dim, context.Module.load
    )
    monkeypatch.setattr(context, "_resolve_launch_block_dim", resolve)
    monkeypatch.setattr(context.Module, "load", load)
    x = wp.ones(4, dtype=float, device="cpu")
    wp.launch(scaled, dim=4, inputs=[x], device="cpu", block_dim=64)
    wp.launch(scaled, dim=4, inputs=[x], device="cpu")
    names = sorted(p.name for p in tmp_path.rglob("*.sm90.cubin"))
    assert names == sorted(f"{scaled.module.get_module_identifier(b)}.sm90.cubin" for b in (64, 256))


def test_arch_must_be_digits(plugin, monkeypatch):
    """An architecture given as anything but digits is refused with the form it takes."""
    monkeypatch.setenv("WARP_CUDA_CACHE_ARCH", "sm_90")
    with pytest.raises(ValueError, match="e.g. 90"):
        plugin["cuda_arch"]()
