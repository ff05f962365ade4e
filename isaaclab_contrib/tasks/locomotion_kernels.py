"""Warp kernels of the direct locomotion task (ant, humanoid): derived state, dones, reset, reward, observation.

Each kernel computes, per env, what Isaac Lab's ``LocomotionDirectEnv`` computes with a chain of torch operations,
in float32 and in the same order of operations: ``_compute_intermediate_values`` (torso velocities in the torso
frame, up and heading projections, roll, yaw, angle to the target, scaled joint positions, potentials), the
terminations of ``_get_dones``, the potentials and actions of a reset, ``compute_rewards`` and
``_get_observations``. Asset data is read in its own Warp types and indexed per env (strided views are fine); the
task's tensors are read as float32 arrays of their torch shape.
"""

from __future__ import annotations

import warp as wp

from .cartpole.cartpole_kernels import wrap_to_pi

_NORM_EPS = wp.constant(wp.float32(1.0e-9))
"""Smallest norm Isaac Lab's ``normalize`` divides by."""

_UP_THRESHOLD = wp.constant(wp.float32(0.93))
"""Up projection above which the upright reward is paid."""

_HEADING_THRESHOLD = wp.constant(wp.float32(0.8))
"""Heading projection above which the heading reward saturates."""


@wp.func
def planar_norm(x: wp.float32, y: wp.float32) -> wp.float32:
    """Euclidean norm of the planar vector ``(x, y, 0)`` [m]."""
    return wp.sqrt(x * x + y * y + wp.float32(0.0))


@wp.func
def quat_rotate_xyzw(q: wp.quatf, v: wp.vec3f) -> wp.vec3f:
    """``v`` rotated by the unit quaternion ``q`` (x, y, z, w): ``v + w t + xyz x t`` with ``t = 2 xyz x v``."""
    xyz = wp.vec3f(q[0], q[1], q[2])
    t = wp.cross(xyz, v) * wp.float32(2.0)
    return v + q[3] * t + wp.cross(xyz, t)


@wp.struct
class StateInputs:
    """The robot and task state the derived-state kernels read, one struct for their three launches."""

    root_pos_w: wp.array(dtype=wp.vec3f)
    """Root position, world frame [m], (num_envs,)."""
    root_quat_w: wp.array(dtype=wp.quatf)
    """Root orientation (x, y, z, w), world frame, (num_envs,)."""
    root_lin_vel_b: wp.array(dtype=wp.vec3f)
    """Root linear velocity, root frame [m/s], (num_envs,)."""
    root_ang_vel_b: wp.array(dtype=wp.vec3f)
    """Root angular velocity, root frame [rad/s], (num_envs,)."""
    projected_gravity_b: wp.array(dtype=wp.vec3f)
    """Gravity direction, root frame, (num_envs,)."""
    forward_b: wp.array(dtype=wp.vec3f)
    """The root's forward axis, root frame, (num_envs,)."""
    joint_pos: wp.array2d(dtype=wp.float32)
    """Joint positions [rad], (num_envs, num_joints)."""
    joint_vel: wp.array2d(dtype=wp.float32)
    """Joint velocities [rad/s], (num_envs, num_joints)."""
    default_joint_vel: wp.array2d(dtype=wp.float32)
    """Default joint velocities [rad/s], (num_envs, num_joints)."""
    soft_joint_pos_limits: wp.array2d(dtype=wp.vec2f)
    """Soft joint position limits (lower, upper) [rad], (num_envs, num_joints)."""
    targets: wp.array2d(dtype=wp.float32)
    """Walk target, world frame [m], (num_envs, 3)."""
    potentials: wp.array(dtype=wp.float32)
    """The potential before this update [m/s]; the reset kernel rewrites it for the envs it resets."""


