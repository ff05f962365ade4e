"""Contact sensor reading Newton's CONTACT_F solver observable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import warp as wp
from isaaclab.sensors.contact_sensor.base_contact_sensor import BaseContactSensor
from isaaclab.utils.warp import ProxyArray

from ...physics.newton_manager import NewtonManager
from ..body_lookup import select_env_body_union
from ..reset_kernels import clear_envs
from . import contact_kernels as k
from .contact_sensor_data import ContactSensorData

if TYPE_CHECKING:
    from isaaclab.sensors import ContactSensorCfg

_KINDS = frozenset({"contact_f"})
_DEFAULT_FORCE_THRESHOLD = 1.0
"""Contact/air-time threshold on the net force norm [N] when ``ContactSensorCfg.force_threshold`` is None."""


class ContactSensor(BaseContactSensor):
    """Net and filtered contact forces on the bodies matched by ``cfg.prim_path``, one set per environment.

    Forces come from the solver's ``contact_f`` observable of the final substep of each physics step (rigid
    contact rows), summed per body and split into the part along the contact normal and the tangential
    (friction) part. ``filter_prim_paths_expr`` selects partner bodies in the same environment; each matched
    partner body is one column of the force matrices. Contacts with static shapes (the ground) count in the
    net forces only.
    """

    __backend_name__: str = "newton"

    def __init__(self, cfg: ContactSensorCfg):
        """Create the sensor and request ``contact_f`` from the manager.

        Args:
            cfg: The contact sensor configuration.

        Raises:
            NotImplementedError: For contact points and shape-level sensing/filtering, not supported yet.
        """
        super().__init__(cfg)  # first: core's finalizer expects its callback handles, also after a refusal
        if cfg.track_contact_points:
            raise NotImplementedError(
                "ContactSensorCfg.track_contact_points is not supported by the Newton backend yet."
            )
        if cfg.sensor_shape_prim_expr or cfg.filter_shape_prim_expr:
            raise NotImplementedError(
                "Shape-level contact sensing (sensor_shape_prim_expr / filter_shape_prim_expr) is not supported yet;"
                " use body-level prim_path / filter_prim_paths_expr."
            )
        NewtonManager.request_observables(_KINDS)
        self._data: ContactSensorData | None = None
        self._body_names: list[str] = []

    # -- properties --------------------------------------------------------------------------------

    @property
    def num_instances(self) -> int:
        """Number of environments."""
        return self._num_envs

    @property
    def data(self) -> ContactSensorData:
        """The latest contact data."""
        self._update_outdated_buffers()
        return self._data

    @property
    def num_sensors(self) -> int:
        """Number of sensor bodies per environment."""
        return len(self._body_names)

    @property
    def body_names(self) -> list[str]:
        """Names of the sensor bodies."""
        return list(self._body_names)

    @property
    def contact_view(self) -> None:
        """The Newton backend has no separate contact view; forces come from the solver observables."""
        return None

    # -- operations --------------------------------------------------------------------------------

    def reset(self, env_ids: Sequence[int] | None = None, env_mask: wp.array | None = None):
        """Clear forces, histories and air/contact times of the given environments until the next physics step."""
        super().reset(env_ids, env_mask)
        if self._data is None:
            return
        mask = self._resolve_indices_and_mask(env_ids, env_mask)
        shape = (self._num_envs, self.num_sensors)
        for net, hist in zip(self._data._net, self._data._net_hist, strict=True):
            wp.launch(k.reset_envs, dim=shape, inputs=[mask, net, hist], device=self._device)
        if self._data._matrix is not None:
            wp.launch(
                k.zero_matrix, dim=self._data._matrix[0].shape, inputs=[mask, *self._data._matrix], device=self._device
            )
            for hist in self._data._matrix_hist:
                hist_torch = wp.to_torch(hist)
                keep = wp.to_torch(mask).reshape(-1, *([1] * (hist_torch.dim() - 1)))
                hist_torch.masked_fill_(keep, 0.0)
        if self._data._times is not None:
            for times in self._data._times:
                wp.launch(k.reset_times, dim=shape, inputs=[mask, times], device=self._device)
        # Keep the cleared values until the next physics step: recomputing now would read pre-reset contacts.
        clear_envs(mask, self._is_outdated, ())

    def compute_first_contact(self, dt: float, abs_tol: float | None = None) -> ProxyArray:
        """Bodies that made contact within the last ``dt`` seconds (needs ``track_air_time``)."""
        return self._first_transition(2, "compute_first_contact", dt, abs_tol)

    def compute_first_air(self, dt: float, abs_tol: float | None = None) -> ProxyArray:
        """Bodies that lost contact within the last ``dt`` seconds (needs ``track_air_time``)."""
        return self._first_transition(0, "compute_first_air", dt, abs_tol)

    # -- implementation ----------------------------------------------------------------------------

    def _initialize_impl(self):
        super()._initialize_impl()
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("ContactSensor initialization needs a finalized Newton model (PHYSICS_READY).")
        bodies, self._body_names = select_env_body_union(
            [self.cfg.prim_path], self._num_envs, what="ContactSensorCfg.prim_path"
        )
        filters = None
        if self.cfg.filter_prim_paths_expr:
            filters, _ = select_env_body_union(
                list(self.cfg.filter_prim_paths_expr), self._num_envs, what="ContactSensorCfg.filter_prim_paths_expr"
            )
        self._bodies = wp.array(bodies, dtype=wp.int32, device=self._device)
        sensor_slot = np.full(model.body_count, -1, dtype=np.int32)
        sensor_slot[bodies] = np.broadcast_to(np.arange(bodies.shape[1], dtype=np.int32), bodies.shape)
        filter_slot = np.full(model.body_count, -1, dtype=np.int32)
        if filters is not None:
            filter_slot[filters] = np.broadcast_to(np.arange(filters.shape[1], dtype=np.int32), filters.shape)
        self._sensor_slot = wp.array(sensor_slot, dtype=wp.int32, device=self._device)
        self._filter_slot = wp.array(filter_slot, dtype=wp.int32, device=self._device)
        body_env = np.full(model.body_count, -1, dtype=np.int32)
        envs = np.arange(self._num_envs, dtype=np.int32)[:, None]
        for rows in (bodies, filters) if filters is not None else (bodies,):
            body_env[rows] = np.broadcast_to(envs, rows.shape)
        self._body_env = wp.array(body_env, dtype=wp.int32, device=self._device)
        self._num_filters = 0 if filters is None else int(filters.shape[1])
        self._create_buffers()

    def _create_buffers(self):
        self._data = ContactSensorData(
            self._num_envs,
            self.num_sensors,
            self._num_filters,
            self.cfg.history_length,
            self._device,
            track_pose=self.cfg.track_pose,
            track_air_time=self.cfg.track_air_time,
        )
        self._first = wp.zeros((self._num_envs, self.num_sensors), dtype=wp.bool, device=self._device)
        self._first_proxy = ProxyArray(self._first)

    def _update_buffers_impl(self, env_mask: wp.array | None):
        if env_mask is None:
            env_mask = self._ALL_ENV_MASK
        observables = NewtonManager.get_observables()
        contacts = None if observables is None else observables.contacts
        if observables is None or observables.contact_f is None or contacts is None:
            raise RuntimeError(
                "The ContactSensor needs the 'contact_f' observable but the manager allocated none; create the sensor"
                " before sim.reset() so its request reaches the solver."
            )
        data = self._data
        shape = (self._num_envs, self.num_sensors)
        wp.launch(k.zero_current, dim=shape, inputs=[env_mask, *data._net], device=self._device)
        matrices = data._matrix if data._matrix is not None else [_EMPTY3(self._device)] * 3
        if data._matrix is not None:
            wp.launch(k.zero_matrix, dim=data._matrix[0].shape, inputs=[env_mask, *data._matrix], device=self._device)
        model = NewtonManager.get_model()
        wp.launch(
            k.accumulate_contacts,
            dim=contacts.rigid_contact_max,
            inputs=[
                env_mask,
                contacts.rigid_contact_count,
                contacts.rigid_contact_shape0,
                contacts.rigid_contact_shape1,
                contacts.rigid_contact_normal,
                observables.contact_f,
                model.shape_body,
                self._body_env,
                self._sensor_slot,
                self._filter_slot,
                int(data._matrix is not None),
            ],
            outputs=[*data._net, *matrices],
            device=self._device,
        )
        for net, hist in zip(data._net, data._net_hist, strict=True):
            wp.launch(k.push_history, dim=shape, inputs=[env_mask, net, hist], device=self._device)
        if data._matrix is not None:
            for mat, hist in zip(data._matrix, data._matrix_hist, strict=True):
                wp.launch(k.push_matrix_history, dim=mat.shape, inputs=[env_mask, mat, hist], device=self._device)
        if data._pos is not None:
            state = NewtonManager.get_state_0()
            wp.launch(
                k.sensor_poses,
                dim=shape,
                inputs=[env_mask, self._bodies, state.body_q, data._pos, data._quat],
                device=self._device,
            )
        if data._times is not None:
            threshold = self.cfg.force_threshold if self.cfg.force_threshold is not None else _DEFAULT_FORCE_THRESHOLD
            wp.launch(
                k.update_air_time,
                dim=shape,
                inputs=[env_mask, self._timestamp, self._timestamp_last_update, data._net[0], float(threshold)],
                outputs=data._times,
                device=self._device,
            )

    def _first_transition(self, index: int, name: str, dt: float, abs_tol: float | None) -> ProxyArray:
        if not self.cfg.track_air_time:
            raise RuntimeError(f"{name}() needs ContactSensorCfg(track_air_time=True).")
        self._update_outdated_buffers()
        window = float(dt) + self._resolve_first_transition_tolerance(abs_tol)
        wp.launch(
            k.first_transition,
            dim=self._first.shape,
            inputs=[self._data._times[index], window],
            outputs=[self._first],
            device=self._device,
        )
        return self._first_proxy


def _EMPTY3(device: str) -> wp.array:  # noqa: N802
    return wp.zeros((1, 1, 1), dtype=wp.vec3, device=device)
