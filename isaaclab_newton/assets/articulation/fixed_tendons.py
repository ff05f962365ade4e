"""Fixed tendons of an articulation on Newton: MuJoCo's ``<tendon><fixed>`` as imported into ``model.mujoco``.

Newton's MJCF (and USD) importer stores fixed tendons as custom attributes of the ``mujoco:tendon`` frequency
(``model.mujoco.tendon_*``, one row per tendon and world; the MuJoCo solver registers them), and
:class:`~newton.solvers.SolverMuJoCo` reads them per world. A fixed tendon's length is a weighted sum of joint
positions (``sum_i coef_i q_i``); its limit, spring and damper act on that length.

Properties and their Newton attributes (length units follow the joints: [m] or [rad] times the coefficients):

- ``fixed_tendon_stiffness`` <- ``tendon_stiffness``, spring stiffness [N/m];
- ``fixed_tendon_damping`` <- ``tendon_damping``, damping [N s/m];
- ``fixed_tendon_limit_stiffness`` <- ``tendon_limit_ke``, stiffness of the length limit [N/m] (a write switches the
  tendon's limit to these force-space gains, ``tendon_solref_limit_mode = 0``, keeping the reported ``limit_kd``);
- ``fixed_tendon_pos_limits`` <- ``tendon_range``, (lower, upper) length limits [m] (enforced where the tendon is
  limited);
- ``fixed_tendon_rest_length`` <- the lower end of ``tendon_springlength`` (read only: ``-1`` means the length at
  the initial state; the MuJoCo solver does not update it at run time);
- ``fixed_tendon_offset``: MuJoCo tendons have no length offset (always zero, read only).
"""

from __future__ import annotations

from dataclasses import dataclass

import newton
import torch
from isaaclab.utils.string import resolve_matching_names

from ..binding import torch_view

FIXED_TENDON = 0
"""``model.mujoco.tendon_type`` of a fixed tendon (1: spatial)."""

FORCE_SPACE_LIMIT = 0
"""``model.mujoco.tendon_solref_limit_mode`` whose limit gains are ``tendon_limit_ke``/``tendon_limit_kd``."""

WRITABLE = {
    "fixed_tendon_stiffness": "tendon_stiffness",
    "fixed_tendon_damping": "tendon_damping",
    "fixed_tendon_pos_limits": "tendon_range",
}
"""Data buffer -> ``model.mujoco`` attribute that :meth:`FixedTendons.write` copies it into (all written tendons)."""

LIMIT_STIFFNESS = ("fixed_tendon_limit_stiffness", "tendon_limit_ke")
"""The limit stiffness buffer and attribute, written only where it was set (it changes the limit's gain mode)."""


@dataclass
class FixedTendons:
    """The fixed tendons of one articulation in every env: names and per-env rows of ``model.mujoco.tendon_*``.

    Attributes:
        names: Tendon names (the label's leaf), in model order.
        rows: Row of each env's tendon in the ``mujoco:tendon`` arrays, int64, shape (num_envs, num_tendons).
    """

    names: list[str]
    rows: torch.Tensor

    @classmethod
    def of(cls, model: newton.Model, articulation_ids: torch.Tensor | list[int], device: str) -> FixedTendons:
        """Collect the fixed tendons of the articulations ``articulation_ids`` (one per env) from ``model``.

        A model without MuJoCo tendon attributes (another solver, or no tendon in the file) gives no tendons.

        Raises:
            ValueError: If the envs' articulations carry different tendon counts (not one replicated asset).
        """
        attrs = getattr(model, "mujoco", None)
        owner = getattr(attrs, "tendon_articulation", None)
        art_ids = torch.as_tensor(articulation_ids, dtype=torch.long).cpu()
        if owner is None or owner.shape[0] == 0:
            return cls([], torch.zeros((len(art_ids), 0), dtype=torch.long, device=device))
        owner = torch.as_tensor(owner.numpy(), dtype=torch.long)
        fixed = torch.as_tensor(attrs.tendon_type.numpy()) == FIXED_TENDON
        per_env = [torch.nonzero(fixed & (owner == art), as_tuple=True)[0] for art in art_ids.tolist()]
        counts = {len(rows) for rows in per_env}
        if len(counts) != 1:
            raise ValueError(
                f"The articulations {art_ids.tolist()} carry different fixed tendon counts {sorted(counts)}; an"
                " Articulation asset needs the same tendons in every env (replicate one asset)."
            )
        rows = torch.stack(per_env)
        names = [attrs.tendon_label[int(row)].rsplit("/", 1)[-1] for row in rows[0]]
        return cls(names, rows.to(device))

    def __len__(self) -> int:
        return len(self.names)

    def find(self, name_keys, tendon_subsets: list[str] | None, preserve_order: bool) -> tuple[list[int], list[str]]:
        """Indices and names of the tendons matching ``name_keys`` (regular expressions)."""
        return resolve_matching_names(
            name_keys, self.names if tendon_subsets is None else tendon_subsets, preserve_order
        )

    def read(self, model: newton.Model) -> dict[str, torch.Tensor]:
        """The tendon properties of every env, as the module docstring lists them, shape (num_envs, num_tendons)."""
        attrs = model.mujoco
        out = {
            buf: torch_view(getattr(attrs, attr))[self.rows].clone()
            for buf, attr in (*WRITABLE.items(), LIMIT_STIFFNESS)
        }
        out["fixed_tendon_rest_length"] = torch_view(attrs.tendon_springlength)[self.rows][..., 0].clone()
        out["fixed_tendon_offset"] = torch.zeros_like(out["fixed_tendon_stiffness"])
        return out

    def write(
        self, model: newton.Model, data: dict[str, torch.Tensor], elements: torch.Tensor, limit_set: torch.Tensor
    ) -> None:
        """Copy the buffers of ``data`` into ``model.mujoco`` where ``elements`` (num_envs, num_tendons) is set.

        The limit stiffness is copied only where ``limit_set`` is set too, and those tendons' limits switch to
        force-space gains. The caller notifies the solver (``ModelFlags.TENDON_PROPERTIES``).
        """
        attrs = model.mujoco
        for buf, attr in WRITABLE.items():
            _write_rows(torch_view(getattr(attrs, attr)), self.rows, data[buf], elements)
        stiff = elements & limit_set
        _write_rows(torch_view(getattr(attrs, LIMIT_STIFFNESS[1])), self.rows, data[LIMIT_STIFFNESS[0]], stiff)
        mode = torch_view(attrs.tendon_solref_limit_mode)
        mode[self.rows] = torch.where(stiff, FORCE_SPACE_LIMIT, mode[self.rows])


def _write_rows(view: torch.Tensor, rows: torch.Tensor, value: torch.Tensor, select: torch.Tensor) -> None:
    """``view[rows] = value`` where ``select`` (the rows' shape) is set; trailing value dimensions follow it."""
    current = view[rows]
    view[rows] = torch.where(select.reshape(*select.shape, *(1,) * (current.dim() - select.dim())), value, current)