@wp.struct
class DerivedState:
    """The per-env buffers of upstream's ``_compute_intermediate_values`` that the kernels write."""

    torso_position: wp.array2d(dtype=wp.float32)
    """Torso position, world frame [m], (num_envs, 3)."""
    vel_loc: wp.array2d(dtype=wp.float32)
    """Torso linear velocity, torso frame [m/s], (num_envs, 3)."""
    angvel_loc: wp.array2d(dtype=wp.float32)
    """Torso angular velocity, torso frame [rad/s], (num_envs, 3)."""
    up_proj: wp.array(dtype=wp.float32)
    """Projection of the torso's up axis on the world's."""
    heading_proj: wp.array(dtype=wp.float32)
    """Projection of the torso's heading on the planar direction to the target."""
    roll: wp.array(dtype=wp.float32)
    """Torso roll [rad]."""
    yaw: wp.array(dtype=wp.float32)
    """Torso yaw [rad]."""
    angle_to_target: wp.array(dtype=wp.float32)
    """Planar angle from the heading to the target [rad]."""
    dof_pos_scaled: wp.array2d(dtype=wp.float32)
    """Joint positions scaled to [-1, 1] over the soft limits, (num_envs, num_joints)."""
    dof_vel: wp.array2d(dtype=wp.float32)
    """Joint velocities relative to the defaults [rad/s], (num_envs, num_joints)."""
    potentials: wp.array(dtype=wp.float32)
    """Potential: minus the planar distance to the target over ``step_dt`` [m/s]."""
    prev_potentials: wp.array(dtype=wp.float32)
    """The potential before this update."""


@wp.func
def locomotion_derived_state(
    env: int,
    inputs: StateInputs,
    step_dt: wp.float32,
    derived: DerivedState,
):
    """Upstream's ``_compute_intermediate_values`` for one env; ``inputs.potentials`` may be ``derived.potentials``."""
    pos = inputs.root_pos_w[env]
    lin = inputs.root_lin_vel_b[env]
    ang = inputs.root_ang_vel_b[env]
    for k in range(3):
        derived.torso_position[env, k] = pos[k]
        derived.vel_loc[env, k] = lin[k]
        derived.angvel_loc[env, k] = ang[k]
    for j in range(inputs.joint_pos.shape[1]):
        derived.dof_vel[env, j] = inputs.joint_vel[env, j] - inputs.default_joint_vel[env, j]
        limits = inputs.soft_joint_pos_limits[env, j]
        offset = (limits[0] + limits[1]) * wp.float32(0.5)
        derived.dof_pos_scaled[env, j] = wp.float32(2.0) * (inputs.joint_pos[env, j] - offset) / (limits[1] - limits[0])

    # planar vector to the walk target
    to_x = inputs.targets[env, 0] - pos[0]
    to_y = inputs.targets[env, 1] - pos[1]
    distance = planar_norm(to_x, to_y)
    derived.up_proj[env] = -inputs.projected_gravity_b[env][2]
    q = inputs.root_quat_w[env]
    heading = quat_rotate_xyzw(q, inputs.forward_b[env])
    scale = wp.max(distance, _NORM_EPS)
    derived.heading_proj[env] = (
        heading[0] * (to_x / scale) + heading[1] * (to_y / scale) + heading[2] * (wp.float32(0.0) / scale)
    )

    # roll and yaw of the XYZ extrinsic Euler angles
    qx, qy, qz, qw = q[0], q[1], q[2], q[3]
    sin_roll = wp.float32(2.0) * (qw * qx + qy * qz)
    cos_roll = wp.float32(1.0) - wp.float32(2.0) * (qx * qx + qy * qy)
    sin_yaw = wp.float32(2.0) * (qw * qz + qx * qy)
    cos_yaw = wp.float32(1.0) - wp.float32(2.0) * (qy * qy + qz * qz)
    env_yaw = wp.atan2(sin_yaw, cos_yaw)
    derived.roll[env] = wp.atan2(sin_roll, cos_roll)
    derived.yaw[env] = env_yaw
    derived.angle_to_target[env] = wp.atan2(to_y, to_x) - env_yaw

    derived.prev_potentials[env] = inputs.potentials[env]
    derived.potentials[env] = -distance / step_dt


