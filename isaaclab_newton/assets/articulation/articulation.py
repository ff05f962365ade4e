"""Isaac Lab ``Articulation`` on Newton: one articulation replicated over N worlds."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import newton
import numpy as np
import torch
import warp as wp
from isaaclab.assets.articulation.base_articulation import BaseArticulation
from isaaclab.utils.string import resolve_matching_names, resolve_matching_names_values
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..binding import ArticulationBinding, torch_view
from ..body_properties import BodyPropertyWrites
from ..index_cache import IndexResolver
from ..newton_asset import Ids, NewtonAssetMixin
from ..state_writes import EntryTable, write_joint_values
from ..unsupported import mark_unsupported
from .actuator_control import NewtonActuatorCollection, NewtonArticulationActuatorControl
from .actuator_resets import groups_rebinding_state, index_only_groups, reset_groups_by_mask
from .articulation_data import ArticulationData
from .tendon_writes import FixedTendonWritesMixin

if TYPE_CHECKING:
    from isaaclab.assets.articulation.articulation_cfg import ArticulationCfg

logger = logging.getLogger(__name__)


class Articulation(FixedTendonWritesMixin, BodyPropertyWrites, NewtonAssetMixin, BaseArticulation):
    """An articulation in every environment, simulated by Newton.

    Joint state and targets map onto ``State.joint_q/joint_qd`` and ``Control``; root writes change the free
    root joint's coordinates (floating base) or the fixed root joint's parent frame (fixed base); per-env
    resets reset the solver internals of the env's world through :meth:`NewtonManager.request_world_reset`.
    Root writes, resets and external wrenches (the permanent and instantaneous wrench composers) come from
    :class:`~isaaclab_newton.assets.newton_asset.NewtonAssetMixin`.
    """

    cfg: ArticulationCfg

    _data_class: type[ArticulationData] = ArticulationData
    """Data class built at initialization (subclasses with extra buffers replace it)."""

    def __init__(self, cfg: ArticulationCfg):
        super().__init__(cfg)
        self._data: ArticulationData | None = None
        self._binding: ArticulationBinding | None = None

    # -- properties ------------------------------------------------------------------------------------

    @property
    def data(self) -> ArticulationData:
        """Runtime data (valid after ``sim.reset()``)."""
        return self._data

    @property
    def num_instances(self) -> int:
        """Number of environments holding this articulation."""
        return self._binding.num_instances

    @property
    def is_fixed_base(self) -> bool:
        """Whether the root is fixed to the world."""
        return self._binding.is_fixed_base

    @property
    def num_joints(self) -> int:
        """Number of (one-DOF) joints below the root."""
        return len(self._binding.joint_names)

    @property
    def num_bodies(self) -> int:
        """Number of bodies (links)."""
        return len(self._binding.body_names)

    @property
    def num_spatial_tendons(self) -> int:
        """Spatial tendons are not imported into Articulation yet: always 0."""
        return 0

    @property
    def spatial_tendon_names(self) -> list[str]:
        """Empty: spatial tendons are not imported into Articulation yet."""
        return []

    @property
    def backend_joint_names(self) -> list[str]:
        """Joint names in Newton order."""
        return list(self._binding.joint_names)

    @property
    def backend_body_names(self) -> list[str]:
        """Body names in Newton order."""
        return list(self._binding.body_names)

    # -- finders ---------------------------------------------------------------------------------------

    def find_joints(
        self,
        name_keys: str | Sequence[str],
        joint_subset: list[str] | None = None,
        preserve_order: bool = False,
        *,
        as_proxy: bool = False,
    ) -> tuple[list[int] | ProxyArray, list[str]]:
        """Find joints by regular expressions (see :func:`isaaclab.utils.string.resolve_matching_names`)."""
        names = self.joint_names if joint_subset is None else joint_subset
        ids, found = resolve_matching_names(name_keys, names, preserve_order)
        return (self._proxy_ids(ids) if as_proxy else ids), found

    def find_bodies(
        self, name_keys: str | Sequence[str], preserve_order: bool = False, *, as_proxy: bool = False
    ) -> tuple[list[int] | ProxyArray, list[str]]:
        """Find bodies by regular expressions."""
        ids, found = resolve_matching_names(name_keys, self.body_names, preserve_order)
        return (self._proxy_ids(ids) if as_proxy else ids), found

    def _proxy_ids(self, ids: list[int]) -> ProxyArray:
        return ProxyArray(wp.array(np.asarray(ids, dtype=np.int32), dtype=wp.int32, device=self.device))

    # -- lifecycle -------------------------------------------------------------------------------------

    def reset(self, env_ids: Ids = None, env_mask: wp.array | None = None) -> None:
        """Reset actuator state, clear external wrenches and reset the solver internals of the envs' worlds.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments (alternative to ``env_ids``).
        """
        rows, mask = self._rows(env_ids, env_mask)
        if mask is None:
            self.actuators.reset(rows)
        else:
            reset_groups_by_mask(self.actuators, mask)
        self._reset_worlds(rows, mask)

    def actuator_groups_reset_by_index(self) -> list[str]:
        """Actuator groups whose per-env state resets by env index only: a reset by mask reads the mask on the host."""
        return index_only_groups(self.actuators)

    def actuator_groups_rebinding_state(self) -> list[str]:
        """Actuator groups whose compute binds new per-env state tensors each physics step (not replayable)."""
        return groups_rebinding_state(self.actuators)

    def write_data_to_sim(self) -> None:
        """Run the actuator models, submit their commands into ``Control`` and apply the composed wrenches."""
        self.actuators.compute(NewtonManager.get_physics_dt())
        self.actuators.submit_commands()
        self._apply_wrenches()

    def update(self, dt: float) -> None:
        """Refresh data buffers after a physics step of ``dt`` [s]."""
        self._data.update(dt)

    def _initialize_impl(self) -> None:
        self._binding = ArticulationBinding(self.cfg.prim_path, self.device)
        self._data = self._data_class(None, self.device, self._binding)
        self._joint_tables: dict[int, EntryTable] = {}  # by id of the binding's index tensor (coords, dofs)
        self._joint_index = IndexResolver(self.num_joints, self.device, what=f"{type(self).__name__} joint_ids")
        self._all_joints = self._joint_index.all_ids_torch
        self._all_true_envs = torch.ones(self._binding.num_instances, dtype=torch.bool, device=self.device)
        self._init_common()
        self._validate_cfg()
        self._resolve_and_install_ordering_maps()
        self._process_cfg()
        self._process_tendons()  # before the actuators: core's actuator checks read the tendon count
        self._process_actuators_cfg()
        self._create_buffers()
        self._log_articulation_info()

    def _create_buffers(self) -> None:
        """All buffers live on :class:`ArticulationData`; nothing else to allocate."""

    def _validate_cfg(self) -> None:
        if self.cfg.joint_ordering is not None or self.cfg.body_ordering is not None:
            raise NotImplementedError(
                "Articulation.joint_ordering/body_ordering are not supported by the Newton backend yet; leave them"
                " None (Newton order)."
            )

    def _process_cfg(self) -> None:
        """Write the configuration's initial state into the default buffers."""
        init = self.cfg.init_state
        pose = torch.tensor((*init.pos, *init.rot), dtype=torch.float32, device=self.device)
        vel = torch.tensor((*init.lin_vel, *init.ang_vel), dtype=torch.float32, device=self.device)
        self._data.set_default_root_state(pose, vel)
        for key, name in (("joint_pos", "default_joint_pos"), ("joint_vel", "default_joint_vel")):
            values = getattr(init, key)
            if not values or not self.num_joints:
                continue
            ids, _, vals = resolve_matching_names_values(values, self.joint_names)
            self._data._tensor(name)[:, ids] = torch.tensor(vals, dtype=torch.float32, device=self.device)
        self._data.soft_joint_pos_limit_factor = float(self.cfg.soft_joint_pos_limit_factor)
        self._data.update_soft_joint_pos_limits()
        self._write_defaults_to_model()

    def _write_defaults_to_model(self) -> None:
        """Make the configured initial joint state the model's (and current state's) joint state.

        Solvers restore ``Model.joint_q/joint_qd`` on per-world resets, so the model must hold the defaults.
        """
        model, state = NewtonManager.get_model(), NewtonManager.get_state_0()
        bind = self._binding
        pos, vel = self._data.default_joint_pos.torch, self._data.default_joint_vel.torch
        for q_array in (model.joint_q, state.joint_q):
            torch_view(q_array)[bind.coord_indices] = pos
        for qd_array in (model.joint_qd, state.joint_qd):
            torch_view(qd_array)[bind.dof_indices] = vel
        NewtonManager.note_state_write(self._articulations_wp)  # every env's articulation: FK queued, reads stale

    def _process_actuators_cfg(self) -> None:
        control = NewtonArticulationActuatorControl(self)
        self.actuators = NewtonActuatorCollection(
            self._joint_actuator_cfgs(),
            control,
            debug_value_resolution=bool(self.cfg.actuator_value_resolution_debug_print),
        )
        self._data.bind_actuator_collection(self.actuators)
        self._sync_target_modes()
        # One compute publishes the actuators' velocity limits (data.soft_joint_vel_limits) before the first
        # step: env resets clamp sampled joint velocities to them.
        self.actuators.compute(0.0)
        explicit = sorted(
            name
            for name, cfg in self._joint_actuator_cfgs().items()
            if not getattr(cfg.class_type, "is_implicit_model", False)
        )
        if explicit:
            # explicit models compute efforts from the joint state of every physics step, between the steps
            NewtonManager.note_eager_actuators(self.cfg.prim_path, f"explicit actuator groups {explicit}")

    def _joint_actuator_cfgs(self) -> dict:
        """The actuator groups that drive joints (all of ``cfg.actuators`` here)."""
        return self.cfg.actuators

    def _log_articulation_info(self) -> None:
        logger.info(
            "Newton articulation %s: %d envs, joints %s, bodies %s, fixed base %s",
            self.cfg.prim_path,
            self.num_instances,
            self.joint_names,
            self.body_names,
            self.is_fixed_base,
        )

    def _invalidate_initialize_callback(self, event: Any) -> None:
        self._is_initialized = False

    # -- index resolution (also used by core's ArticulationActuatorControl) ---------------------------------

    def _resolve_joint_ids(self, joint_ids: Ids) -> wp.array:
        """Joint selector as an int32 Warp array; conversions of repeated selectors are cached."""
        return self._joint_index.resolve(joint_ids)

    def _joint_rows(self, env_ids: Ids, joint_ids: Ids, env_mask, joint_mask):
        """(rows, cols, element mask) of a joint write; the element mask is ``None`` on the index path."""
        if env_mask is None and joint_mask is None:
            return self._env_index.resolve_torch(env_ids), self._joint_index.resolve_torch(joint_ids), None
        rows, cols = self._all_envs, self._all_joints
        elem = torch.ones((rows.shape[0], cols.shape[0]), dtype=torch.bool, device=self.device)
        if env_mask is not None:
            elem = elem & self._rows(None, env_mask)[1][:, None]
        if joint_mask is not None:
            elem = elem & self._bool_tensor(joint_mask, cols.shape[0], "joint_mask")[None, :]
        return rows, cols, elem

    # -- joint state writes ------------------------------------------------------------------------------
    # A write queues the FK of the written worlds (masked; it runs before the next step or body read) and marks
    # cached data stale; ``skip_forward=True`` does neither (see the root writes of NewtonAssetMixin).

    def _joint_value(self, value, rows: torch.Tensor, cols: torch.Tensor, name: str, where: str, *, trailing=()):
        """A joint write's value checked to (len(rows), len(cols), *trailing); mask writes pass all rows and cols."""
        return self._checked(value, (rows.shape[0], cols.shape[0], *trailing), name, where)

    def _write_joint_array(
        self,
        array: wp.array,
        indices: torch.Tensor,
        value,
        *,
        env_ids: Ids = None,
        joint_ids: Ids = None,
        env_mask=None,
        joint_mask=None,
        name: str,
        where: str,
        skip_forward: bool,
    ) -> None:
        """Write ``value`` into ``array`` at the selected envs' and joints' entries (``indices``, coords or dofs)."""
        table = self._joint_tables.get(id(indices))
        if table is None:
            table = self._joint_tables[id(indices)] = EntryTable.from_indices(indices)
        fk = None if skip_forward else self._fk_marks()
        if env_mask is None and joint_mask is None:
            rows = self._env_index.resolve_torch(env_ids)
            cols = self._joint_index.resolve_torch(joint_ids)
            value = self._joint_value(value, rows, cols, name, where)
            write_joint_values(
                table,
                value,
                array,
                rows=None if rows is self._all_envs else rows,
                cols=None if cols is self._all_joints else cols,
                fk=fk,
            )
        else:
            row_mask = None if env_mask is None else self._rows(None, env_mask)[1]
            col_mask = (
                None if joint_mask is None else self._bool_tensor(joint_mask, self._all_joints.shape[0], "joint_mask")
            )
            value = self._joint_value(value, self._all_envs, self._all_joints, name, where)
            write_joint_values(table, value, array, row_mask=row_mask, col_mask=col_mask, fk=fk)
        if not skip_forward:
            NewtonManager.note_state_write(fk_queued=True)

    def write_joint_position_to_sim_index(
        self, *, position, joint_ids: Ids = None, env_ids: Ids = None, skip_forward: bool = False
    ) -> None:
        """Write joint positions [m or rad] of the selected envs/joints into the simulation state."""
        self._write_joint_array(
            NewtonManager.get_state_0().joint_q,
            self._binding.coord_indices,
            position,
            env_ids=env_ids,
            joint_ids=joint_ids,
            name="position",
            where="write_joint_position_to_sim_index",
            skip_forward=skip_forward,
        )

    def write_joint_position_to_sim_mask(self, *, position, joint_mask=None, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_joint_position_to_sim_index` (full-sized ``position``)."""
        self._write_joint_array(
            NewtonManager.get_state_0().joint_q,
            self._binding.coord_indices,
            position,
            env_mask=env_mask,
            joint_mask=joint_mask,
            name="position",
            where="write_joint_position_to_sim_mask",
            skip_forward=skip_forward,
        )

    def write_joint_velocity_to_sim_index(
        self, *, velocity, joint_ids: Ids = None, env_ids: Ids = None, skip_forward: bool = False
    ) -> None:
        """Write joint velocities [m/s or rad/s] of the selected envs/joints into the simulation state."""
        self._write_joint_array(
            NewtonManager.get_state_0().joint_qd,
            self._binding.dof_indices,
            velocity,
            env_ids=env_ids,
            joint_ids=joint_ids,
            name="velocity",
            where="write_joint_velocity_to_sim_index",
            skip_forward=skip_forward,
        )

    def write_joint_velocity_to_sim_mask(self, *, velocity, joint_mask=None, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_joint_velocity_to_sim_index` (full-sized ``velocity``)."""
        self._write_joint_array(
            NewtonManager.get_state_0().joint_qd,
            self._binding.dof_indices,
            velocity,
            env_mask=env_mask,
            joint_mask=joint_mask,
            name="velocity",
            where="write_joint_velocity_to_sim_mask",
            skip_forward=skip_forward,
        )

    def write_joint_state_to_sim_index(
        self, *, position, velocity, joint_ids: Ids = None, env_ids: Ids = None, skip_forward: bool = False
    ) -> None:
        """Write joint positions [m or rad] and velocities [m/s or rad/s] of the selected envs/joints."""
        self.write_joint_position_to_sim_index(
            position=position, joint_ids=joint_ids, env_ids=env_ids, skip_forward=True
        )
        self.write_joint_velocity_to_sim_index(
            velocity=velocity, joint_ids=joint_ids, env_ids=env_ids, skip_forward=skip_forward
        )

    def write_joint_state_to_sim(self, position, velocity, joint_ids=None, env_ids=None) -> None:
        """Write joint positions and velocities (deprecated core signature)."""
        self.write_joint_position_to_sim_index(
            position=position, joint_ids=joint_ids, env_ids=env_ids, skip_forward=True
        )
        self.write_joint_velocity_to_sim_index(velocity=velocity, joint_ids=joint_ids, env_ids=env_ids)

    # -- joint property writes -------------------------------------------------------------------------------

    def _write_property(
        self,
        buf: str,
        arrays: tuple,
        value,
        joint_ids,
        env_ids,
        *,
        name: str,
        where: str,
        env_mask=None,
        joint_mask=None,
        flag=None,
    ) -> None:
        rows, cols, elem = self._joint_rows(env_ids, joint_ids, env_mask, joint_mask)
        rr, cc = rows[:, None], cols[None, :]
        data = self._data._tensor(buf)
        value = self._joint_value(value, rows, cols, name, where)
        data[rr, cc] = value if elem is None else torch.where(elem, value, data[rr, cc])
        dofs = self._binding.dof_indices[rr, cc]
        for array in arrays:
            torch_view(array)[dofs] = data[rr, cc]
        solver = NewtonManager.get_solver()
        if solver is not None and flag is not None:
            solver.notify_model_changed(flag)
        NewtonManager.note_state_write()

    def _prop_writer(buf: str, attr: str, kw: str, flag_name: str, doc: str):  # noqa: N805
        def index(self, *, joint_ids: Ids = None, env_ids: Ids = None, **kwargs) -> None:
            model = NewtonManager.get_model()
            self._write_property(
                buf,
                (getattr(model, attr),),
                kwargs[kw],
                joint_ids,
                env_ids,
                name=kw,
                where=f"write_{buf}_to_sim_index",
                flag=getattr(newton.ModelFlags, flag_name),
            )
            if buf in ("joint_stiffness", "joint_damping"):
                self._sync_target_modes()

        def mask(self, *, joint_mask=None, env_mask=None, **kwargs) -> None:
            model = NewtonManager.get_model()
            self._write_property(
                buf,
                (getattr(model, attr),),
                kwargs[kw],
                None,
                None,
                name=kw,
                where=f"write_{buf}_to_sim_mask",
                env_mask=env_mask if env_mask is not None else self._all_true_envs,
                joint_mask=joint_mask,
                flag=getattr(newton.ModelFlags, flag_name),
            )
            if buf in ("joint_stiffness", "joint_damping"):
                self._sync_target_modes()

        index.__doc__ = f"Write {doc} for the selected envs/joints (keyword ``{kw}``)."
        mask.__doc__ = f"Mask variant: write {doc} (full-sized keyword ``{kw}``)."
        return index, mask

    write_joint_stiffness_to_sim_index, write_joint_stiffness_to_sim_mask = _prop_writer(
        "joint_stiffness", "joint_target_ke", "stiffness", "JOINT_DOF_PROPERTIES", "drive stiffness [N/m, N m/rad]"
    )
    write_joint_damping_to_sim_index, write_joint_damping_to_sim_mask = _prop_writer(
        "joint_damping", "joint_target_kd", "damping", "JOINT_DOF_PROPERTIES", "drive damping [N s/m, N m s/rad]"
    )
    write_joint_armature_to_sim_index, write_joint_armature_to_sim_mask = _prop_writer(
        "joint_armature", "joint_armature", "armature", "JOINT_DOF_PROPERTIES", "armature [kg, kg m^2]"
    )
    write_joint_effort_limit_to_sim_index, write_joint_effort_limit_to_sim_mask = _prop_writer(
        "joint_effort_limits", "joint_effort_limit", "limits", "JOINT_DOF_PROPERTIES", "effort limits [N, N m]"
    )
    write_joint_velocity_limit_to_sim_index, write_joint_velocity_limit_to_sim_mask = _prop_writer(
        "joint_vel_limits", "joint_velocity_limit", "limits", "JOINT_DOF_PROPERTIES", "velocity limits"
    )
    del _prop_writer

    def write_joint_friction_coefficient_to_sim_index(
        self,
        *,
        joint_friction_coeff,
        joint_dynamic_friction_coeff=None,
        joint_viscous_friction_coeff=None,
        joint_ids: Ids = None,
        env_ids: Ids = None,
    ) -> None:
        """Write joint friction (Newton ``joint_friction``) and, where given, viscous friction (Newton's passive
        ``joint_damping``); Newton has no separate dynamic friction, so that part must be zero or None."""
        self._write_friction(
            joint_friction_coeff, joint_dynamic_friction_coeff, joint_viscous_friction_coeff, joint_ids, env_ids
        )

    def write_joint_friction_coefficient_to_sim_mask(
        self,
        *,
        joint_friction_coeff,
        joint_dynamic_friction_coeff=None,
        joint_viscous_friction_coeff=None,
        joint_mask=None,
        env_mask=None,
    ) -> None:
        """Mask variant of :meth:`write_joint_friction_coefficient_to_sim_index`."""
        env_mask = env_mask if env_mask is not None else self._all_true_envs
        self._write_friction(
            joint_friction_coeff,
            joint_dynamic_friction_coeff,
            joint_viscous_friction_coeff,
            None,
            None,
            env_mask=env_mask,
            joint_mask=joint_mask,
        )

    def _write_friction(self, coulomb, dynamic, viscous, joint_ids, env_ids, **masks) -> None:
        if isinstance(dynamic, torch.Tensor) and bool(torch.any(dynamic != 0)):
            raise NotImplementedError("Newton has no separate dynamic joint friction; pass zeros or None.")
        model = NewtonManager.get_model()
        where = "write_joint_friction_coefficient_to_sim_" + ("index" if not masks else "mask")
        for buf, array, value in (
            ("joint_friction_coeff", model.joint_friction, coulomb),
            ("joint_viscous_friction_coeff", model.joint_damping, viscous),
        ):
            if value is not None:
                flag = newton.ModelFlags.JOINT_DOF_PROPERTIES
                self._write_property(
                    buf, (array,), value, joint_ids, env_ids, name=buf, where=where, flag=flag, **masks
                )

    def write_joint_position_limit_to_sim_index(
        self, *, limits, joint_ids: Ids = None, env_ids: Ids = None, warn_limit_violation: bool = True
    ) -> None:
        """Write joint position limits (lower, upper) [m or rad], shape (envs, joints, 2)."""
        rows, cols, elem = self._joint_rows(env_ids, joint_ids, None, None)
        where = "write_joint_position_limit_to_sim_index"
        self._write_limits(self._joint_value(limits, rows, cols, "limits", where, trailing=(2,)), rows, cols, elem)

    def write_joint_position_limit_to_sim_mask(
        self, *, limits, joint_mask=None, env_mask=None, warn_limit_violation: bool = True
    ) -> None:
        """Mask variant of :meth:`write_joint_position_limit_to_sim_index`."""
        env_mask = env_mask if env_mask is not None else self._all_true_envs
        rows, cols, elem = self._joint_rows(None, None, env_mask, joint_mask)
        where = "write_joint_position_limit_to_sim_mask"
        self._write_limits(self._joint_value(limits, rows, cols, "limits", where, trailing=(2,)), rows, cols, elem)

    def _write_limits(
        self, limits: torch.Tensor, envs: torch.Tensor, joints: torch.Tensor, elem: torch.Tensor | None
    ) -> None:
        rows, cols = envs[:, None], joints[None, :]
        current = self._data._tensor("joint_pos_limits")
        current[rows, cols] = limits if elem is None else torch.where(elem[..., None], limits, current[rows, cols])
        model = NewtonManager.get_model()
        dofs = self._binding.dof_indices[rows, cols]
        torch_view(model.joint_limit_lower)[dofs] = self._data._tensor("joint_pos_limits")[rows, cols, 0]
        torch_view(model.joint_limit_upper)[dofs] = self._data._tensor("joint_pos_limits")[rows, cols, 1]
        self._data.update_soft_joint_pos_limits()
        solver = NewtonManager.get_solver()
        if solver is not None:
            solver.notify_model_changed(newton.ModelFlags.JOINT_DOF_PROPERTIES)

    def _sync_target_modes(self) -> None:
        """Set ``Model.joint_target_mode``: position+velocity drives where gains are set, effort elsewhere.

        The MuJoCo solver creates its actuators from these modes when it is built (after PHYSICS_READY); a joint
        that gains its first non-zero gain after ``sim.reset()`` gets a drive only after the next hard reset.
        """
        model = NewtonManager.get_model()
        if model.joint_target_mode is None:
            return
        gains = (self._data._tensor("joint_stiffness") != 0) | (self._data._tensor("joint_damping") != 0)
        modes = torch.where(
            gains,
            int(newton.JointTargetMode.POSITION_VELOCITY),
            int(newton.JointTargetMode.EFFORT),
        ).to(torch.int32)
        torch_view(model.joint_target_mode)[self._binding.dof_indices] = modes


mark_unsupported(Articulation, sorted(BaseArticulation.__abstractmethods__))
