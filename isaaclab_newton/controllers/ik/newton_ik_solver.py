"""Batched inverse kinematics over one articulation model with Newton's :class:`newton.ik.IKSolver`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import newton
import newton.ik
import warp as wp

from .newton_ik_objectives import NewtonIKJointLimitObjective, NewtonIKPoseObjective
from .newton_ik_objectives_cfg import NewtonIKJointLimitObjectiveCfg, NewtonIKPoseObjectiveCfg
from .newton_ik_solver_cfg import NewtonIKSolverCfg


class NewtonIKSolver:
    """Solve ``num_envs`` IK problems on one articulation model in one batch.

    ``model`` holds a single articulation (for an Isaac Lab articulation,
    :func:`~isaaclab_newton.controllers.ik.build_articulation_ik_model` makes one in the robot's root frame); each
    problem has its own targets and seed. Targets are written into the objectives' buffers
    (:attr:`objectives_by_name`), then :meth:`solve` runs the optimizer and returns the best solution per
    problem. All buffers are allocated here; :meth:`solve` only launches kernels.

    Args:
        cfg: Solver settings.
        model: The articulation model to solve on.
        num_envs: Number of problems.
        device: Device of the problems; ``None`` uses the model's. Must match the model's device.
        objectives: Objective configurations, in residual order.
        link_resolver: Maps a body name to its index in ``model``; ``None`` matches the last component of the
            model's body labels.
        joint_dof_mask: Optional per-DOF mask of the DOFs the optimizer may move (the others keep their seed
            values); only with ``optimizer="lm"`` and ``sampler="none"``.

    Raises:
        ValueError: If ``objectives`` is empty, holds two objectives of one name, names a body the resolver does
            not know, or ``device`` differs from the model's.
        TypeError: If an objective configuration is of an unknown type.
    """

    def __init__(
        self,
        cfg: NewtonIKSolverCfg,
        *,
        model: newton.Model,
        num_envs: int,
        device: str | None = None,
        objectives: Sequence[NewtonIKPoseObjectiveCfg | NewtonIKJointLimitObjectiveCfg],
        link_resolver: Callable[[str], int] | None = None,
        joint_dof_mask: wp.array | None = None,
    ):
        if device is not None and wp.get_device(device) != model.device:
            raise ValueError(f"NewtonIKSolver device {device!r} differs from the model's device {model.device}.")
        if not objectives:
            raise ValueError("NewtonIKSolver needs at least one objective (e.g. a NewtonIKPoseObjectiveCfg).")
        self.cfg = cfg
        self.model = model
        self.num_envs = num_envs
        resolve = link_resolver or _label_resolver(model)
        self.objectives: list[NewtonIKPoseObjective | NewtonIKJointLimitObjective] = []
        for obj_cfg in objectives:
            if isinstance(obj_cfg, NewtonIKPoseObjectiveCfg):
                obj = NewtonIKPoseObjective(
                    obj_cfg, link_index=resolve(obj_cfg.body_name), num_envs=num_envs, device=model.device
                )
            elif isinstance(obj_cfg, NewtonIKJointLimitObjectiveCfg):
                obj = NewtonIKJointLimitObjective(obj_cfg, model=model)
            else:
                raise TypeError(
                    f"Unknown IK objective configuration {type(obj_cfg).__name__}; use NewtonIKPoseObjectiveCfg or"
                    " NewtonIKJointLimitObjectiveCfg."
                )
            self.objectives.append(obj)
        self.objectives_by_name = {obj.name: obj for obj in self.objectives}
        """The objectives keyed by name (a pose objective's name defaults to its body name)."""
        if len(self.objectives_by_name) != len(self.objectives):
            names = [obj.name for obj in self.objectives]
            raise ValueError(f"IK objective names must be unique; got {names}. Set each objective's 'name'.")
        self._solver = newton.ik.IKSolver(
            model,
            num_envs,
            [o for obj in self.objectives for o in obj.newton_objectives],
            optimizer=cfg.optimizer,
            jacobian_mode=cfg.jacobian_mode,
            sampler=cfg.sampler,
            n_seeds=cfg.n_seeds,
            noise_std=cfg.noise_std,
            rng_seed=cfg.rng_seed,
            lambda_initial=cfg.lambda_initial,
            lambda_factor=cfg.lambda_factor,
            lambda_min=cfg.lambda_min,
            lambda_max=cfg.lambda_max,
            rho_min=cfg.rho_min,
            joint_dof_mask=joint_dof_mask,
            history_len=cfg.history_len,
            h0_scale=cfg.h0_scale,
            line_search_alphas=cfg.line_search_alphas,
            wolfe_c1=cfg.wolfe_c1,
            wolfe_c2=cfg.wolfe_c2,
        )
        self.solution = wp.zeros((num_envs, model.joint_coord_count), dtype=wp.float32, device=model.device)
        """Best joint coordinates of each problem from the latest :meth:`solve` [m or rad], shape
        (num_envs, joint_coord_count)."""

    @property
    def joint_q(self) -> wp.array:
        """Joint coordinates of every candidate seed [m or rad], shape (num_envs * n_seeds, joint_coord_count)."""
        return self._solver.joint_q

    @property
    def costs(self) -> wp.array:
        """Objective cost of every candidate seed from the latest solve, shape (num_envs * n_seeds,)."""
        return self._solver.costs

    def solve(self, joint_q: wp.array) -> wp.array:
        """Run the optimizer from the seeds ``joint_q`` and return :attr:`solution`.

        Args:
            joint_q: Seed joint coordinates [m or rad], float32, shape (num_envs, joint_coord_count).

        Returns:
            :attr:`solution`, overwritten with the best candidate of each problem.

        Raises:
            ValueError: If ``joint_q`` has another shape or dtype.
        """
        expected = (self.num_envs, self.model.joint_coord_count)
        if joint_q.shape != expected or joint_q.dtype != wp.float32:
            raise ValueError(
                f"IK seeds must be float32 of shape {expected} (num_envs, joint_coord_count); got"
                f" {wp.types.type_repr(joint_q.dtype)} of shape {joint_q.shape}."
            )
        self._solver.step(joint_q, self.solution, iterations=self.cfg.iterations, step_size=self.cfg.step_size)
        return self.solution


def _label_resolver(model: newton.Model) -> Callable[[str], int]:
    """Body-name lookup on the last component of the model's body labels."""
    leaves = [label.rstrip("/").rsplit("/", 1)[-1] for label in model.body_label]

    def resolve(body_name: str) -> int:
        matches = [i for i, leaf in enumerate(leaves) if leaf == body_name]
        if len(matches) != 1:
            raise ValueError(
                f"IK body {body_name!r} matches {len(matches)} bodies of the IK model; expected one of {leaves}."
            )
        return matches[0]

    return resolve
