"""Core's fixed tendon API on Newton: finders, buffered property setters (index and mask) and the writers.

The setters fill :class:`~.articulation_data.ArticulationData`'s fixed tendon buffers; the writers copy them into
``model.mujoco.tendon_*`` (:class:`~.fixed_tendons.FixedTendons`) and notify the solver, as core's API defines.
"""

from __future__ import annotations

from collections.abc import Sequence

import newton
import torch
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..index_cache import IndexResolver
from ..newton_asset import Ids
from .fixed_tendons import LIMIT_STIFFNESS, WRITABLE, FixedTendons


class FixedTendonWritesMixin:
    """Fixed tendons of an :class:`~.articulation.Articulation` (mixed in before core's ``BaseArticulation``)."""

    _fixed_tendons: FixedTendons

    @property
    def num_fixed_tendons(self) -> int:
        """Number of fixed tendons (MuJoCo ``<tendon><fixed>`` imported with the articulation)."""
        return len(self._fixed_tendons)

    @property
    def fixed_tendon_names(self) -> list[str]:
        """Fixed tendon names, in model order."""
        return list(self._fixed_tendons.names)

    def find_fixed_tendons(
        self,
        name_keys: str | Sequence[str],
        tendon_subsets: list[str] | None = None,
        preserve_order: bool = False,
        *,
        as_proxy: bool = False,
    ) -> tuple[list[int] | ProxyArray, list[str]]:
        """Find fixed tendons by regular expressions (see :func:`isaaclab.utils.string.resolve_matching_names`)."""
        ids, names = self._fixed_tendons.find(name_keys, tendon_subsets, preserve_order)
        return (self._proxy_ids(ids) if as_proxy else ids), names

    def _process_tendons(self) -> None:
        """Collect the fixed tendons from the model and read their properties into the data buffers."""
        model = NewtonManager.get_model()
        self._fixed_tendons = FixedTendons.of(model, self._binding.articulation_ids, self.device)
        count = len(self._fixed_tendons)
        self._tendon_index = IndexResolver(count, self.device, what=f"{type(self).__name__} fixed_tendon_ids")
        self._limit_stiffness_set = torch.zeros((self.num_instances, count), dtype=torch.bool, device=self.device)
        if count:
            self._data.set_fixed_tendon_properties(self._fixed_tendons.read(model))
            self._data.refresh_fixed_tendon_limit_stiffness = self._refresh_limit_stiffness
            self._refresh_limit_stiffness()

    def _refresh_limit_stiffness(self) -> None:
        """Read the limit stiffness the solver reports once it exists (where no new value is buffered).

        The MuJoCo solver converts a tendon limit's native ``solreflimit`` into the equivalent force-space gain
        (``tendon_limit_ke``) when it is built, after the assets initialize; until then the model holds 0.
        """
        if NewtonManager.get_solver() is None:
            return
        self._data.refresh_fixed_tendon_limit_stiffness = None
        model_value = self._fixed_tendons.read(NewtonManager.get_model())[LIMIT_STIFFNESS[0]]
        buffer = self._data._tensor(LIMIT_STIFFNESS[0])
        buffer.copy_(torch.where(self._limit_stiffness_set, buffer, model_value))

    def _tendon_elements(self, env_ids: Ids, tendon_ids: Ids, env_mask, tendon_mask) -> torch.Tensor:
        """Boolean (num_envs, num_fixed_tendons) selection of an index or mask call."""
        elements = torch.zeros((self.num_instances, self.num_fixed_tendons), dtype=torch.bool, device=self.device)
        if env_mask is None and tendon_mask is None:
            rows = self._env_index.resolve_torch(env_ids)
            cols = self._tendon_index.resolve_torch(tendon_ids)
            elements[rows[:, None], cols[None, :]] = True
            return elements
        elements[:] = True
        if env_mask is not None:
            elements &= self._rows(None, env_mask)[1][:, None]
        if tendon_mask is not None:
            elements &= self._bool_tensor(tendon_mask, self.num_fixed_tendons, "fixed_tendon_mask")[None, :]
        return elements

    def _set_tendon_buffer(self, buf: str, value, env_ids, tendon_ids, env_mask, tendon_mask, *, where: str) -> None:
        """Buffer ``value`` into ``data.<buf>``: partial (selected envs x tendons) on the index path, full on masks."""
        if self._data.refresh_fixed_tendon_limit_stiffness is not None:
            self._data.refresh_fixed_tendon_limit_stiffness()
        data = self._data._tensor(buf)
        trailing = tuple(data.shape[2:])
        if env_mask is None and tendon_mask is None:
            rows = self._env_index.resolve_torch(env_ids)
            cols = self._tendon_index.resolve_torch(tendon_ids)
            value = self._checked(value, (rows.shape[0], cols.shape[0], *trailing), buf, where)
            data[rows[:, None], cols[None, :]] = value
        else:
            value = self._checked(value, tuple(data.shape), buf, where)
            elements = self._tendon_elements(None, None, env_mask, tendon_mask)
            data.copy_(torch.where(elements.reshape(*elements.shape, *(1,) * len(trailing)), value, data))
        if buf == "fixed_tendon_limit_stiffness":
            self._limit_stiffness_set |= self._tendon_elements(env_ids, tendon_ids, env_mask, tendon_mask)

    def _setters(buf: str, kw: str, doc: str):  # noqa: N805
        def index(self, *, fixed_tendon_ids: Ids = None, env_ids: Ids = None, **kwargs) -> None:
            where = f"set_{buf}_index"
            self._set_tendon_buffer(buf, kwargs[kw], env_ids, fixed_tendon_ids, None, None, where=where)

        def mask(self, *, fixed_tendon_mask=None, env_mask=None, **kwargs) -> None:
            where = f"set_{buf}_mask"
            self._set_tendon_buffer(buf, kwargs[kw], None, None, env_mask, fixed_tendon_mask, where=where)

        index.__doc__ = f"Buffer {doc} of the selected envs/tendons (keyword ``{kw}``); write with the writers."
        mask.__doc__ = f"Mask variant: buffer {doc} (full-sized keyword ``{kw}``)."
        return index, mask

    set_fixed_tendon_stiffness_index, set_fixed_tendon_stiffness_mask = _setters(
        "fixed_tendon_stiffness", "stiffness", "fixed tendon stiffness [N/m]"
    )
    set_fixed_tendon_damping_index, set_fixed_tendon_damping_mask = _setters(
        "fixed_tendon_damping", "damping", "fixed tendon damping [N s/m]"
    )
    set_fixed_tendon_limit_stiffness_index, set_fixed_tendon_limit_stiffness_mask = _setters(
        "fixed_tendon_limit_stiffness", "limit_stiffness", "fixed tendon limit stiffness [N/m]"
    )
    set_fixed_tendon_position_limit_index, set_fixed_tendon_position_limit_mask = _setters(
        "fixed_tendon_pos_limits", "limit", "fixed tendon length limits (lower, upper) [m], trailing dimension 2"
    )
    del _setters

    def write_fixed_tendon_properties_to_sim_index(self, *, fixed_tendon_ids: Ids = None, env_ids: Ids = None) -> None:
        """Write the buffered fixed tendon properties of the selected envs/tendons into the model and the solver."""
        self._write_tendons(self._tendon_elements(env_ids, fixed_tendon_ids, None, None))

    def write_fixed_tendon_properties_to_sim_mask(self, *, fixed_tendon_mask=None, env_mask=None) -> None:
        """Mask variant of :meth:`write_fixed_tendon_properties_to_sim_index`."""
        self._write_tendons(self._tendon_elements(None, None, env_mask, fixed_tendon_mask))

    def _write_tendons(self, elements: torch.Tensor) -> None:
        if not self.num_fixed_tendons:
            return
        if self._data.refresh_fixed_tendon_limit_stiffness is not None:
            self._data.refresh_fixed_tendon_limit_stiffness()
        data = {name: self._data._tensor(name) for name in (*WRITABLE, LIMIT_STIFFNESS[0])}
        self._fixed_tendons.write(NewtonManager.get_model(), data, elements, self._limit_stiffness_set)
        self._limit_stiffness_set &= ~elements
        solver = NewtonManager.get_solver()
        if solver is not None:
            solver.notify_model_changed(newton.ModelFlags.TENDON_PROPERTIES)
