"""Configuration of the batched Newton inverse-kinematics solver."""

from __future__ import annotations

from typing import Literal

from isaaclab.utils import configclass


@configclass
class NewtonIKSolverCfg:
    """Settings of :class:`~isaaclab_newton.controllers.ik.NewtonIKSolver` (Newton's :class:`newton.ik.IKSolver`).

    One IK problem is solved per environment, all in one batch on the simulation device.
    """

    optimizer: Literal["lm", "lbfgs"] = "lm"
    """Optimizer: Levenberg-Marquardt (``"lm"``) or L-BFGS (``"lbfgs"``)."""

    jacobian_mode: Literal["analytic", "autodiff", "mixed"] = "analytic"
    """How the objectives' Jacobians are evaluated (closed form, Warp autodiff, or analytic where available)."""

    iterations: int = 10
    """Optimizer iterations per solve."""

    step_size: float = 1.0
    """Scale of each Levenberg-Marquardt update (unitless; the L-BFGS optimizer ignores it)."""

    sampler: Literal["none", "gauss", "roberts", "uniform"] = "none"
    """Seed sampling before optimization: ``"none"`` starts from the given joint positions only."""

    n_seeds: int = 1
    """Candidate seeds per problem; the lowest-cost candidate is kept. Must be 1 with ``sampler="none"``."""

    noise_std: float = 0.1
    """Standard deviation of the ``"gauss"`` sampler's perturbation [m or rad]."""

    rng_seed: int = 12345
    """Seed of the stochastic samplers."""

    lambda_initial: float = 0.1
    """Initial Levenberg-Marquardt damping (unitless)."""

    lambda_factor: float = 2.0
    """Factor by which the Levenberg-Marquardt damping grows or shrinks after each step."""

    lambda_min: float = 1.0e-5
    """Lower bound of the Levenberg-Marquardt damping."""

    lambda_max: float = 1.0e10
    """Upper bound of the Levenberg-Marquardt damping."""

    rho_min: float = 1.0e-3
    """Minimum ratio of actual to predicted cost reduction for a Levenberg-Marquardt step to be accepted."""

    history_len: int = 10
    """Correction pairs kept by L-BFGS."""

    h0_scale: float = 1.0
    """Initial inverse-Hessian scale of L-BFGS."""

    line_search_alphas: tuple[float, ...] | None = None
    """Candidate L-BFGS line-search step sizes; ``None`` uses Newton's defaults."""

    wolfe_c1: float = 1.0e-4
    """Armijo constant of the L-BFGS line search."""

    wolfe_c2: float = 0.9
    """Curvature constant of the L-BFGS line search."""
