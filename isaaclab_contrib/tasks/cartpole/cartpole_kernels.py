"""Warp kernels of the direct cartpole's task terms: terminations, reward and observation, one launch each.

Each kernel computes, per env, what Isaac Lab's ``CartpoleEnv`` computes with a chain of torch operations
(``_get_dones``, its ``compute_rewards`` and ``_get_observations``), in float32 and in the same order of
operations. The cart and pole DOFs are given as int32 index arrays (the columns of the joint state the task reads).
"""

from __future__ import annotations

import warp as wp

_PI = wp.constant(wp.float32(3.14159265358979323846))
_TWO_PI = wp.constant(wp.float32(6.28318530717958647692))


@wp.func
def wrap_to_pi(angle: wp.float32) -> wp.float32:
    """``angle`` [rad] wrapped to [-pi, pi], odd positive multiples of pi to pi (Isaac Lab's ``wrap_to_pi``)."""
    # floor modulo, as torch's ``%``: the remainder takes the divisor's (positive) sign
    wrapped = wp.mod(angle + _PI, _TWO_PI)
    if wrapped != wp.float32(0.0) and wrapped < wp.float32(0.0):
        wrapped += _TWO_PI
    if wrapped == wp.float32(0.0) and angle > wp.float32(0.0):
        return _PI
    return wrapped - _PI


@wp.kernel(enable_backward=False)
def cartpole_dones_kernel(
    joint_pos: wp.array2d(dtype=wp.float32),
    cart_dofs: wp.array(dtype=wp.int32),
    max_cart_pos: wp.float32,
    episode_length: wp.array(dtype=wp.int64),
    max_episode_length: wp.int64,
    out_of_bounds: wp.array(dtype=wp.bool),
    time_out: wp.array(dtype=wp.bool),
):
    """Per env: a cart DOF beyond ``max_cart_pos`` [m] in magnitude; the episode at its step limit."""
    env = wp.tid()
    out = wp.bool(False)  # a typed local: mutated in the loop
    for k in range(cart_dofs.shape[0]):
        if wp.abs(joint_pos[env, cart_dofs[k]]) > max_cart_pos:
            out = True
    out_of_bounds[env] = out
    time_out[env] = episode_length[env] >= max_episode_length


@wp.kernel(enable_backward=False)
def cartpole_reward_kernel(
    joint_pos: wp.array2d(dtype=wp.float32),
    joint_vel: wp.array2d(dtype=wp.float32),
    cart_dofs: wp.array(dtype=wp.int32),
    pole_dofs: wp.array(dtype=wp.int32),
    terminated: wp.array(dtype=wp.bool),
    rew_scale_alive: wp.float32,
    rew_scale_terminated: wp.float32,
    rew_scale_pole_pos: wp.float32,
    rew_scale_cart_vel: wp.float32,
    rew_scale_pole_vel: wp.float32,
    step_dt: wp.float32,
    reward: wp.array(dtype=wp.float32),
):
    """Per env: alive/termination terms, squared wrapped pole angles [rad^2], absolute DOF speeds, times ``step_dt``."""
    env = wp.tid()
    done = wp.float32(0.0)
    if terminated[env]:
        done = wp.float32(1.0)
    pole_pos_sq = wp.float32(0.0)
    pole_speed = wp.float32(0.0)
    for k in range(pole_dofs.shape[0]):
        angle = wrap_to_pi(joint_pos[env, pole_dofs[k]])
        pole_pos_sq += angle * angle
        pole_speed += wp.abs(joint_vel[env, pole_dofs[k]])
    cart_speed = wp.float32(0.0)
    for k in range(cart_dofs.shape[0]):
        cart_speed += wp.abs(joint_vel[env, cart_dofs[k]])
    total = rew_scale_alive * (wp.float32(1.0) - done) + rew_scale_terminated * done
    total += rew_scale_pole_pos * pole_pos_sq
    total += rew_scale_cart_vel * cart_speed
    total += rew_scale_pole_vel * pole_speed
    reward[env] = total * step_dt


@wp.kernel(enable_backward=False)
def cartpole_obs_kernel(
    joint_pos: wp.array2d(dtype=wp.float32),
    joint_vel: wp.array2d(dtype=wp.float32),
    default_joint_pos: wp.array2d(dtype=wp.float32),
    default_joint_vel: wp.array2d(dtype=wp.float32),
    obs_dofs: wp.array(dtype=wp.int32),
    obs: wp.array2d(dtype=wp.float32),
):
    """Per env and observed DOF ``k``: position, then (at ``k + len(obs_dofs)``) velocity relative to the default."""
    env, k = wp.tid()
    dof = obs_dofs[k]
    obs[env, k] = joint_pos[env, dof] - default_joint_pos[env, dof]
    obs[env, k + obs_dofs.shape[0]] = joint_vel[env, dof] - default_joint_vel[env, dof]
