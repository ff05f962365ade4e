"""Physics of the Franka lift tasks: the tuning knobs and the two coupling presets (custom manager, proxy)."""

from __future__ import annotations

from isaaclab.utils import configclass

from isaaclab_contrib.coupling import CouplerEntryCfg, CouplerProxyCfg, CouplerProxyMappingCfg
from isaaclab_contrib.custom_coupling import CoupledMJWarpVBDSolverCfg
from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg, NewtonSoftContactCfg, VBDSolverCfg

ROBOT_BODIES = "/World/envs/env_.*/Robot/.*"
OBJECT_PRIM = "/World/envs/env_.*/Object"


@configclass
class LiftTuningCfg:
    """Knobs of the coupled grasp, in the order docs/coupling.md tunes them."""

    soft_contact_ke: float = 8.0e3
    """Particle-shape contact stiffness [N/m]."""

    soft_contact_kd: float = 1.0e-2
    """Particle-shape contact damping [N s/m]."""

    soft_contact_mu: float = 10.0
    """Particle-shape friction coefficient."""

    vbd_iterations: int = 10
    """VBD iterations per substep."""

    num_substeps: int = 2
    """Solver substeps per physics step."""

    arm_stiffness: float = 3000.0
    """Arm joint drive stiffness [N m/rad]: high enough to track against gravity, low enough to yield to contact."""

    arm_damping: float = 300.0
    """Arm joint drive damping [N m s/rad]."""

    arm_effort_limit: float = 87.0
    """Arm joint effort limit [N m] (the Panda's rating for joints 1-4)."""

    hand_stiffness: float = 2000.0
    """Finger drive stiffness [N/m]."""

    hand_damping: float = 50.0
    """Finger drive damping [N s/m]."""

    hand_effort_limit: float = 20.0
    """Finger effort limit [N]: the gripper is commanded fully closed and this limits the squeeze."""


def lift_physics(coupling: str, tuning: LiftTuningCfg) -> NewtonCfg:
    """Newton configuration of the lift tasks.

    Args:
        coupling: ``"custom"`` (MuJoCo Warp + VBD shared-model manager, two-way) or ``"proxy"`` (the robot's bodies
            proxied into VBD by :class:`CouplerProxyCfg`).
        tuning: The contact and drive knobs.
    """
    rigid = MJWarpSolverCfg(nconmax=256, njmax=512)
    if coupling == "custom":
        solver = CoupledMJWarpVBDSolverCfg(
            rigid_solver_cfg=rigid,
            soft_solver_cfg=VBDSolverCfg(integrate_with_external_rigid_solver=True, iterations=tuning.vbd_iterations),
            coupling_mode="two_way",
        )
    elif coupling == "proxy":
        rigid.use_mujoco_contacts = False
        entries = [
            CouplerEntryCfg(name="robot", solver_cfg=rigid, bodies=[ROBOT_BODIES], include_static_shapes=True),
            CouplerEntryCfg(
                name="object", solver_cfg=VBDSolverCfg(iterations=tuning.vbd_iterations), deformables=[OBJECT_PRIM]
            ),
        ]
        # the object sees the robot through the shared contacts (no proxy-local pipeline)
        mapping = CouplerProxyMappingCfg(
            source="robot", destination="object", bodies=[ROBOT_BODIES], collision_pipeline=None
        )
        solver = CouplerProxyCfg(entries=entries, proxies=[mapping])
    else:
        raise ValueError(f"Lift task coupling must be 'custom' or 'proxy', got {coupling!r}.")
    contact = NewtonSoftContactCfg(
        soft_contact_ke=tuning.soft_contact_ke,
        soft_contact_kd=tuning.soft_contact_kd,
        soft_contact_mu=tuning.soft_contact_mu,
    )
    return NewtonCfg(solver_cfg=solver, soft_contact_cfg=contact, num_substeps=tuning.num_substeps)
