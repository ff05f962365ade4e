"""Script output: Warp's module lines held back, one notice while kernels compile, prints replayed on errors."""

from __future__ import annotations

import re
import uuid

import pytest

from isaaclab_contrib.app.console import CompileNotice, configure_output, held_prints


def test_compile_notice_prints_once_and_reports_the_total(capsys):
    """Two compiled modules print one notice line; the report names both and their summed time."""
    notice = CompileNotice(verbose=False, cache_dir="/cache")
    notice.info("Module a 1234567 load on device 'cpu' took 1500.00 ms  (compiled)")
    notice.info("Module b 1234567 load on device 'cpu' took 0.30 ms  (cached)")
    notice.info("Module c 1234567 load on device 'cpu' took 500.00 ms  (compiled)")
    notice.report()
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "[INFO] compiling kernels for this machine, once: later starts load them from /cache",
        "[INFO] compiled 2 kernel modules in 2.0 s",
    ]


def test_warp_module_lines_are_held_back_and_a_fresh_kernel_is_noticed(capsys):
    """A kernel new to the cache compiles with the notice and no 'Module ... load' line on stdout.

    Other modules may compile in the same call (a worker sharing a fresh cache), so the count is at least one more;
    the notice comes with the process's first compile, which an earlier test in the same worker may have made.
    """
    import warp as wp

    notice = configure_output(verbose=False)
    compiled_before = notice.modules_compiled
    # a constant no cached module holds (one of 2**23 exact float32 values): forces a compile
    scale = float(uuid.uuid4().int % (1 << 23)) + 0.5

    @wp.kernel(module="unique")
    def scaled(x: wp.array(dtype=float)):
        x[wp.tid()] = x[wp.tid()] * wp.static(scale)

    values = wp.ones(4, dtype=float, device="cpu")
    wp.launch(scaled, dim=4, inputs=[values], device="cpu")
    notice.report()
    out = capsys.readouterr().out
    assert "Module " not in out
    compiled = re.search(r"compiled (\d+) kernel modules", out)
    assert ("compiling kernels for this machine, once" in out) == (compiled_before == 0)
    assert compiled and int(compiled.group(1)) > compiled_before
    assert values.numpy().tolist() == [scale] * 4


def test_held_prints_replay_on_error(capsys):
    """What a failing block printed reaches stderr, so nothing that explains the error is lost."""
    with pytest.raises(RuntimeError), held_prints(verbose=False):
        print("setting up scene")
        raise RuntimeError("boom")
    captured = capsys.readouterr()
    assert captured.out == "" and "setting up scene" in captured.err
