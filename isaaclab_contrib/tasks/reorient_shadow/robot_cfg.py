"""The offline Shadow hand and the cube: articulation, rigid object, joint and body names, physics preset.

Joint names are the wheel MJCF's (``robot0:FFJ3`` ...). Of the 24 hinges, 20 are driven by implicit PD actuators
with the wheel's MuJoCo position-actuator gains and force ranges; the four distal joints (``robot0:*J0`` of the
fingers) are passive and follow their middle joint through the MJCF's coupling tendons (``robot0:T_*J1c``, a fixed
tendon ``0.00705 q_distal - 0.00805 q_middle`` limited to +-1 mm; their zero-gain actuator group applies no force).
"""

from __future__ import annotations

import isaaclab.sim as sim_utils
from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg, RigidObjectCfg
from isaaclab.sim.schemas import MassCfg, UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg
from isaaclab_newton.sim import MjcfFileCfg

from .shadow_hand_asset import ensure_shadow_hand_mjcf

ACTUATED_JOINTS = [
    "robot0:WRJ1", "robot0:WRJ0",
    "robot0:FFJ3", "robot0:FFJ2", "robot0:FFJ1",
    "robot0:MFJ3", "robot0:MFJ2", "robot0:MFJ1",
    "robot0:RFJ3", "robot0:RFJ2", "robot0:RFJ1",
    "robot0:LFJ4", "robot0:LFJ3", "robot0:LFJ2", "robot0:LFJ1",
    "robot0:THJ4", "robot0:THJ3", "robot0:THJ2", "robot0:THJ1", "robot0:THJ0",
]  # fmt: skip
"""The 20 joints the wheel's MJCF actuates (its ``<actuator>`` order)."""

COUPLED_JOINTS = ["robot0:FFJ0", "robot0:MFJ0", "robot0:RFJ0", "robot0:LFJ0"]
"""Distal finger joints without a motor, coupled to their middle joint by a fixed tendon."""

FINGERTIP_BODIES = ["robot0:ffdistal", "robot0:mfdistal", "robot0:rfdistal", "robot0:lfdistal", "robot0:thdistal"]
"""The five distal links whose poses and velocities the policy observes."""

HAND_POS = (0.0, 0.0, 0.5)
"""Hand mount position in the env frame [m]; the forearm reaches along -y, the palm faces up."""

HAND_ROT = (0.0, -0.70710678, 0.70710678, 0.0)
"""Hand mount orientation (x, y, z, w): the wheel's ``euler="1.5708 0 3.14159"``."""

CUBE_SIZE = 0.05
"""Cube edge [m] (the wheel's block, density 567 kg/m^3: 71 g)."""

CUBE_POS = (0.0, -0.38, 0.56)
"""Cube start position in the env frame [m]: 1 cm above the palm centre (the wheel's block offset from the mount)."""

_WRIST = "robot0:WRJ.*"


def shadow_hand_cfg() -> ArticulationCfg:
    """The fixed-base hand with the wheel's gains (fetches the MJCF on first use)."""
    return ArticulationCfg(
        prim_path="{ENV_REGEX_NS}/Robot",
        spawn=MjcfFileCfg(asset_path=ensure_shadow_hand_mjcf(), floating=False),
        init_state=ArticulationCfg.InitialStateCfg(pos=HAND_POS, rot=HAND_ROT, joint_pos={".*": 0.0}),
        actuators={
            "wrist": ImplicitActuatorCfg(
                joint_names_expr=[_WRIST],
                stiffness=5.0,
                damping=0.5,
                joint_effort_limit={"robot0:WRJ1": 4.785, "robot0:WRJ0": 2.175},
            ),
            "fingers": ImplicitActuatorCfg(
                joint_names_expr=[name for name in ACTUATED_JOINTS if not name.startswith("robot0:WR")],
                stiffness=1.0,
                damping=0.1,
                joint_effort_limit={
                    "robot0:(FF|MF|RF)J(3|2)": 0.9,
                    "robot0:(FF|MF|RF|LF)J1": 0.7245,
                    "robot0:LFJ(4|3|2)": 0.9,
                    "robot0:THJ4": 2.3722,
                    "robot0:THJ3": 1.45,
                    "robot0:THJ(2|1)": 0.99,
                    "robot0:THJ0": 0.81,
                },
            ),
            "coupled": ImplicitActuatorCfg(joint_names_expr=COUPLED_JOINTS, stiffness=0.0, damping=0.0),
        },
    )


def cube_cfg() -> RigidObjectCfg:
    """The 5 cm cube resting in the palm."""
    return RigidObjectCfg(
        prim_path="{ENV_REGEX_NS}/Object",
        spawn=sim_utils.CuboidCfg(
            size=(CUBE_SIZE,) * 3,
            rigid_props=[UsdPhysicsRigidBodyCfg()],
            mass_props=[MassCfg(density=567.0)],
            collision_props=[UsdPhysicsCollisionCfg()],
        ),
        init_state=RigidObjectCfg.InitialStateCfg(pos=CUBE_POS),
    )


def reorient_physics() -> NewtonCfg:
    """MuJoCo Warp with the wheel's own contact model for this hand: pyramidal cones, ``impratio`` 1.

    The wheel's scenes for this MJCF (``hand/manipulate_block.xml``) leave MuJoCo's cone and ``impratio`` at their
    defaults; upstream's Shadow task chose elliptic cones with ``impratio`` 10 for its own USD hand. On this hand the
    elliptic solve costs 4-5 times as much per step (MuJoCo Warp rebuilds its Hessian every iteration), see
    ``docs/reorient.md``. Upstream's integrator (implicitfast), two substeps and per-world capacities stay.
    """
    return NewtonCfg(
        solver_cfg=MJWarpSolverCfg(integrator="implicitfast", cone="pyramidal", impratio=1.0, njmax=200, nconmax=70),
        num_substeps=2,
    )