@wp.kernel(enable_backward=False)
def locomotion_derived_state_kernel(
    inputs: StateInputs,
    step_dt: wp.float32,
    derived: DerivedState,
):
    """Per env: upstream's ``_compute_intermediate_values`` (see :func:`locomotion_derived_state`)."""
    env = wp.tid()
    locomotion_derived_state(
        env,
        inputs,
        step_dt,
        derived,
    )


@wp.kernel(enable_backward=False)
def locomotion_dones_kernel(
    inputs: StateInputs,
    step_dt: wp.float32,
    episode_length: wp.array(dtype=wp.int64),
    max_episode_length: wp.int64,
    termination_height: wp.float32,
    derived: DerivedState,
    died: wp.array(dtype=wp.bool),
    time_out: wp.array(dtype=wp.bool),
):
    """Per env: the derived state, then the torso below ``termination_height`` [m]; the episode at its step limit."""
    env = wp.tid()
    locomotion_derived_state(
        env,
        inputs,
        step_dt,
        derived,
    )
    died[env] = inputs.root_pos_w[env][2] < termination_height
    time_out[env] = episode_length[env] >= max_episode_length


@wp.kernel(enable_backward=False)
def locomotion_reset_kernel(
    mask: wp.array(dtype=wp.bool),
    default_root_pose: wp.array(dtype=wp.transformf),
    env_origins: wp.array2d(dtype=wp.float32),
    inputs: StateInputs,
    step_dt: wp.float32,
    actions: wp.array2d(dtype=wp.float32),
    derived: DerivedState,
):
    """Per env: where ``mask``, zero actions and the potential of the default root pose; then the derived state.

    The default root position is ``default_root_pose`` offset by the env origin [m]; ``actions`` is zeroed in place.
    """
    env = wp.tid()
    if mask[env]:
        for k in range(actions.shape[1]):
            actions[env, k] = wp.float32(0.0)
        root = wp.transform_get_translation(default_root_pose[env])
        to_x = inputs.targets[env, 0] - (root[0] + env_origins[env, 0])
        to_y = inputs.targets[env, 1] - (root[1] + env_origins[env, 1])
        inputs.potentials[env] = -planar_norm(to_x, to_y) / step_dt
    locomotion_derived_state(
        env,
        inputs,
        step_dt,
        derived,
    )


@wp.kernel(enable_backward=False)
def locomotion_effort_kernel(
    actions_in: wp.array2d(dtype=wp.float32),
    joint_gears: wp.array(dtype=wp.float32),
    action_scale: wp.float32,
    actions: wp.array2d(dtype=wp.float32),
    efforts: wp.array2d(dtype=wp.float32),
):
    """Per env and joint: the action kept in ``actions``; ``action_scale * gear * clamp(action, -1, 1)`` [N m]."""
    env, j = wp.tid()
    action = actions_in[env, j]
    actions[env, j] = action
    efforts[env, j] = action_scale * joint_gears[j] * wp.clamp(action, wp.float32(-1.0), wp.float32(1.0))


