"""Compute devices this machine has, asked of the NVIDIA driver without importing torch or Warp.

The driver library itself (``libcuda.so.1``, the one torch and Warp load) is probed, so ``--device cuda:0`` on a
machine without a driver is refused by name before either is imported.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import re

_DEVICE = re.compile(r"cpu|cuda(?::(\d+))?")


@functools.cache
def cuda_device_count() -> int | None:
    """CUDA devices the NVIDIA driver reports, or ``None`` when no driver library loads or it fails to start."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    if driver.cuInit(0) != 0:
        return None
    count = ctypes.c_int(0)
    if driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return None
    return count.value


def default_device() -> str:
    """``cuda:0`` when the driver reports a CUDA device, else ``cpu``."""
    return "cuda:0" if cuda_device_count() else "cpu"


def device_arg(text: str) -> str:
    """``cpu``, ``cuda`` or ``cuda:<index>`` of a device this machine has (argparse type).

    Raises:
        argparse.ArgumentTypeError: For any other name, a CUDA device without an NVIDIA driver, or an index past
            the devices the driver reports; the message names the devices there are.
    """
    match = _DEVICE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"unknown device {text!r}; use cpu, cuda or cuda:<index>")
    if text == "cpu":
        return text
    count = cuda_device_count()
    if count is None:
        raise argparse.ArgumentTypeError(
            f"{text} needs an NVIDIA driver and this machine has none (libcuda.so.1 does not load); use --device cpu"
        )
    index = int(match.group(1) or 0)
    if index >= count:
        have = ", ".join(f"cuda:{i}" for i in range(count)) or "none"
        raise argparse.ArgumentTypeError(f"{text} does not exist; this machine's CUDA devices: {have} (or cpu)")
    return text
