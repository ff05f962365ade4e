"""Per-env writes of body masses, centers of mass and inertias into the Newton model (core's ``set_*`` setters)."""

from __future__ import annotations

import newton
import torch
import warp as wp
from isaaclab.utils.math import matrix_from_quat

from ..physics import NewtonManager
from .binding import torch_view
from .index_cache import Ids


class BodyPropertyWrites:
    """``set_masses``, ``set_coms`` and ``set_inertias`` (index and mask forms) of Newton's rigid-body assets.

    Each write changes the model rows of the selected envs' bodies only (every env has its own bodies in the
    model), keeps the inverse mass and inertia in step, refreshes the asset's data and notifies the solver with
    ``ModelFlags.BODY_INERTIAL_PROPERTIES``. Values follow core's conventions: masses [kg] (N, B); CoM poses
    (pos [m], quat xyzw) in the body frame (N, B, 7); inertias [kg m^2] about the CoM in the world frame,
    flattened 3x3 (N, B, 9), the frame :attr:`body_inertia` reads.

    Needs ``self._binding.body_indices`` (N, B), ``self._data`` (a ``NewtonBodyDataMixin``), ``self._env_index``,
    ``self._body_index``, ``self._bool_tensor``, ``self._checked``, ``self._all_envs`` and ``self._all_bodies`` (see
    ``NewtonAssetBase``).
    """

    # -- masses ----------------------------------------------------------------------------------------

    def set_masses_index(self, *, masses, body_ids: Ids = None, env_ids: Ids = None) -> None:
        """Set the masses [kg] of the selected bodies, shape (len(env_ids), len(body_ids))."""
        rows, cols, select = self._body_rows(env_ids, body_ids, None, None)
        value = self._checked(masses, (rows.shape[0], cols.shape[0]), "masses", "set_masses_index")
        self._write_masses(value, rows, cols, select)

    def set_masses_mask(self, *, masses, body_mask=None, env_mask=None) -> None:
        """Mask variant of :meth:`set_masses_index` (full-sized ``masses``, (num_instances, num_bodies))."""
        rows, cols, select = self._body_rows(None, None, env_mask, body_mask)
        value = self._checked(masses, (rows.shape[0], cols.shape[0]), "masses", "set_masses_mask")
        self._write_masses(value, rows, cols, select)

    def _write_masses(self, masses: torch.Tensor, rows, cols, select) -> None:
        if bool(torch.any(masses < 0.0)):
            raise ValueError(f"{type(self).__name__}.set_masses: masses must be >= 0 kg (0 makes a body static).")
        model = NewtonManager.get_model()
        inverse = torch.where(masses > 0.0, 1.0 / masses.clamp_min(1e-30), torch.zeros_like(masses))
        self._write_body_rows(model.body_mass, masses, rows, cols, select)
        self._write_body_rows(model.body_inv_mass, inverse, rows, cols, select)
        self._body_properties_changed()

    # -- centers of mass -------------------------------------------------------------------------------

    def set_coms_index(self, *, coms, body_ids: Ids = None, env_ids: Ids = None) -> None:
        """Set the CoM poses in the body frames, (len(env_ids), len(body_ids), 7) (pos [m], identity quat)."""
        rows, cols, select = self._body_rows(env_ids, body_ids, None, None)
        self._write_coms(self._com_value(coms, rows, cols, "set_coms_index"), rows, cols, select)

    def set_coms_mask(self, *, coms, body_mask=None, env_mask=None) -> None:
        """Mask variant of :meth:`set_coms_index` (full-sized ``coms``, (num_instances, num_bodies, 7))."""
        rows, cols, select = self._body_rows(None, None, env_mask, body_mask)
        self._write_coms(self._com_value(coms, rows, cols, "set_coms_mask"), rows, cols, select)

    def _com_value(self, coms, rows, cols, where: str) -> torch.Tensor:
        """The written CoM poses as (R, C, 7); a ``wp.transformf`` array is read as its 7 floats."""
        if isinstance(coms, wp.array) and coms.dtype == wp.transformf:
            coms = wp.to_torch(coms)
        value = self._checked(coms, (rows.shape[0], cols.shape[0], 7), "coms", where, allow_scalar=False)
        identity = torch.tensor((0.0, 0.0, 0.0, 1.0), device=value.device)
        if not bool(torch.all(torch.abs(torch.abs((value[..., 3:] * identity).sum(-1)) - 1.0) < 1e-5)):
            raise ValueError(
                f"{type(self).__name__}.{where}: Newton's body inertia is expressed in the body frame, so the CoM"
                " frame's orientation must be the identity (0, 0, 0, 1); rotate the inertia with set_inertias_*"
                " instead."
            )
        return value[..., :3]

    def _write_coms(self, com: torch.Tensor, rows, cols, select) -> None:
        self._write_body_rows(NewtonManager.get_model().body_com, com, rows, cols, select)
        self._body_properties_changed()

    # -- inertias --------------------------------------------------------------------------------------

    def set_inertias_index(self, *, inertias, body_ids: Ids = None, env_ids: Ids = None) -> None:
        """Set the inertias about the CoM [kg m^2], world frame, flattened 3x3: (len(env_ids), len(body_ids), 9).

        The world-frame tensor is rotated into the body frame with the bodies' current orientation (the frame
        Newton stores), so a value read from :attr:`body_inertia` and written back changes nothing.
        """
        rows, cols, select = self._body_rows(env_ids, body_ids, None, None)
        value = self._checked(inertias, (rows.shape[0], cols.shape[0], 9), "inertias", "set_inertias_index")
        self._write_inertias(value, rows, cols, select)

    def set_inertias_mask(self, *, inertias, body_mask=None, env_mask=None) -> None:
        """Mask variant of :meth:`set_inertias_index` (full-sized ``inertias``, (num_instances, num_bodies, 9))."""
        rows, cols, select = self._body_rows(None, None, env_mask, body_mask)
        value = self._checked(inertias, (rows.shape[0], cols.shape[0], 9), "inertias", "set_inertias_mask")
        self._write_inertias(value, rows, cols, select)

    def _write_inertias(self, inertias: torch.Tensor, rows, cols, select) -> None:
        quat = self._data.body_link_quat_w.torch[rows[:, None], cols[None, :]]
        rot = matrix_from_quat(quat)
        body = rot.transpose(-1, -2) @ inertias.reshape(*inertias.shape[:-1], 3, 3) @ rot
        body = 0.5 * (body + body.transpose(-1, -2))
        model = NewtonManager.get_model()
        self._write_body_rows(model.body_inertia, body, rows, cols, select)
        self._write_body_rows(model.body_inv_inertia, torch.linalg.pinv(body), rows, cols, select)
        self._body_properties_changed()

    # -- shared ----------------------------------------------------------------------------------------

    def _body_rows(self, env_ids: Ids, body_ids: Ids, env_mask, body_mask):
        """(env rows, body columns, element selection or ``None``) of a body property write."""
        if env_mask is None and body_mask is None:
            return self._env_index.resolve_torch(env_ids), self._body_index.resolve_torch(body_ids), None
        rows, cols = self._all_envs, self._all_bodies
        envs = torch.ones(rows.shape[0], dtype=torch.bool, device=self.device)
        bodies = torch.ones(cols.shape[0], dtype=torch.bool, device=self.device)
        if env_mask is not None:
            envs = self._bool_tensor(env_mask, rows.shape[0], "env_mask")
        if body_mask is not None:
            bodies = self._bool_tensor(body_mask, cols.shape[0], "body_mask")
        return rows, cols, envs[:, None] & bodies[None, :]

    def _write_body_rows(self, array: wp.array, value: torch.Tensor, rows, cols, select) -> None:
        """``array[body] = value`` for the (row, column) bodies, keeping entries outside ``select``."""
        target = torch_view(array)
        bodies = self._binding.body_indices[rows[:, None], cols[None, :]].to(target.device)
        value = value.to(device=target.device, dtype=target.dtype).reshape(*bodies.shape, *target.shape[1:])
        if select is not None:
            keep = select.to(target.device).reshape(*select.shape, *([1] * (target.dim() - 1)))
            value = torch.where(keep, value, target[bodies])
        target[bodies] = value

    def _body_properties_changed(self) -> None:
        """Refresh the asset's mass/CoM/inertia data and tell the solver the inertial properties changed."""
        self._data.read_body_properties()
        solver = NewtonManager.get_solver()
        if solver is not None:
            solver.notify_model_changed(newton.ModelFlags.BODY_INERTIAL_PROPERTIES)
