"""MuJoCo Warp settings that hold a cube (or a drawer handle) between the Panda's fingers."""

from __future__ import annotations

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg, NewtonShapeCfg


def grasp_physics(*, num_substeps: int = 2, nconmax: int = 96, njmax: int = 300) -> NewtonCfg:
    """Newton configuration for contact-rich grasps on MuJoCo Warp.

    * Elliptic friction cones with ``impratio`` 10: the friction constraint is solved as stiff as the normal one,
      so a squeezed cube does not creep down the finger pads (pyramidal cones, upstream's reach and lift setting,
      let the heaviest cube slide 6 mm in the hand over 2 s at 3.3 ms substeps, 32 envs on CPU).
    * 50 solver iterations and substeps of at most 4.2 ms (``num_substeps``; the lift's 10 ms physics step takes 3):
      the pads' contacts are soft (the MJCF's ``solimp`` 0.8). A scripted grasp of the lift's cube at its heaviest
      and least gripped (0.15 kg, friction 0.8 on cube and fingers; 8 envs, CPU) holds with 0.25 mm of slip over
      2 s at 3.3 ms substeps, as at 2.5 ms; at 5 ms the cube slips up to 2.4 mm and one of the 8 sinks below the
      10 cm lift.
    * A 5 mm contact gap on every shape: pad contacts are detected before the pads touch (MuJoCo's gap widens the
      detection envelope without adding force), so a closing gripper meets the cube without a first-contact
      impulse. The margin stays 0: MuJoCo's native box collision zeroes any authored margin.
    * ``nconmax`` contacts and ``njmax`` constraint rows per world: capsule fingers on a box make many contacts
      (the default capacity drops some and the cube slips).

    Args:
        num_substeps: Substeps per physics step.
        nconmax: Contacts per world.
        njmax: Constraint rows per world.
    """
    return NewtonCfg(
        solver_cfg=MJWarpSolverCfg(
            njmax=njmax, nconmax=nconmax, cone="elliptic", impratio=10.0, iterations=50, integrator="implicitfast"
        ),
        num_substeps=num_substeps,
        default_shape_cfg=NewtonShapeCfg(gap=0.005),
    )
