"""A pytest plugin that fills Warp's kernel cache with CUDA binaries while the suite runs on a machine without a GPU.

A CUDA run of the suite on a fresh machine spends most of its time compiling Warp kernels, each worker process
compiling the modules it meets (``docs/testing.md``). With this plugin, every Warp module that a test loads on the
CPU is also compiled ahead of time for one CUDA architecture (``warp.compile_aot_module``) into the same kernel
cache, under the name a CUDA load of that module looks for. Carry the cache to the GPU machine and point
``WARP_CACHE_PATH`` at it: the modules the CPU run met load from it instead of compiling.

The binaries are CUBIN, not PTX: a driver older than Warp's NVRTC (the H100/H200 machines here: driver 13.0, NVRTC
13.4) cannot load PTX from it, and Warp then reads the CUBIN. A module is compiled at the block size its launch asked
for (Warp's CUDA default, 256, where it asked for none): the block size is part of the module's hash, and Newton
launches some kernels with a size of their own (its articulation and soft-face contact kernels). Not covered, and
compiled on the GPU as before: modules that only CUDA code paths load, and launches that ask for another block size on
CUDA than on the CPU (Newton's narrow phase, its SDF edge contacts). A module that fails to compile for CUDA is
reported once and skipped.

Usage, from the repository root (``WARP_CUDA_CACHE_ARCH`` is the GPU's compute capability, 90 for the H100 and
H200)::

    WARP_CACHE_PATH=/tmp/warp_sm90 PYTHONPATH=scripts/ci WARP_CUDA_CACHE_ARCH=90 \\
        ./isaaclab.sh --test -p _warp_cuda_cache -n "$(nproc)" --dist loadfile test
    find /tmp/warp_sm90 -name '*.sm90.cubin' | wc -l     # the modules compiled for the GPU
    tar -C /tmp/warp_sm90 -cJf warp_sm90.tar.xz --exclude='*.cu' --exclude='*.cpp' --exclude='*.o' \\
        --exclude=lto .
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

ARCH_VARIABLE = "WARP_CUDA_CACHE_ARCH"
"""Environment variable holding the CUDA architecture to compile for (an integer such as 90; default 90)."""

CUDA_DEFAULT_BLOCK_DIM = 256
"""Threads per block of a CUDA launch that asks for none (Warp's default)."""


def cuda_arch() -> int:
    """The architecture named by :data:`ARCH_VARIABLE` (default 90).

    Raises:
        ValueError: If the variable is set to something other than an integer compute capability such as ``90``.
    """
    value = os.environ.get(ARCH_VARIABLE, "90")
    if not value.isdigit():
        raise ValueError(f"{ARCH_VARIABLE}={value!r}: give the compute capability as digits, e.g. 90 for sm_90.")
    return int(value)


class CudaCacheFiller:
    """Compiles each Warp module loaded on the CPU for one CUDA architecture as well, once per module content.

    Args:
        arch: The CUDA compute capability to compile for (e.g. 90).
    """

    def __init__(self, arch: int) -> None:
        self.arch = arch
        self.failed: set[str] = set()
        self._done: set[tuple[str, bytes]] = set()

    def after_load(self, module, device, block_dim: int) -> None:
        """Compile ``module`` for CUDA at ``block_dim`` if it was just loaded on the CPU and this variant is new.

        Args:
            module: The Warp module just loaded.
            device: The device it was loaded on (only CPU loads are compiled for CUDA).
            block_dim: The block size a CUDA launch of the same call would use (:func:`cuda_launch_block_dim`);
                part of the module's hash, so the binary is written under the name that CUDA launch looks for.
        """
        import warp as wp

        if not wp.get_device(device).is_cpu:
            return
        key = (module.name, module.get_module_hash(block_dim))
        if key in self._done or module.name in self.failed:
            return
        self._done.add(key)
        default = module.options["block_dim"]
        module.options["block_dim"] = block_dim  # compile_aot_module builds the module's default variant
        try:
            wp.compile_aot_module(module, arch=self.arch, use_ptx=False)
        except Exception as err:  # a module that does not build for CUDA is left to compile on the GPU
            self.failed.add(module.name)
            print(f"[warp_cuda_cache] {module.name}: not compiled for sm_{self.arch} ({err})", file=sys.stderr)
        finally:
            module.options["block_dim"] = default


def cuda_launch_block_dim(requested: int | None) -> int:
    """The block size a CUDA launch asked for ``requested`` threads per block runs with (Warp's default: 256)."""
    return int(requested) if requested is not None and requested > 0 else CUDA_DEFAULT_BLOCK_DIM


def launch_hooks(filler: CudaCacheFiller, resolve: Callable, load: Callable) -> tuple[Callable, Callable]:
    """Wrappers of Warp's launch block-size resolution and of ``Module.load`` that feed ``filler``.

    On the CPU, Warp resolves every launch's block size to 1 before it loads the module, so the load alone does not say
    which variant a CUDA launch of the same call would load; the first wrapper notes the size the call asked for, the
    second hands the module to ``filler`` with the CUDA block size of that request.

    Args:
        filler: Where loaded modules go.
        resolve: Warp's ``_resolve_launch_block_dim(device, block_dim)``.
        load: Warp's ``Module.load(self, device, block_dim=None, ...)``.

    Returns:
        The replacements for ``resolve`` and ``load``.
    """
    requested = threading.local()

    def resolve_and_note(device, block_dim):
        requested.block_dim = block_dim
        return resolve(device, block_dim)

    def load_and_fill(self, device, *args, **kwargs):
        loaded = load(self, device, *args, **kwargs)
        if loaded is not None:
            filler.after_load(self, device, cuda_launch_block_dim(getattr(requested, "block_dim", None)))
            requested.block_dim = None
        return loaded

    return resolve_and_note, load_and_fill


def pytest_configure(config) -> None:
    """Wrap Warp's launch so that every module a launch loads on the CPU is also compiled for CUDA."""
    from warp._src import context

    resolve, load = launch_hooks(CudaCacheFiller(cuda_arch()), context._resolve_launch_block_dim, context.Module.load)
    context._resolve_launch_block_dim = resolve
    context.Module.load = load
