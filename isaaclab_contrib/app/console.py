"""What the scripts print: warnings and errors of Warp, Newton and Isaac Lab, and one notice while kernels compile.

By default (``verbose=False``) Warp's init banner and per-module load lines, Isaac Lab's setup prints and its
info-level logs are held back; warnings and errors always show. On a cold Warp kernel cache, the first module that
Warp compiles prints ``compiling kernels for this machine, once: ...`` and :meth:`CompileNotice.report` prints how
long compiling took. ``verbose=True`` prints everything the libraries print.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import tempfile
import warnings
from collections.abc import Iterator

from .devices import cuda_device_count

_LIBRARY_LOGGERS = ("isaaclab", "isaaclab_rl", "isaaclab_tasks", "newton", "warp")
"""Python loggers held at warning level unless verbose."""

_NO_DRIVER_LINE = "Warp CUDA warning: Could not find or load the NVIDIA CUDA driver"
"""Warp's native stderr line on a machine without an NVIDIA driver (the device check already refused CUDA)."""


class _TorchvisionAbsentFilter(logging.Filter):
    """Drops torch's ONNX exporter lines ``torchvision is not installed. Skipping torchvision::<op>``."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "torchvision is not installed" not in record.getMessage()


class CompileNotice:
    """A Warp logger (:func:`warp.set_logger`) that holds back info lines and watches for compiled modules.

    Warp reports each module load at info level, ending in ``(compiled)`` or ``(cached)``; compiled ones are
    counted and timed. Warnings go to :func:`warnings.warn`, errors to stderr, as with Warp's own logger.

    Args:
        verbose: Print every info line as Warp would.
        cache_dir: Warp's kernel cache, named in the notice.
    """

    def __init__(self, *, verbose: bool, cache_dir: str) -> None:
        self.verbose = verbose
        self.cache_dir = cache_dir
        self.modules_compiled = 0
        self.compile_s = 0.0
        self._reported = 0

    def debug(self, message: str) -> None:
        """Debug lines only with ``verbose``."""
        if self.verbose:
            print(message, flush=True)

    def info(self, message: str) -> None:
        """Count compiled modules; print the line only with ``verbose``."""
        if message.rstrip().endswith("(compiled)") and " took " in message:
            if self.modules_compiled == 0 and not self.verbose:
                print(
                    f"[INFO] compiling kernels for this machine, once: later starts load them from {self.cache_dir}",
                    flush=True,
                )
            self.modules_compiled += 1
            self.compile_s += float(message.rsplit(" took ", 1)[1].split(" ms", 1)[0]) / 1000.0
        if self.verbose:
            print(message, flush=True)

    def warning(self, message: str, category=None, stacklevel: int = 1) -> None:
        """Warnings as Python warnings (filterable, shown once per place)."""
        warnings.warn(message, category, stacklevel=stacklevel + 1)

    def error(self, message: str) -> None:
        """Errors to stderr."""
        print(message, file=sys.stderr, flush=True)

    def report(self) -> None:
        """Print how many modules compiled since the last report and how long they took (nothing if none)."""
        if self.modules_compiled > self._reported:
            print(f"[INFO] compiled {self.modules_compiled} kernel modules in {self.compile_s:.1f} s", flush=True)
            self._reported = self.modules_compiled


def configure_output(*, verbose: bool) -> CompileNotice:
    """Set Warp's logger and the libraries' log levels for a script run; initializes Warp.

    Call before the env is built (:func:`~isaaclab_contrib.app.env_factory.make_env` calls it too); a second call
    with the same ``verbose`` returns the notice the first one set. Without ``verbose``, Warp's native no-driver line
    is dropped on machines without an NVIDIA driver (the scripts' ``--device`` check refuses CUDA there by name).
    """
    if not verbose:
        # Isaac Lab core decorates its math helpers with torch.jit.script (and rsl-rl exports policies with it, which
        # the tools load with torch.jit.load), which torch 2.11 deprecates; nothing for a user to act on.
        warnings.filterwarnings("ignore", message="`torch.jit.(script|load)` is deprecated", category=FutureWarning)
        # torch's ONNX exporter lists the torchvision ops it skips when torchvision is absent (policies use none).
        onnx_registration = logging.getLogger("torch.onnx._internal.exporter._registration")
        if not any(isinstance(f, _TorchvisionAbsentFilter) for f in onnx_registration.filters):
            onnx_registration.addFilter(_TorchvisionAbsentFilter())
    import warp as wp

    current = wp.get_logger()
    if isinstance(current, CompileNotice) and current.verbose == verbose:
        return current  # configured already (the script, then make_env): keep its counts
    wp.config.log_level = wp.LOG_INFO  # module-load lines reach the logger, which holds them back
    notice = CompileNotice(verbose=verbose, cache_dir=wp.config.kernel_cache_dir or "Warp's kernel cache")
    wp.set_logger(notice)
    level = logging.INFO if verbose else logging.WARNING
    for name in _LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(level)
    if verbose or cuda_device_count() is not None:
        wp.init()
    else:
        with _native_stderr_without(_NO_DRIVER_LINE):
            wp.init()
    notice.cache_dir = wp.config.kernel_cache_dir
    return notice


def report_compiles() -> None:
    """Print the kernel modules compiled since the last report, where :func:`configure_output` set up this run."""
    import warp as wp

    notice = wp.get_logger()
    if isinstance(notice, CompileNotice):
        notice.report()


@contextlib.contextmanager
def held_prints(*, verbose: bool) -> Iterator[None]:
    """Hold back what the block prints to stdout (Isaac Lab's env setup prints) unless ``verbose``.

    If the block raises, what it printed goes to stderr first, so nothing that explains the error is lost.
    """
    if verbose:
        yield
        return
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            yield
    except BaseException:
        sys.stderr.write(buffer.getvalue())
        raise


@contextlib.contextmanager
def _native_stderr_without(line: str) -> Iterator[None]:
    """Capture file descriptor 2 (native libraries' stderr) in the block and pass on every line but ``line``."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as captured:
        os.dup2(captured.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            kept = [text for text in captured.read().decode(errors="replace").splitlines(True) if line not in text]
            sys.stderr.write("".join(kept))
            sys.stderr.flush()
