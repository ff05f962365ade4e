"""Warp kernels of :mod:`.nonfinite`: non-finite action entries replaced by zero and counted in one launch.

The kernel works on the bit patterns of the floats (viewed as integers of the same width), so that one generic
kernel serves half, bfloat16, single and double precision: an IEEE float is NaN or infinite exactly when all its
exponent bits are set, and +0.0 is the all-zero pattern.
"""

from __future__ import annotations

from typing import Any

import warp as wp


@wp.kernel(enable_backward=False)
def zero_nonfinite_kernel(
    bits: wp.array(dtype=Any),
    exponent_mask: Any,
    finite: wp.array(dtype=Any),
    count: wp.array(dtype=wp.int64),
):
    """Per entry: ``finite = bits``, or +0.0 where all of ``exponent_mask``'s bits are set (counted in ``count[0]``)."""
    i = wp.tid()
    value = bits[i]
    if (value & exponent_mask) == exponent_mask:
        finite[i] = value ^ value
        wp.atomic_add(count, 0, wp.int64(1))
    else:
        finite[i] = value


@wp.kernel(enable_backward=False)
def nonfinite_flags_kernel(
    worlds: wp.array(dtype=wp.bool),
    terminated: wp.array(dtype=wp.bool),
    mask: wp.array(dtype=wp.bool),
    terminated_out: wp.array(dtype=wp.bool),
    count: wp.array(dtype=wp.int32),
):
    """Per env: ``mask`` = its world's non-finite flag, ``terminated_out = terminated or flag``, flags counted."""
    env = wp.tid()
    flag = worlds[env]
    mask[env] = flag
    terminated_out[env] = terminated[env] or flag
    if flag:
        wp.atomic_add(count, 0, 1)


@wp.kernel(enable_backward=False)
def nonfinite_count_kernel(count: wp.array(dtype=wp.int32), total: wp.array(dtype=wp.int64)):
    """One thread: ``total[0] = count[0]``, then ``count`` zeroed for the next flag launch."""
    total[0] = wp.int64(count[0])
    count[0] = 0
