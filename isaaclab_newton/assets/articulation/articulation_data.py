"""Articulation data on Newton: joint state and properties on top of the shared body/root buffers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import torch
import warp as wp
from isaaclab.assets.articulation.base_articulation_data import BaseArticulationData
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..binding import torch_view
from ..body_data import NewtonBodyDataMixin
from ..unsupported import mark_unsupported

if TYPE_CHECKING:
    from ..binding import ArticulationBinding

_JOINT_BUFFERS = (
    "default_joint_pos", "default_joint_vel", "joint_stiffness",
    "joint_damping", "joint_armature", "joint_friction_coeff", "joint_viscous_friction_coeff", "joint_effort_limits",
    "joint_vel_limits",
)  # fmt: skip
_TENDON_FIELDS = (
    "fixed_tendon_stiffness", "fixed_tendon_damping", "fixed_tendon_limit_stiffness", "fixed_tendon_rest_length",
    "fixed_tendon_offset", "spatial_tendon_stiffness", "spatial_tendon_damping", "spatial_tendon_limit_stiffness",
    "spatial_tendon_offset",
)  # fmt: skip


class ArticulationData(NewtonBodyDataMixin, BaseArticulationData):
    """State and properties of an articulation in N Newton worlds.

    Buffers are allocated once and refreshed in place, so ``data.joint_pos.torch`` may be cached by callers (joint
    and body state reads are views of the simulation state where the layout allows: read-only, write through the
    ``write_*`` methods);
    state-derived ones (joint positions, velocities, accelerations and the body/root quantities) are computed on
    read and cached until the state changes (see :mod:`isaaclab_newton.assets.body_data`).
    Joint units: [m] or [rad], [m/s] or [rad/s]. Body/root conventions: see :class:`NewtonBodyDataMixin`.
    Fixed tendon properties have one column per fixed tendon (MuJoCo ``<tendon><fixed>``, see
    :mod:`.fixed_tendons`, set by :meth:`set_fixed_tendon_properties`); spatial tendon properties have zero columns.
    """

    def __init__(self, root_view: None, device: str, binding: ArticulationBinding):
        BaseArticulationData.__init__(self, root_view, device)
        self._num_joints = len(binding.joint_names)
        self.soft_joint_pos_limit_factor = 1.0
        self._init_body_buffers(binding, device)
        n, j = self._num_instances, self._num_joints
        self._add_gather("joint_pos", (n, j), wp.float32, "joint_q", binding.coord_indices)
        self._add_gather("joint_vel", (n, j), wp.float32, "joint_qd", binding.dof_indices)
        self._add_lazy("joint_acc", (n, j), wp.float32, self._difference("joint_vel"))
        for name in _JOINT_BUFFERS:
            self._static[name] = ProxyArray(wp.zeros((n, j), dtype=wp.float32, device=device))
        for name in ("joint_pos_limits", "soft_joint_pos_limits"):
            self._static[name] = ProxyArray(wp.zeros((n, j), dtype=wp.vec2f, device=device))
        for name in _TENDON_FIELDS:
            self._static[name] = ProxyArray(wp.zeros((n, 0), dtype=wp.float32, device=device))
        self._static["fixed_tendon_pos_limits"] = ProxyArray(wp.zeros((n, 0), dtype=wp.vec2f, device=device))
        self._read_joint_properties()

    def _read_joint_properties(self) -> None:
        """Copy joint properties of the finalized model into the per-env buffers."""
        model = NewtonManager.get_model()
        bind = self._binding
        dof, coord = bind.dof_indices, bind.coord_indices
        for name, attr in (
            ("joint_stiffness", "joint_target_ke"), ("joint_damping", "joint_target_kd"),
            ("joint_armature", "joint_armature"), ("joint_friction_coeff", "joint_friction"),
            ("joint_viscous_friction_coeff", "joint_damping"),
            ("joint_effort_limits", "joint_effort_limit"), ("joint_vel_limits", "joint_velocity_limit"),
        ):  # fmt: skip
            self._tensor(name).copy_(torch_view(getattr(model, attr))[dof])
        lower, upper = torch_view(model.joint_limit_lower)[dof], torch_view(model.joint_limit_upper)[dof]
        self._tensor("joint_pos_limits").copy_(torch.stack((lower, upper), -1))
        self.update_soft_joint_pos_limits()
        self._tensor("default_joint_pos").copy_(torch_view(model.joint_q)[coord])
        self._tensor("default_joint_vel").copy_(torch_view(model.joint_qd)[dof])

    refresh_fixed_tendon_limit_stiffness: Callable[[], None] | None = None
    """Called before ``fixed_tendon_limit_stiffness`` is read, while the solver has not reported the gains yet."""

    def set_fixed_tendon_properties(self, values: dict[str, torch.Tensor]) -> None:
        """Replace the fixed tendon buffers with ``values`` (buffer name -> (num_instances, num_fixed_tendons[, 2]))."""
        for name, value in values.items():
            dtype = wp.vec2f if value.dim() == 3 else wp.float32
            self._static[name] = ProxyArray(wp.from_torch(value.contiguous(), dtype=dtype))

    def update_soft_joint_pos_limits(self) -> None:
        """Recompute the soft limits: the hard range scaled about its middle by ``soft_joint_pos_limit_factor``."""
        limits = self._tensor("joint_pos_limits")
        mid = 0.5 * (limits[..., 0] + limits[..., 1])
        half = 0.5 * (limits[..., 1] - limits[..., 0]) * self.soft_joint_pos_limit_factor
        self._tensor("soft_joint_pos_limits").copy_(torch.stack((mid - half, mid + half), -1))

    def update(self, dt: float) -> None:
        """Nothing to do: state-derived buffers are computed when read.

        Args:
            dt: Time since the previous update [s] (unused).
        """

    @property
    def joint_pos(self) -> ProxyArray:
        """Joint positions [m or rad], shape (num_instances, num_joints)."""
        return self._read("joint_pos")

    @property
    def joint_vel(self) -> ProxyArray:
        """Joint velocities [m/s or rad/s], shape (num_instances, num_joints)."""
        return self._read("joint_vel")

    @property
    def joint_acc(self) -> ProxyArray:
        """Joint accelerations [m/s^2 or rad/s^2]: velocity difference between two reads over their time gap."""
        return self._read("joint_acc")

    @property
    def default_joint_pos(self) -> ProxyArray:
        """Default joint positions from the configuration's initial state."""
        return self._static["default_joint_pos"]

    @property
    def default_joint_vel(self) -> ProxyArray:
        """Default joint velocities from the configuration's initial state."""
        return self._static["default_joint_vel"]

    @property
    def joint_stiffness(self) -> ProxyArray:
        """Joint drive stiffness [N/m or N m/rad] (Newton ``joint_target_ke``)."""
        return self._static["joint_stiffness"]

    @property
    def joint_damping(self) -> ProxyArray:
        """Joint drive damping [N s/m or N m s/rad] (Newton ``joint_target_kd``)."""
        return self._static["joint_damping"]

    @property
    def joint_armature(self) -> ProxyArray:
        """Joint armature [kg or kg m^2]."""
        return self._static["joint_armature"]

    @property
    def joint_friction_coeff(self) -> ProxyArray:
        """Joint friction (Newton ``joint_friction``, a friction-loss force [N or N m] under MuJoCo)."""
        return self._static["joint_friction_coeff"]

    @property
    def joint_viscous_friction_coeff(self) -> ProxyArray:
        """Joint viscous friction (Newton's passive ``joint_damping``) [N s/m or N m s/rad]."""
        return self._static["joint_viscous_friction_coeff"]

    @property
    def joint_effort_limits(self) -> ProxyArray:
        """Joint effort limits [N or N m]."""
        return self._static["joint_effort_limits"]

    @property
    def joint_vel_limits(self) -> ProxyArray:
        """Joint velocity limits [m/s or rad/s]."""
        return self._static["joint_vel_limits"]

    @property
    def joint_pos_limits(self) -> ProxyArray:
        """Joint position limits (lower, upper) [m or rad], shape (num_instances, num_joints, 2)."""
        return self._static["joint_pos_limits"]

    @property
    def soft_joint_pos_limits(self) -> ProxyArray:
        """Soft joint position limits (lower, upper) [m or rad]."""
        return self._static["soft_joint_pos_limits"]


def _tendon_property(name: str) -> property:
    def getter(self) -> ProxyArray:
        if name == "fixed_tendon_limit_stiffness" and self.refresh_fixed_tendon_limit_stiffness is not None:
            self.refresh_fixed_tendon_limit_stiffness()
        return self._static[name]

    kind = "fixed" if name.startswith("fixed") else "spatial"
    getter.__doc__ = f"``{name}``, shape (num_instances, num_{kind}_tendons) (see :mod:`.fixed_tendons`)."
    return property(getter)


for _name in (*_TENDON_FIELDS, "fixed_tendon_pos_limits"):
    setattr(ArticulationData, _name, _tendon_property(_name))
del _name

mark_unsupported(ArticulationData, sorted(BaseArticulationData.__abstractmethods__))
