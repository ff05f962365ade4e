"""Clearing sensor buffers of reset environments, shared by the Newton sensors.

A reset clears the environments' readings and marks them up to date, so a read before the next physics step
returns the cleared values instead of recomputing them from the solver's pre-reset observables.
"""

from __future__ import annotations

import warp as wp


def clear_envs(env_mask: wp.array, is_outdated: wp.array, arrays: tuple[wp.array, ...]) -> None:
    """Zero the rows of ``arrays`` (vec3, 1-D per env or 2-D per env and slot) of the masked envs; mark them fresh.

    Args:
        env_mask: Boolean mask over environments.
        is_outdated: The sensor's per-env outdated flags (cleared for the masked envs).
        arrays: The sensor's per-env ``wp.vec3`` data buffers.
    """
    device = env_mask.device
    for array in arrays:
        if array.ndim == 1:
            wp.launch(_zero_vec3_rows, dim=array.shape[0], inputs=[env_mask, array], device=device)
        else:
            wp.launch(_zero_vec3_rows_2d, dim=array.shape, inputs=[env_mask, array], device=device)
    wp.launch(_mark_fresh, dim=is_outdated.shape[0], inputs=[env_mask, is_outdated], device=device)


@wp.kernel
def _zero_vec3_rows(env_mask: wp.array(dtype=wp.bool), values: wp.array(dtype=wp.vec3)):
    env = wp.tid()
    if env_mask[env]:
        values[env] = wp.vec3()


@wp.kernel
def _zero_vec3_rows_2d(env_mask: wp.array(dtype=wp.bool), values: wp.array2d(dtype=wp.vec3)):
    env, k = wp.tid()
    if env_mask[env]:
        values[env, k] = wp.vec3()


@wp.kernel
def _mark_fresh(env_mask: wp.array(dtype=wp.bool), is_outdated: wp.array(dtype=wp.bool)):
    env = wp.tid()
    if env_mask[env]:
        is_outdated[env] = False
