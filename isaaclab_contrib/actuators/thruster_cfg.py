"""Configuration of a group of rotor thrusters with first-order motor dynamics."""

from __future__ import annotations

from dataclasses import MISSING

from isaaclab.utils import configclass

from .thruster import Thruster


@configclass
class ThrusterCfg:
    """A group of identical rotors on a :class:`~isaaclab_contrib.assets.Multirotor`.

    Each rotor produces a thrust ``f = k * w**2`` along the root body's +z axis from its rotor speed ``w`` (the
    unit of ``w`` is the one ``thrust_const_range`` is given for, the same as ``MultirotorCfg.init_state.rps``).
    The rotor speed follows its target ``sqrt(f_target / k)`` with a first-order lag whose time constant is
    ``tau_inc`` while speeding up and ``tau_dec`` while slowing down. Per env and rotor, ``k``, ``tau_inc`` and
    ``tau_dec`` are sampled uniformly from their ranges when the env resets.
    """

    class_type: type = Thruster
    """The thruster implementation."""

    thruster_names_expr: list[str] = MISSING
    """Regular expressions over the multirotor's body names, one rotor body per match (in expression order)."""

    thrust_range: tuple[float, float] = MISSING
    """(min, max) thrust per rotor [N]; targets are clamped to it."""

    thrust_const_range: tuple[float, float] = MISSING
    """(min, max) thrust constant ``k`` [N / speed^2], positive."""

    tau_inc_range: tuple[float, float] = MISSING
    """(min, max) motor time constant while the rotor speeds up [s], positive."""

    tau_dec_range: tuple[float, float] = MISSING
    """(min, max) motor time constant while the rotor slows down [s], positive."""

    torque_to_thrust_ratio: float = 0.0
    """Rotor drag moment per unit thrust [m]: yaw moment ``direction * ratio * f`` about the rotor axis."""

    dt: float = 0.01
    """Update period of the motor model [s]; must equal the simulation's physics step ``sim.dt``."""
