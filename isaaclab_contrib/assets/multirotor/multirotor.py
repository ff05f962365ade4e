"""Multirotor on Newton: an articulation whose rotors' thrusts act on its root body as one wrench per step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch
from isaaclab.utils.math import quat_apply, quat_apply_inverse
from isaaclab.utils.string import resolve_matching_names, resolve_matching_names_values

from isaaclab_newton.assets import Articulation
from isaaclab_newton.assets.binding import torch_view
from isaaclab_newton.assets.index_cache import Ids, IndexResolver
from isaaclab_newton.physics import NewtonManager

from ...actuators import Thruster, ThrusterCfg
from .multirotor_data import MultirotorData

if TYPE_CHECKING:
    from .multirotor_cfg import MultirotorCfg

_DT_TOLERANCE = 1e-9


class Multirotor(Articulation):
    """A multirotor in every environment, simulated by Newton.

    Every physics step (:meth:`write_data_to_sim`) each thruster group advances its motors toward
    ``data.thrust_target``, the thrusts are mapped to a body-frame wrench by the allocation matrix, moved from
    the root body's origin to its center of mass, rotated to the world frame and added to the root body's row of
    the external wrench buffer (with the wrench composers' wrenches). Thruster columns follow the groups in
    ``cfg.actuators`` order and, within a group, its ``thruster_names_expr`` order.
    """

    cfg: MultirotorCfg
    _data_class = MultirotorData

    def __init__(self, cfg: MultirotorCfg):
        super().__init__(cfg)
        self._thrusters: dict[str, Thruster] = {}
        self._thruster_cols: dict[str, torch.Tensor] = {}
        self._thruster_names: list[str] = []

    # -- properties ------------------------------------------------------------------------------------

    @property
    def data(self) -> MultirotorData:
        """Runtime data (valid after ``sim.reset()``)."""
        return self._data

    @property
    def num_thrusters(self) -> int:
        """Number of rotors."""
        return len(self._thruster_names)

    @property
    def thruster_names(self) -> list[str]:
        """Rotor (body) names in thruster order."""
        return list(self._thruster_names)

    @property
    def thrusters(self) -> dict[str, Thruster]:
        """Thruster groups by their ``cfg.actuators`` key."""
        return dict(self._thrusters)

    @property
    def allocation_matrix(self) -> torch.Tensor:
        """(6, num_thrusters) map from thrusts [N] to the body-frame wrench about the root body origin."""
        return self._allocation

    @property
    def rotor_directions(self) -> torch.Tensor:
        """Spin direction (+1 / -1) of each rotor, shape (num_thrusters,)."""
        return self._directions

    # -- commands --------------------------------------------------------------------------------------

    def find_thrusters(
        self, name_keys: str | Sequence[str], preserve_order: bool = False
    ) -> tuple[list[int], list[str]]:
        """Find thrusters by regular expressions (see :func:`isaaclab.utils.string.resolve_matching_names`)."""
        return resolve_matching_names(name_keys, self._thruster_names, preserve_order)

    def set_thrust_target(self, target: torch.Tensor, *, thruster_ids: Ids = None, env_ids: Ids = None) -> None:
        """Set commanded thrusts [N], float32 of shape (len(env_ids), len(thruster_ids)); applied from the next step."""
        rows = self._env_index.resolve_torch(env_ids)
        cols = self._thruster_index.resolve_torch(thruster_ids)
        value = self._checked(target, (rows.shape[0], cols.shape[0]), "target", "set_thrust_target")
        self._data.thrust_target.torch[rows[:, None], cols[None, :]] = value

    def allocate(self, wrench_b: torch.Tensor) -> torch.Tensor:
        """Least-squares rotor thrusts [N] for body-frame wrenches (N, 6) about the root origin: ``pinv(A) @ w``."""
        return wrench_b @ self._allocation_pinv.T

    # -- lifecycle -------------------------------------------------------------------------------------

    def reset(self, env_ids: Ids = None, env_mask=None) -> None:
        """Reset as an articulation, then reset the envs' rotors.

        The rotors get their default speeds back and newly sampled motor constants; their thrust targets become the
        thrust at the default speeds.
        """
        super().reset(env_ids, env_mask)
        rows, mask = self._rows(env_ids, env_mask)
        if mask is None:
            mask = torch.zeros_like(self._all_true_envs).index_fill_(0, rows, True)
        self._reset_thrusters(mask)

    def _reset_thrusters(self, mask: torch.Tensor) -> None:
        data = self._data
        for name, group in self._thrusters.items():
            cols = self._thruster_cols[name]
            group.reset(mask)
            data.thrust_target.torch[:, cols] = torch.where(
                mask[:, None], group.default_thrust(), data.thrust_target.torch[:, cols]
            )
            data.thrust.torch[:, cols] = group.thrust
            data.rotor_speed.torch[:, cols] = group.rotor_speed

    def write_data_to_sim(self) -> None:
        """Advance the motors one physics step, then run the joint actuators and apply all wrenches."""
        data = self._data
        for name, group in self._thrusters.items():
            cols = self._thruster_cols[name]
            data.thrust.torch[:, cols] = group.compute(data.thrust_target.torch[:, cols])
            data.rotor_speed.torch[:, cols] = group.rotor_speed
        super().write_data_to_sim()

    def _apply_wrenches(self) -> None:
        """Write the composers' wrenches plus the rotor wrench on the root body into the external wrench buffer."""
        total = self._sum_composers(self._active_composers())
        total[:, 0] += self._rotor_wrench_w()
        torch_view(self._wrench_buffer)[self._binding.body_indices] = total
        self._instantaneous_wrench_composer.reset()

    def _rotor_wrench_w(self) -> torch.Tensor:
        """The rotors' wrench (force [N], torque [N m]) at the root body's CoM in the world frame, shape (N, 6)."""
        wrench_b = self._data.thrust.torch @ self._allocation.T
        force_b = wrench_b[:, :3]
        com_b = self._data.body_com_pos_b.torch[:, 0]
        torque_b = wrench_b[:, 3:] - torch.cross(com_b, force_b, dim=-1)
        quat = self._data.root_link_quat_w.torch
        return torch.cat((quat_apply(quat, force_b), quat_apply(quat, torque_b)), -1)

    # -- setup -----------------------------------------------------------------------------------------

    def _initialize_impl(self) -> None:
        super()._initialize_impl()
        wrench = self._external_wrench()
        if wrench is None:
            raise RuntimeError(
                f"Multirotor {self.cfg.prim_path!r}: {type(NewtonManager.get_solver()).__name__} ignores external"
                " wrenches, so thrust cannot act; pick a solver that reads State.body_f (MuJoCo Warp, XPBD)."
            )
        self._wrench_buffer = wrench

    def _joint_actuator_cfgs(self) -> dict:
        """The actuator groups that are not thrusters (joint actuators)."""
        return {k: v for k, v in self.cfg.actuators.items() if not isinstance(v, ThrusterCfg)}

    def _process_actuators_cfg(self) -> None:
        self._process_thrusters()
        super()._process_actuators_cfg()

    def _process_thrusters(self) -> None:
        groups = {k: v for k, v in self.cfg.actuators.items() if isinstance(v, ThrusterCfg)}
        if not groups:
            raise ValueError(
                f"MultirotorCfg.actuators of {self.cfg.prim_path!r} holds no ThrusterCfg group; add one naming the"
                " rotor bodies in thruster_names_expr."
            )
        physics_dt = NewtonManager.get_physics_dt()
        body_ids: list[int] = []
        for name, cfg in groups.items():
            if abs(cfg.dt - physics_dt) > _DT_TOLERANCE:
                raise ValueError(
                    f"ThrusterCfg.dt of group {name!r} is {cfg.dt} s but the physics step is {physics_dt} s; set"
                    f" actuators[{name!r}].dt = sim.dt."
                )
            ids, found = resolve_matching_names(cfg.thruster_names_expr, self.body_names, preserve_order=True)
            start = len(self._thruster_names)
            self._thruster_cols[name] = torch.arange(start, start + len(found), device=self.device)
            self._thruster_names += found
            body_ids += ids
        if len(set(self._thruster_names)) != len(self._thruster_names):
            raise ValueError(f"Thruster groups of {self.cfg.prim_path!r} share rotors: {self._thruster_names}.")
        count = self.num_thrusters
        self._thruster_index = IndexResolver(count, self.device, what=f"{type(self).__name__} thruster_ids")
        self._data.allocate_thrusters(count)
        default = self._data.default_rotor_speed.torch
        ids, _, values = resolve_matching_names_values(self.cfg.init_state.rps, self._thruster_names)
        default[:, ids] = torch.tensor(values, dtype=torch.float32, device=self.device)
        for name, cfg in groups.items():
            cols = self._thruster_cols[name]
            self._thrusters[name] = cfg.class_type(
                cfg,
                thruster_names=[self._thruster_names[c] for c in cols.tolist()],
                default_rotor_speed=default[:, cols],
            )
        ratios = torch.zeros(count, device=self.device)
        for name, cfg in groups.items():
            ratios[self._thruster_cols[name]] = float(cfg.torque_to_thrust_ratio)
        self._directions = self._resolve_directions(count)
        self._allocation = self._resolve_allocation(body_ids, ratios * self._directions)
        self._allocation_pinv = torch.linalg.pinv(self._allocation)
        self._reset_thrusters(self._all_true_envs)

    def _resolve_directions(self, count: int) -> torch.Tensor:
        directions = self.cfg.rotor_directions
        if directions is None:
            return torch.ones(count, device=self.device)
        if len(directions) != count or any(d not in (1, -1) for d in directions):
            raise ValueError(
                f"MultirotorCfg.rotor_directions = {directions} must hold +1 or -1 for each of the {count} thrusters"
                f" {self._thruster_names}."
            )
        return torch.tensor(directions, dtype=torch.float32, device=self.device)

    def _resolve_allocation(self, body_ids: list[int], yaw_per_thrust: torch.Tensor) -> torch.Tensor:
        """The configured allocation matrix (checked), or one derived from the rotor bodies' positions."""
        count = len(body_ids)
        if self.cfg.allocation_matrix is None:
            pose = self._data.body_link_pose_w.torch[0]
            arm = quat_apply_inverse(pose[0:1, 3:].expand(count, 4), pose[body_ids, :3] - pose[0:1, :3])
            matrix = torch.zeros((6, count), device=self.device)
            matrix[2] = 1.0
            matrix[3], matrix[4], matrix[5] = arm[:, 1], -arm[:, 0], yaw_per_thrust
            return matrix
        matrix = torch.tensor(self.cfg.allocation_matrix, dtype=torch.float32, device=self.device)
        if matrix.shape != (6, count):
            raise ValueError(
                f"MultirotorCfg.allocation_matrix has shape {tuple(matrix.shape)}; it needs (6, {count}): one column"
                f" per thruster {self._thruster_names} matched by thruster_names_expr."
            )
        if not torch.allclose(matrix[5], yaw_per_thrust, atol=1e-6):
            raise ValueError(
                f"MultirotorCfg.allocation_matrix yaw row {matrix[5].tolist()} differs from rotor_directions *"
                f" torque_to_thrust_ratio = {yaw_per_thrust.tolist()}; make them agree."
            )
        return matrix
