"""Physics presets of the cartpole tasks: MuJoCo Warp by default, XPBD or Featherstone selectable."""

from __future__ import annotations

from isaaclab_newton.physics import FeatherstoneSolverCfg, NewtonCfg, XPBDSolverCfg

from ..physics_presets import PhysicsPresets, mjwarp_physics

CARTPOLE_PHYSICS = PhysicsPresets(
    family="cartpole",
    presets={
        "mjwarp": lambda: mjwarp_physics(njmax=5, nconmax=3),
        "xpbd": lambda: NewtonCfg(solver_cfg=XPBDSolverCfg(iterations=8), num_substeps=4),
        "featherstone": lambda: NewtonCfg(solver_cfg=FeatherstoneSolverCfg(), num_substeps=4),
    },
)
"""Each runs a full episode of random actions finite and bounded (docs/solvers.md)."""