@wp.kernel(enable_backward=False)
def locomotion_reward_kernel(
    actions: wp.array2d(dtype=wp.float32),
    terminated: wp.array(dtype=wp.bool),
    heading_proj: wp.array(dtype=wp.float32),
    up_proj: wp.array(dtype=wp.float32),
    dof_vel: wp.array2d(dtype=wp.float32),
    dof_pos_scaled: wp.array2d(dtype=wp.float32),
    gear_ratio_scaled: wp.array(dtype=wp.float32),
    potentials: wp.array(dtype=wp.float32),
    prev_potentials: wp.array(dtype=wp.float32),
    up_weight: wp.float32,
    heading_weight: wp.float32,
    actions_cost_scale: wp.float32,
    energy_cost_scale: wp.float32,
    joint_pos_limits_cost_scale: wp.float32,
    joint_pos_limits_threshold: wp.float32,
    joint_pos_limits_span: wp.float32,
    death_cost: wp.float32,
    alive_reward_scale: wp.float32,
    step_dt: wp.float32,
    reward: wp.array(dtype=wp.float32),
):
    """Per env: upstream's ``compute_rewards``; ``joint_pos_limits_span`` is ``1 - joint_pos_limits_threshold``."""
    env = wp.tid()
    dead = wp.float32(0.0)
    if terminated[env]:
        dead = wp.float32(1.0)
    upright = wp.float32(0.0)
    if up_proj[env] > _UP_THRESHOLD:
        upright = wp.float32(1.0)
    heading = heading_proj[env]
    facing = heading / _HEADING_THRESHOLD
    if heading > _HEADING_THRESHOLD:
        facing = wp.float32(1.0)
    actions_cost = wp.float32(0.0)
    electricity_cost = wp.float32(0.0)
    limit_cost = wp.float32(0.0)
    for j in range(actions.shape[1]):
        action = actions[env, j]
        actions_cost += action * action
        electricity_cost += wp.abs(action * dof_vel[env, j] * gear_ratio_scaled[j])
        scaled = wp.abs(dof_pos_scaled[env, j])
        if scaled > joint_pos_limits_threshold:
            limit_cost += (scaled - joint_pos_limits_threshold) / joint_pos_limits_span * gear_ratio_scaled[j]
    total = potentials[env] - prev_potentials[env]
    total += alive_reward_scale * (wp.float32(1.0) - dead)
    total += up_weight * upright
    total += heading_weight * facing
    total -= actions_cost_scale * actions_cost
    total -= energy_cost_scale * electricity_cost
    total -= joint_pos_limits_cost_scale * limit_cost
    reward[env] = step_dt * total + death_cost * dead


@wp.kernel(enable_backward=False)
def locomotion_obs_kernel(
    torso_position: wp.array2d(dtype=wp.float32),
    vel_loc: wp.array2d(dtype=wp.float32),
    angvel_loc: wp.array2d(dtype=wp.float32),
    yaw: wp.array(dtype=wp.float32),
    roll: wp.array(dtype=wp.float32),
    angle_to_target: wp.array(dtype=wp.float32),
    up_proj: wp.array(dtype=wp.float32),
    heading_proj: wp.array(dtype=wp.float32),
    dof_pos_scaled: wp.array2d(dtype=wp.float32),
    dof_vel: wp.array2d(dtype=wp.float32),
    feet_force: wp.array2d(dtype=wp.vec3f),
    feet_torque: wp.array2d(dtype=wp.vec3f),
    feet_bodies: wp.array(dtype=wp.int32),
    actions: wp.array2d(dtype=wp.float32),
    angular_velocity_scale: wp.float32,
    dof_vel_scale: wp.float32,
    contact_force_scale: wp.float32,
    obs: wp.array2d(dtype=wp.float32),
):
    """Per env, upstream's observation row: torso height [m], body-frame velocities, wrapped yaw, roll and angle
    to target [rad], up and heading projections, scaled joint positions and velocities, feet wrenches (per foot
    force [N] then torque [N m], scaled) and the actions."""
    env = wp.tid()
    obs[env, 0] = torso_position[env, 2]
    for k in range(3):
        obs[env, 1 + k] = vel_loc[env, k]
        obs[env, 4 + k] = angvel_loc[env, k] * angular_velocity_scale
    obs[env, 7] = wrap_to_pi(yaw[env])
    obs[env, 8] = wrap_to_pi(roll[env])
    obs[env, 9] = wrap_to_pi(angle_to_target[env])
    obs[env, 10] = up_proj[env]
    obs[env, 11] = heading_proj[env]
    num_dofs = dof_pos_scaled.shape[1]
    for j in range(num_dofs):
        obs[env, 12 + j] = dof_pos_scaled[env, j]
        obs[env, 12 + num_dofs + j] = dof_vel[env, j] * dof_vel_scale
    col = 12 + 2 * num_dofs
    for f in range(feet_bodies.shape[0]):
        force = feet_force[env, feet_bodies[f]]
        torque = feet_torque[env, feet_bodies[f]]
        for k in range(3):
            obs[env, col + 6 * f + k] = force[k] * contact_force_scale
            obs[env, col + 6 * f + 3 + k] = torque[k] * contact_force_scale
    col += 6 * feet_bodies.shape[0]
    for k in range(actions.shape[1]):
        obs[env, col + k] = actions[env, k]
