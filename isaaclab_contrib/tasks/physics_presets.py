"""A task's physics as named Newton configurations (``--solver``), one of which is selected when the env is made."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from isaaclab_newton.physics import FeatherstoneSolverCfg, MJWarpSolverCfg, NewtonCfg


@dataclass(frozen=True)
class PhysicsPresets:
    """The Newton configurations a task family offers, by solver name; the first one is the task's default.

    A task registers its presets under the ``physics_presets_entry_point`` keyword of ``gym.register``;
    :func:`isaaclab_contrib.app.env_factory.load_env_cfg` puts the chosen one into ``cfg.sim.physics``.

    Attributes:
        family: The task family the presets belong to, named in errors (``"ant"``).
        presets: Solver name -> function that returns a new :class:`NewtonCfg` of that solver.
        not_offered: Solver name -> why the family does not offer it; named when it is asked for.
    """

    family: str
    presets: Mapping[str, Callable[[], NewtonCfg]]
    not_offered: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.presets:
            raise ValueError(f"PhysicsPresets of {self.family!r} needs at least one preset.")
        object.__setattr__(self, "presets", MappingProxyType(dict(self.presets)))
        object.__setattr__(self, "not_offered", MappingProxyType(dict(self.not_offered)))

    @property
    def names(self) -> tuple[str, ...]:
        """The offered solver names, the default first."""
        return tuple(self.presets)

    def physics(self, solver: str | None = None) -> NewtonCfg:
        """A new Newton configuration of ``solver`` (``None``: the default, the first preset).

        Raises:
            ValueError: If the family does not offer ``solver``; names the reason where one is known and the
                offered names.
        """
        name = self.names[0] if solver is None else solver
        if name in self.presets:
            return self.presets[name]()
        reason = f": {self.not_offered[name]}" if name in self.not_offered else ""
        raise ValueError(
            f"Solver {name!r} is not offered for the {self.family} tasks{reason}. Offered: {list(self.names)}"
            " (--solver NAME; see docs/solvers.md)."
        )


def mjwarp_physics(*, njmax: int, nconmax: int) -> NewtonCfg:
    """MuJoCo Warp as the direct tasks run it: pyramidal cones, ``impratio`` 1, implicit-fast integrator, 1 substep.

    Args:
        njmax: Constraint rows per world.
        nconmax: Contacts per world.
    """
    return NewtonCfg(
        solver_cfg=MJWarpSolverCfg(
            njmax=njmax, nconmax=nconmax, cone="pyramidal", impratio=1, integrator="implicitfast"
        )
    )


def direct_locomotion_physics(
    family: str, *, njmax: int, nconmax: int, featherstone_substeps: int, xpbd_outcome: str
) -> PhysicsPresets:
    """The physics of a direct locomotion task (ant, humanoid): MuJoCo Warp (default) or Featherstone, not XPBD.

    Args:
        family: The task family, named in errors (``"ant"``).
        njmax: MuJoCo Warp constraint rows per world.
        nconmax: MuJoCo Warp contacts per world.
        featherstone_substeps: Featherstone substeps per physics step (its penalty contacts need more than one).
        xpbd_outcome: What happens to the robot under XPBD, which ignores joint armature and damping.
    """
    return PhysicsPresets(
        family=family,
        presets={
            "mjwarp": lambda: mjwarp_physics(njmax=njmax, nconmax=nconmax),
            "featherstone": lambda: NewtonCfg(solver_cfg=FeatherstoneSolverCfg(), num_substeps=featherstone_substeps),
        },
        not_offered={"xpbd": f"Newton 1.8's XPBD ignores joint armature and joint damping; {xpbd_outcome}"},
    )
