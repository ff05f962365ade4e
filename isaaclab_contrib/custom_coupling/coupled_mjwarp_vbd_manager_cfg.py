"""Configuration of the custom shared-model MuJoCo Warp + VBD coupled manager."""

from __future__ import annotations

from typing import Any, Literal

from isaaclab.utils import configclass

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonSolverCfg, VBDSolverCfg


@configclass
class CoupledMJWarpVBDSolverCfg(NewtonSolverCfg):
    """MuJoCo Warp for rigid bodies and VBD for particles on one shared model and one collision pass.

    Each substep follows six steps (see :class:`~isaaclab_contrib.custom_coupling.NewtonCoupledMJWarpVBDManager`).
    ``"two_way"`` injects the body-particle contact penalties into the rigid bodies' ``body_f`` so deformables
    push the robot back; ``"one_way"`` lets rigid bodies move deformables without feeling them.

    The particle-shape penalty contact is set by :attr:`NewtonCfg.soft_contact_cfg
    <isaaclab_newton.physics.NewtonCfg.soft_contact_cfg>`; it holds the first knobs to tune (stiffness, then
    friction, then damping against chatter).
    """

    class_type: Any = "{DIR}.coupled_mjwarp_vbd_manager:NewtonCoupledMJWarpVBDManager"
    solver_type: str = "coupled_mjwarp_vbd"

    rigid_solver_cfg: MJWarpSolverCfg = MJWarpSolverCfg()
    """MuJoCo Warp settings of the rigid solve (with its own contacts by default)."""

    soft_solver_cfg: VBDSolverCfg = VBDSolverCfg(integrate_with_external_rigid_solver=True)
    """VBD settings of the particle solve; ``integrate_with_external_rigid_solver`` must stay ``True``."""

    coupling_mode: Literal["one_way", "two_way"] = "two_way"
    """Whether particle contacts push rigid bodies back (``"two_way"``) or not (``"one_way"``)."""
